// The managers' index (src/refresh/manager-index.ts): hashed ids with byte ranges, each lookup
// verified against the id read back, so that a hash collision can never return another identity.

import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hash53, ManagerIndex } from '../../src/refresh/fixture-stream/manager-index.js';
import { cleanUp, tempDir } from './tenants.js';

afterAll(cleanUp);

const people = [
  { id: 'm-1', name: 'first' },
  { id: 'm-2', name: 'second' },
  { id: 'm-1', name: 'duplicate of m-1' },
  { id: 'm-3', name: 'third' },
];

function indexed(): { fd: number; index: ManagerIndex } {
  const file = join(tempDir(), 'identities.json');
  const texts = people.map((p) => JSON.stringify(p));
  writeFileSync(file, texts.join('\n'));
  const index = new ManagerIndex();
  let offset = 0;
  for (const [i, text] of texts.entries()) {
    if (people[i]!.id !== 'm-3') index.add(people[i]!.id, offset, Buffer.byteLength(text));
    offset += Buffer.byteLength(text) + 1;
  }
  index.freeze();
  return { fd: openSync(file, 'r'), index };
}

const idOf = (text: string) => (JSON.parse(text) as { id: string }).id;

describe('ManagerIndex', () => {
  it('reads a manager back by id, the first listed when an id repeats, null for an id not indexed', () => {
    const { fd, index } = indexed();
    try {
      expect(index.size).toBe(3);
      expect(JSON.parse(index.read(fd, 'm-2', idOf)!)).toEqual(people[1]);
      expect(JSON.parse(index.read(fd, 'm-1', idOf)!)).toEqual(people[0]);
      expect(index.read(fd, 'm-3', idOf)).toBeNull();
      expect(index.read(fd, 'nobody', idOf)).toBeNull();
    } finally {
      closeSync(fd);
    }
  });

  it('never returns a candidate whose real id differs (what a hash collision would look like)', () => {
    const { fd, index } = indexed();
    try {
      expect(index.read(fd, 'm-2', () => 'someone-else')).toBeNull();
    } finally {
      closeSync(fd);
    }
  });

  it('is rebuilt in another thread from its shared arrays, answering the same', () => {
    const { fd, index } = indexed();
    try {
      const shared = index.shared();
      expect(shared.hashes.buffer).toBeInstanceOf(SharedArrayBuffer);
      const copy = ManagerIndex.fromShared(structuredClone(shared));
      expect(copy.size).toBe(3);
      expect(copy.read(fd, 'm-2', idOf)).toBe(index.read(fd, 'm-2', idOf));
      expect(copy.read(fd, 'm-3', idOf)).toBeNull();
    } finally {
      closeSync(fd);
    }
  });

  it('hashes to 53-bit integers, exact in a double, the same every time', () => {
    for (const id of ['', 'a', '2c91808409f45f693cd6e3f3a2393ef1', 'Zoë 東京']) {
      const h = hash53(id);
      expect(Number.isSafeInteger(h)).toBe(true);
      expect(h).toBeGreaterThanOrEqual(0);
      expect(hash53(id)).toBe(h);
    }
    expect(hash53('2c91808409f45f693cd6e3f3a2393ef1')).not.toBe(hash53('2c91808409f45f693cd6e3f3a2393ef2'));
  });
});
