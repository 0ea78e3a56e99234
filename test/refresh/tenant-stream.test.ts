// Streaming a tenant (src/refresh/fixture-stream/stream.ts): each identity with its accounts and its
// manager, in file order, by a merge join over grouped files or a byte-offset index otherwise.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TenantStream, type TenantRecord } from '../../src/refresh/fixture-stream/stream.js';
import { cleanUp, handTenant, hrAccount } from './tenants.js';

afterAll(cleanUp);

const identities = [
  { id: 'a', name: 'ann', attributes: {}, managerId: 'c' },
  { id: 'b', name: 'bob', attributes: {}, managerId: null },
  { id: 'c', name: 'cat', attributes: { networkDn: 'CN=Cat' }, managerId: 'b' },
  { id: 'd', name: 'dan', attributes: {}, managerId: 'nobody' },
];
const accounts = [hrAccount('a', { n: 1 }), hrAccount('a', { n: 2 }), hrAccount('c', { n: 3 }), hrAccount('d', { n: 4 })];

function records(dir: string): { scan: TenantStream['scan']; records: TenantRecord[] } {
  const stream = new TenantStream(dir);
  return { scan: stream.scan, records: [...stream.records()] };
}

function summary(r: TenantRecord) {
  return {
    id: r.identityId,
    ordinal: r.ordinal,
    accounts: (JSON.parse(r.accounts) as { attributes: { n: number } }[]).map((a) => a.attributes.n),
    manager: r.manager === null ? null : (JSON.parse(r.manager) as { name: string }).name,
  };
}

const expected = [
  { id: 'a', ordinal: 0, accounts: [1, 2], manager: 'cat' },
  { id: 'b', ordinal: 1, accounts: [], manager: null },
  { id: 'c', ordinal: 2, accounts: [3], manager: 'bob' },
  { id: 'd', ordinal: 3, accounts: [4], manager: null },
];

describe('TenantStream', () => {
  it('joins accounts grouped in identity order with a merge join, and finds managers listed after their reports', () => {
    const { scan, records: got } = records(handTenant({ identities, accounts }));
    expect(scan).toMatchObject({ total: 4, selected: 4, accounts: 4, accountsIndex: 'merge', managers: 2 });
    expect(got.map(summary)).toEqual(expected);
  });

  it('falls back to a byte-offset index when accounts are not grouped in identity order (same records)', () => {
    const shuffled = [accounts[3]!, accounts[0]!, accounts[2]!, accounts[1]!];
    const { scan, records: got } = records(handTenant({ identities, accounts: shuffled }));
    expect(scan.accountsIndex).toBe('offsets');
    expect(got.map(summary)).toEqual(expected);
  });

  it('treats accounts of an identity that is not listed as out of order (they are never joined)', () => {
    const { scan, records: got } = records(handTenant({ identities, accounts: [...accounts, hrAccount('ghost', { n: 9 })] }));
    expect(scan.accountsIndex).toBe('offsets');
    expect(got.map(summary)).toEqual(expected);
  });

  it('reads members in any order and layout (the fast path and JSON.parse agree)', () => {
    const dir = handTenant({ identities: [] });
    writeFileSync(
      join(dir, 'identities.json'),
      JSON.stringify(
        [
          { name: 'ann', managerId: 'c', id: 'a', attributes: {} },
          { id: 'b', name: 'bob', attributes: { managerId: 'x' } },
          { id: 'c', name: 'cat', managerId: 'b', attributes: { note: '"managerId": "zzz"}' } },
          { id: 'd', name: 'dan', attributes: {}, managerId: 'nobody' },
        ],
        null,
        2,
      ),
    );
    writeFileSync(
      join(dir, 'accounts.json'),
      JSON.stringify([
        { attributes: { n: 1 }, identityId: 'a', id: '1', sourceId: 'src-hr' },
        { id: '2', identityId: 'a', sourceId: 'src-hr', attributes: { n: 2, identityId: 'd' } },
        { id: '3', sourceId: 'src-hr', identityId: 'c', attributes: { n: 3 } },
        // Members in another order after more than the decoded head: read from the whole text.
        { attributes: { n: 4, pad: 'x'.repeat(600) }, id: '4', identityId: 'd', sourceId: 'src-hr' },
      ]),
    );
    const { scan, records: got } = records(dir);
    expect(scan.accountsIndex).toBe('merge');
    expect(got.map(summary)).toEqual(expected);
  });

  it('reads ids the first and last bytes cannot give: non-ASCII, escaped, longer than what is read ahead', () => {
    const long = 'L'.repeat(300);
    const people = [
      { id: 'zoë', name: 'zoe', attributes: {}, managerId: long },
      { id: 'q"q', name: 'quote', attributes: {}, managerId: 'zoë' },
      { id: long, name: 'long', attributes: {}, managerId: 'q"q' },
    ];
    const { scan, records: got } = records(handTenant({ identities: people, accounts: [hrAccount('zoë', { n: 1 }), hrAccount('q"q', { n: 2 }), hrAccount(long, { n: 3 })] }));
    expect(scan).toMatchObject({ total: 3, accounts: 3, accountsIndex: 'merge', managers: 3 });
    expect(got.map(summary)).toEqual([
      { id: 'zoë', ordinal: 0, accounts: [1], manager: 'long' },
      { id: 'q"q', ordinal: 1, accounts: [2], manager: 'zoe' },
      { id: long, ordinal: 2, accounts: [3], manager: 'quote' },
    ]);
  });

  it('streams only the shard, each identity still with its own accounts', () => {
    const stream = new TenantStream(handTenant({ identities, accounts }), { index: 1, count: 2 });
    const got = [...stream.records()].map(summary);
    expect(stream.scan).toMatchObject({ total: 4, selected: 2 });
    expect(got).toEqual(expected.filter((e) => e.id === 'b' || e.id === 'd'));
  });

  it('streams a tenant without accounts.json', () => {
    const dir = handTenant({ identities });
    writeFileSync(join(dir, 'accounts.json'), '[]');
    expect(records(dir).records.map((r) => r.accounts)).toEqual(['[]', '[]', '[]', '[]']);
  });

  it.each([
    ['an identity without a name', [{ id: 'a', attributes: {} }], '/0/name'],
    ['an identity with a numeric id', [{ id: 1, name: 'x' }], '/0/id'],
    ['an element that is not an object', [[1, 2]], '/0'],
  ])('rejects %s with CLI_FIXTURES at its path', (_label, bad, path) => {
    const dir = handTenant({ identities: bad as never });
    expect(() => new TenantStream(dir)).toThrow(expect.objectContaining({ code: 'CLI_FIXTURES', path }));
  });

  it('rejects an account without an identityId', () => {
    const dir = handTenant({ identities, accounts: [{ id: 'x', sourceId: 'src-hr' }] });
    expect(() => new TenantStream(dir)).toThrow(expect.objectContaining({ code: 'CLI_FIXTURES', path: '/0/identityId' }));
  });

  it('rejects a directory without identities.json', () => {
    const dir = handTenant({ identities });
    writeFileSync(join(dir, 'identities.json.bak'), '[]');
    expect(() => new TenantStream(join(dir, 'transforms'))).toThrow(expect.objectContaining({ code: 'CLI_FIXTURES' }));
  });
});
