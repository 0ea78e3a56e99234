// --shard i/n (src/refresh/shard.ts): a stable hash partition of identity ids; n shards cover
// every identity exactly once, each in the input order.

import { afterAll, describe, expect, it } from 'vitest';
import { fnv1a32, parseShard, shardOf } from '../../src/refresh/shard.js';
import { refresh, type IdentityRefreshResult } from '../../src/refresh/index.js';
import { cleanUp, generatedTenant, identityIds, NOW } from './tenants.js';

afterAll(cleanUp);

async function collect(fixtures: string, shard?: string): Promise<IdentityRefreshResult[]> {
  const out: IdentityRefreshResult[] = [];
  for await (const r of refresh({ fixtures, workers: 0, now: NOW, batchSize: 40, ...(shard ? { shard } : {}) })) out.push(r);
  return out;
}

describe('fnv1a32', () => {
  // Published FNV-1a 32-bit test vectors, so that other tools can reproduce the partition.
  it.each([
    ['', 0x811c9dc5],
    ['a', 0xe40c292c],
    ['foobar', 0xbf9cf968],
  ])('hashes %j to %i', (text, hash) => {
    expect(fnv1a32(text)).toBe(hash);
  });

  it('hashes the UTF-8 bytes of the id ("é" is 0xc3 0xa9)', () => {
    let h = 0x811c9dc5;
    for (const byte of [0xc3, 0xa9]) h = Math.imul(h ^ byte, 0x01000193);
    expect(fnv1a32('é')).toBe(h >>> 0);
  });
});

describe('parseShard', () => {
  it.each([
    ['0/1', { index: 0, count: 1 }],
    ['2/4', { index: 2, count: 4 }],
    ['99/100', { index: 99, count: 100 }],
  ])('parses %s', (text, shard) => {
    expect(parseShard(text)).toEqual(shard);
  });

  it.each(['', '1', '1/', '/2', '2/2', '3/2', '0/0', '-1/2', '1.5/2', 'a/b', '0/2/3'])('rejects %j with REFRESH_OPTION_INVALID', (text) => {
    expect(() => parseShard(text)).toThrow(expect.objectContaining({ code: 'REFRESH_OPTION_INVALID' }));
  });

  it('assigns every id to the same shard every time, and one shard when n = 1', () => {
    expect(shardOf('2c91808409f45f693cd6e3f3a2393ef1', 7)).toBe(shardOf('2c91808409f45f693cd6e3f3a2393ef1', 7));
    expect(shardOf('anything', 1)).toBe(0);
  });
});

describe('refresh --shard i/n', () => {
  it('partitions the identities exactly: the shards are disjoint, their union is every identity, each keeps the input order', async () => {
    const fixtures = generatedTenant(300);
    const all = identityIds(fixtures);
    const whole = await collect(fixtures);
    expect(whole.map((r) => r.identityId)).toEqual(all);
    const shards = await Promise.all([0, 1, 2].map((i) => collect(fixtures, `${i}/3`)));
    const seen = new Set<string>();
    for (const [i, shard] of shards.entries()) {
      expect(shard.length).toBeGreaterThan(0);
      const ids = shard.map((r) => r.identityId);
      for (const id of ids) {
        expect(seen.has(id)).toBe(false);
        seen.add(id);
        expect(shardOf(id, 3)).toBe(i);
      }
      // Input order within the shard.
      expect(ids).toEqual(all.filter((id) => shardOf(id, 3) === i));
      // The same lines as the unsharded run.
      const byId = new Map(whole.map((r) => [r.identityId, r]));
      for (const r of shard) expect(r).toEqual(byId.get(r.identityId));
    }
    expect(seen.size).toBe(all.length);
  });

  it('counts the whole tenant and the shard in the summary', async () => {
    const fixtures = generatedTenant(120);
    const job = refresh({ fixtures, workers: 0, now: NOW, shard: { index: 1, count: 4 } });
    let n = 0;
    for await (const _ of job) n++;
    const summary = job.summary();
    expect(summary.tenantIdentities).toBe(120);
    expect(summary.identities).toBe(n);
    expect(n).toBeLessThan(120);
    expect(summary.shard).toEqual({ index: 1, count: 4 });
  });
});
