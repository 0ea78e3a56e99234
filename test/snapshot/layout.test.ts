// The snapshot's files: names as sailpoint-cli gives them, made safe and unique; the
// one-element-per-line arrays read back with file:line errors.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isTransformsError } from '../../src/errors/index.js';
import { ArrayFileReader, readArrayFile } from '../../src/snapshot/array-file-reader.js';
import { ArrayFileWriter, type Kept } from '../../src/snapshot/array-file-writer.js';
import { accountRecord, fileNames, identityRecord } from '../../src/snapshot/layout.js';
import type { Account, Identity } from '../../src/providers/types.js';

const tmp = mkdtempSync(join(tmpdir(), 'idt-snapshot-layout-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('identityRecord and accountRecord', () => {
  it('keep an identity\'s modified and identityProfile, in a fixed order after managerId, and only when the tenant answered them', () => {
    const answered = { attributes: { uid: 'a' }, identityProfile: { id: 'p1', name: 'Employees', extra: 1 }, name: 'a', id: 'i1', modified: '2026-01-02T00:00:00Z', created: 'x' } as unknown as Identity;
    expect(JSON.stringify(identityRecord(answered))).toBe('{"id":"i1","name":"a","attributes":{"uid":"a"},"managerId":null,"modified":"2026-01-02T00:00:00Z","identityProfile":{"id":"p1","name":"Employees"}}');
    expect(JSON.stringify(identityRecord({ id: 'i1', name: 'a', attributes: {} }))).toBe('{"id":"i1","name":"a","attributes":{},"managerId":null}');
  });

  it('keep an account\'s modified only when it says more than created (a reader takes an absent modified as created)', () => {
    const account = { id: 'a1', identityId: 'i1', sourceId: 's1', nativeIdentity: 'n', name: 'n', created: '2026-01-01T00:00:00Z', hasEntitlements: false, attributes: {} } as Account;
    expect(accountRecord({ ...account, modified: '2026-01-03T00:00:00Z' })).toEqual({ ...account, modified: '2026-01-03T00:00:00Z' });
    expect(Object.keys(accountRecord({ ...account, modified: '2026-01-03T00:00:00Z' }))).toEqual(['id', 'identityId', 'sourceId', 'nativeIdentity', 'name', 'created', 'modified', 'hasEntitlements', 'attributes']);
    expect(accountRecord({ ...account, modified: account.created })).not.toHaveProperty('modified');
  });
});

describe('fileNames', () => {
  it.each([
    ['Clean Department', 'CleanDepartment.json'],
    ['WD - HireDate', 'WD-HireDate.json'],
    ['Custom Rule (errors unless registered)', 'CustomRule(errorsunlessregistered).json'],
    ['Time: Zone', 'Time Zone.json'],
    ['../../etc/passwd', '_.._.._etc_passwd.json'],
    ['.hidden', '_.hidden.json'],
    ['. Leading', '_.Leading.json'],
    ['a\\b\u0000c', 'a_b_c.json'],
    ['..', '_...json'],
    ['   ', '_.json'],
  ])('names %j %s, as sailpoint-cli does and inside the directory', (name, file) => {
    expect(fileNames([{ id: 'x', name }])[0]!.file).toBe(file);
  });

  it('tells apart names that land on one file, also without case, by id, in a stable assignment', () => {
    const records = [
      { id: 'id-2', name: 'A B' },
      { id: 'id-1', name: 'AB' },
      { id: 'id-3', name: 'ab' },
    ];
    const named = fileNames(records).map((r) => [r.record.id, r.file]);
    expect(named).toEqual([
      ['id-2', 'AB.json'],
      ['id-1', 'AB.id-1.json'],
      ['id-3', 'ab.id-3.json'],
    ]);
    expect(fileNames([...records].reverse()).map((r) => [r.record.id, r.file])).toEqual(named);
  });
});

describe('ArrayFileWriter, ArrayFileReader and readArrayFile', () => {
  it('writes the one-per-line layout, continues from a byte position, and reads it back', async () => {
    const file = join(tmp, 'a.json');
    const w = await ArrayFileWriter.open(file);
    await w.add([JSON.stringify({ id: '1' }), JSON.stringify({ id: '2' })]);
    const { bytes, elements } = w;
    await w.add([JSON.stringify({ id: 'lost' })]);
    await w.close();
    const resumed = await ArrayFileWriter.open(file, bytes, elements);
    await resumed.add([JSON.stringify({ id: '3', name: 'Zoë' })]);
    await resumed.finish();
    const read = [];
    for await (const e of readArrayFile<{ id: string }>(file)) read.push([e.line, e.text]);
    expect(read).toEqual([[2, '{"id":"1"}'], [3, '{"id":"2"}'], [4, '{"id":"3","name":"Zoë"}']]);
    const empty = await ArrayFileWriter.open(join(tmp, 'empty.json'));
    await empty.finish();
    for await (const _ of readArrayFile(join(tmp, 'empty.json'))) throw new Error('no element expected');
  });

  it('reads on from a position it reported, and the leading members alone when asked', async () => {
    const file = join(tmp, 'b.json');
    const w = await ArrayFileWriter.open(file);
    await w.add([{ id: 'a1', identityId: 'i1', x: 1 }, { id: 'a2', identityId: 'i"2', x: 'é' }, { identityId: 'i3', id: 'a3' }, { id: 'a4', identityId: 'i4' }].map((r) => JSON.stringify(r)));
    await w.finish();
    const first = new ArrayFileReader<{ id: string; identityId: string }>(file, { members: ['id', 'identityId'] });
    await first.fillUntil((a) => a.identityId > 'i1');
    expect(first.take()!.value).toEqual({ id: 'a1', identityId: 'i1' });
    const at = first.position;
    await first.close();
    const rest = [];
    for await (const e of readArrayFile<{ id: string }>(file, { from: at, members: ['id', 'identityId'] })) rest.push([e.line, e.value]);
    // The third line does not begin with the members: it is parsed whole.
    expect(rest).toEqual([[3, { id: 'a2', identityId: 'i"2' }], [4, { identityId: 'i3', id: 'a3' }], [5, { id: 'a4', identityId: 'i4' }]]);
  });

  it('reads leading members that are not plain ASCII, escaped, long or not strings as JSON reads them', async () => {
    const file = join(tmp, 'members.json');
    const records = [
      { id: 'ä1', identityId: '名前', x: 1 },
      { id: 'a\\2', identityId: 'i\u00e93\n', x: 2 },
      { id: 'a'.repeat(400), identityId: 'i4' },
      { id: 'a5', identityId: 5 },
      { id: 'a6' },
      { id: 'a7', identityId: 'x"' },
    ];
    const w = await ArrayFileWriter.open(file);
    await w.add(records.map((r) => JSON.stringify(r)));
    await w.finish();
    const values = [];
    for await (const e of readArrayFile<{ id: string }>(file, { members: ['id', 'identityId'] })) values.push(e.value);
    // A line that does not begin with both as strings is parsed whole.
    expect(values).toEqual(records.map((r) => (typeof r.identityId === 'string' ? { id: r.id, identityId: r.identityId } : r)));
  });

  it('copies kept lines back as the same bytes, also across megabyte chunks whose buffers are released and read into again', async () => {
    const file = join(tmp, 'big.json');
    const source = await ArrayFileWriter.open(file);
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: `a${String(i).padStart(5, '0')}`, identityId: `i${i >> 2}`, pad: 'x'.repeat(900), n: i }));
    await source.add(lines);
    await source.finish();
    const reader = new ArrayFileReader<{ id: string; identityId: string }>(file, { members: ['id', 'identityId'] });
    const copy = await ArrayFileWriter.open(join(tmp, 'copy.json'));
    // Every third line is replaced by a new text; the others are kept as read. A batch is
    // written after the next chunk is read (as a merge's pages are), then released.
    let pending: { batch: (string | Kept)[]; until: number } | null = null;
    for (;;) {
      const more = await reader.fill();
      const batch: (string | Kept)[] = [];
      for (let e = reader.take(); e !== undefined; e = reader.take()) batch.push(Number(e.value.id.slice(1)) % 3 === 0 ? lines[Number(e.value.id.slice(1))]! : e);
      if (pending !== null) {
        await copy.add(pending.batch);
        reader.release(pending.until);
      }
      pending = { batch, until: reader.position.bytes };
      if (!more) break;
    }
    await copy.add(pending!.batch);
    await copy.finish();
    expect(readFileSync(join(tmp, 'copy.json'), 'utf8')).toBe(readFileSync(file, 'utf8'));
  });

  it('skips a byte-order mark before the opening [ (decision C4)', async () => {
    const file = join(tmp, 'bom.json');
    writeFileSync(file, '\ufeff[\n{"id":"1"},\n{"id":"2"}\n]\n');
    const ids: string[] = [];
    for await (const e of readArrayFile<{ id: string }>(file)) ids.push(e.value.id);
    expect(ids).toEqual(['1', '2']);
  });

  it.each([
    ['\ufeff\ufeff[\n]\n', 1, 'expected "["'],
    ['[{"id":"1"}]\n', 1, 'expected "["'],
    ['[\n{"id":"1"},\n{"id":\n]\n', 3, 'not one JSON element per line'],
    ['[\n{"name":"x"}\n]\n', 2, 'string "id"'],
    ['[\n{"id":"1"},\n', 2, 'not closed'],
    ['[\n]\n]\n', 3, 'after the closing'],
  ])('refuses %j at line %i (SNAPSHOT_PREVIOUS)', async (text, line, why) => {
    const file = join(tmp, `bad-${line}-${why.length}.json`);
    writeFileSync(file, text);
    const error = await (async () => {
      for await (const _ of readArrayFile(file));
    })().catch((e: unknown) => e);
    expect(isTransformsError(error) && error.code).toBe('SNAPSHOT_PREVIOUS');
    expect((error as Error).message).toContain(`${file}:${line}: `);
    expect((error as Error).message).toContain(why);
  });
});
