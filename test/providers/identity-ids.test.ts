// Two identities with one id in identities.json: every reader of fixtures refuses them with the
// same CLI_FIXTURES error, at the second occurrence and naming the first (the whole-file reader
// of evaluate and impact, the refresh's pre-pass, the language service's tenant model of lsp and
// play, the server's seed); the pre-pass compares ids only where two hashes meet.

import { afterAll, describe, expect, it } from 'vitest';
import { seedStore } from '../../src/api/store/seed.js';
import { Store } from '../../src/api/store/store.js';
import { loadTenantModel } from '../../src/language/tenant-model.js';
import { loadFixtures } from '../../src/providers/fixtures.js';
import { repeatedHashedId } from '../../src/providers/identity-ids.js';
import { TenantStream } from '../../src/refresh/fixture-stream/stream.js';
import { cleanUp, handTenant } from '../refresh/tenants.js';

afterAll(cleanUp);

/** identities.json, one element a line after the opening bracket: element i is on line i + 2, column 1. */
function tenant(ids: string[]): string {
  return handTenant({ identities: ids.map((id, i) => ({ id, name: `person.${i}`, attributes: {} })) });
}

const REPEATED = ['id-a', 'id-b', 'id-c', 'id-b', 'id-a'];

const readers: [string, (dir: string) => unknown][] = [
  ['the whole-file reader (evaluate, impact, mcp)', (dir) => loadFixtures(dir)],
  ['the refresh pre-pass (refresh, impact, verify)', (dir) => new TenantStream(dir)],
  ['the tenant model (lsp, play)', (dir) => loadTenantModel(dir)],
  ['the server seed (serve)', (dir) => seedStore(Store.open(), dir, { now: new Date('2025-01-01T00:00:00Z'), secretHashCost: 10 })],
];

/** The error a reader throws or rejects with; null when it reads the tenant. */
async function settle(read: () => unknown): Promise<unknown> {
  try {
    await read();
    return null;
  } catch (error) {
    return error;
  }
}

describe('a repeated identity id', () => {
  it.each(readers)('%s: CLI_FIXTURES at the first repeat, naming the identity whose id it repeats', async (_name, read) => {
    const dir = tenant(REPEATED);
    const file = `${dir}/identities.json`;
    const error = await settle(() => read(dir));
    expect(error).toMatchObject({
      code: 'CLI_FIXTURES',
      path: '/3/id',
      message: `${file}:5:1: identity 3 has the id "id-b" of identity 1 (${file}:3:1): every identity in identities.json needs an id of its own`,
      details: { file, line: 5, column: 1, first: { index: 1, line: 3, column: 1 } },
    });
  });

  it.each(readers)('%s: ids of their own are read as before', async (_name, read) => {
    expect(await settle(() => read(tenant(['id-a', 'id-b', 'ID-A', 'id-a '])))).toBeNull();
  });
});

describe('repeatedHashedId', () => {
  const at = (ids: string[]) => (i: number) => ({ id: ids[i]!, index: i, offset: i * 100 });

  it('finds nothing, and reads no id back, when no two hashes meet', () => {
    const read: number[] = [];
    expect(repeatedHashedId(Float64Array.from([5, 3, 9, 1]), 4, (i) => (read.push(i), at(['a', 'b', 'c', 'd'])(i)))).toBeNull();
    expect(read).toEqual([]);
  });

  it('tells two ids that share a hash from one id given twice', () => {
    // Ids 0 and 2 share a hash but differ; 1 and 3 share one and are the same id.
    const ids = ['x', 'same', 'y', 'same'];
    expect(repeatedHashedId(Float64Array.from([7, 8, 7, 8]), 4, at(ids))).toEqual({ id: 'same', first: { index: 1, offset: 100 }, second: { index: 3, offset: 300 } });
    expect(repeatedHashedId(Float64Array.from([7, 8, 7, 9]), 4, at(ids))).toBeNull();
  });

  it('reports the repeat whose second occurrence comes first, and looks only at the first `count` hashes', () => {
    const ids = ['a', 'b', 'b', 'a', 'c', 'c'];
    expect(repeatedHashedId(Float64Array.from([1, 2, 2, 1, 0, 0]), 6, at(ids))?.id).toBe('b');
    expect(repeatedHashedId(Float64Array.from([1, 2, 3, 4, 9, 9]), 4, at(ids))).toBeNull();
  });
});
