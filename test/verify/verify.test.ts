// verify() over a tenant whose stored attributes are what its profile computes, with planted
// differences: the planted ones reported exactly (differ, and the stale one as stale), the
// clock's, random and rule attributes not comparable, the same lines with worker threads and
// through `serve`'s API; a tenant without stored attributes, an unknown attribute and bad
// options coded.

import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTransformsError } from '../../src/errors/index.js';
import type { PlantedDifference } from '../../src/testing/generator/index.js';
import { verify, verifyReport, type VerifyLine, type VerifyOptions, type VerifyReport } from '../../src/verify/index.js';
import { ADMIN_PAT, resourceServer, type ResourceServer } from '../api/resources-server.js';
import { EXTRA, VERIFIED_AT, writePlantedTenant } from './planted-tenant.js';

const IDENTITIES = 200;
const tmp = mkdtempSync(join(tmpdir(), 'idt-verify-'));
const dir = join(tmp, 'tenant');
let planted: PlantedDifference[];

beforeAll(async () => {
  planted = await writePlantedTenant(dir, IDENTITIES);
}, 300_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(options: VerifyOptions): Promise<{ lines: VerifyLine[]; report: VerifyReport }> {
  const job = verify(options);
  const lines: VerifyLine[] = [];
  for await (const line of job) lines.push(line);
  return { lines, report: job.report() };
}

const codeOf = (p: Promise<unknown>) => p.then(() => 'resolved', (e: unknown) => (isTransformsError(e) ? e.code : String(e)));
const plantedLines = () => planted.map(({ identityId, identityName, attribute, platform, ours, kind }) => ({ identityId, identityName, attribute, platform, ours, kind }));
/** Lines without the random values, which differ from one run to the next. */
const settled = (lines: VerifyLine[]) => lines.map((l) => (l.kind === 'random' ? { ...l, ours: '(random)' } : l));
const byIdentity = (a: { identityId: string; attribute: string | null }, b: { identityId: string; attribute: string | null }) =>
  a.identityId.localeCompare(b.identityId) || String(a.attribute).localeCompare(String(b.attribute));

describe('verify over a tenant as the platform leaves it', () => {
  it('plants differences and one stale identity', () => {
    expect(planted.filter((p) => p.kind === 'stale')).toHaveLength(1);
    expect(planted.filter((p) => p.kind === 'differ').length).toBeGreaterThanOrEqual(3);
  });

  it('reports exactly the planted differences as differ and stale, and the clock\'s attribute as time', async () => {
    const { lines, report } = await run({ fixtures: dir, workers: 0, now: VERIFIED_AT });
    const found = lines.filter((l) => l.kind === 'differ' || l.kind === 'stale');
    expect(found.sort(byIdentity)).toEqual(plantedLines().sort(byIdentity));
    // Every identity's "five days ago" differs between the two days; none is counted a difference.
    expect(lines.filter((l) => l.kind === 'time')).toHaveLength(IDENTITIES);
    expect(lines.every((l) => ['differ', 'stale', 'time', 'random'].includes(l.kind))).toBe(true);
    expect(report.identities).toEqual({ evaluated: IDENTITIES, compared: IDENTITIES, missing: 0, stale: 1, otherProfile: 0 });
    expect(report.totals.differ).toBe(planted.filter((p) => p.kind === 'differ').length);
    const attribute = (name: string) => report.attributes.find((a) => a.attribute === name)!;
    expect(attribute(EXTRA.time)).toMatchObject({ reason: 'time', compared: 0, notComparable: IDENTITIES, byKind: { time: IDENTITIES } });
    expect(attribute(EXTRA.random)).toMatchObject({ reason: 'random', compared: 0, notComparable: IDENTITIES });
    // The rule is not registered: our error (EVAL_UNKNOWN_RULE) is null, as stored; still not comparable.
    expect(attribute(EXTRA.rule)).toMatchObject({ reason: 'rule', compared: 0, notComparable: IDENTITIES, byKind: { rule: IDENTITIES } });
    expect(report.errorsByCode.EVAL_UNKNOWN_RULE).toBe(IDENTITIES);
    const stale = planted.find((p) => p.kind === 'stale')!;
    expect(attribute(stale.attribute).byKind.stale).toBe(1);
    for (const p of planted.filter((d) => d.kind === 'differ')) {
      const groups = attribute(p.attribute).groups;
      expect(groups.flatMap((g) => g.examples).some((e) => e.identityId === p.identityId && e.platform === p.platform && e.ours === p.ours)).toBe(true);
    }
  }, 120_000);

  it('finds the same lines with worker threads, and in the shards together', async () => {
    const local = await run({ fixtures: dir, workers: 0, now: VERIFIED_AT });
    const threads = await run({ fixtures: dir, workers: 2, batchSize: 16, now: VERIFIED_AT });
    expect(settled(threads.lines)).toEqual(settled(local.lines));
    const shards = [await run({ fixtures: dir, workers: 0, now: VERIFIED_AT, shard: '0/2' }), await run({ fixtures: dir, workers: 0, now: VERIFIED_AT, shard: '1/2' })];
    expect(settled(shards.flatMap((s) => s.lines)).sort(byIdentity)).toEqual(settled(local.lines).sort(byIdentity));
    expect(shards[0]!.report.identities.evaluated + shards[1]!.report.identities.evaluated).toBe(IDENTITIES);
  }, 180_000);

  it('compares only the attributes and identities asked for', async () => {
    const p = planted.find((d) => d.kind === 'differ')!;
    const { lines, report } = await run({ fixtures: dir, workers: 0, now: VERIFIED_AT, attributes: [p.attribute], identity: [p.identityName] });
    expect(lines).toEqual([{ identityId: p.identityId, identityName: p.identityName, attribute: p.attribute, platform: p.platform, ours: p.ours, kind: 'differ' }]);
    expect(report.attributes.map((a) => a.attribute)).toEqual([p.attribute]);
    expect(report.identities.compared).toBe(1);
  }, 60_000);

  it('explains the first example of each group with the tree evaluate --explain prints', async () => {
    const p = planted.find((d) => d.kind === 'differ')!;
    const report = await verifyReport({ fixtures: dir, workers: 0, now: VERIFIED_AT, attributes: [p.attribute], explain: true });
    const group = report.attributes[0]!.groups.find((g) => g.examples.some((e) => e.identityId === p.identityId))!;
    expect(group.explained).toMatchObject({ identityId: group.examples[0]!.identityId });
    expect(group.explained!.value ?? null).toBe(group.examples[0]!.ours);
    expect(group.explained!.trace).toHaveProperty('type');
  }, 60_000);

  it('reports the same through serve\'s API as from the files', async () => {
    let server: ResourceServer | null = null;
    try {
      server = await resourceServer({ fixtures: dir });
      const baseUrl = await server.listen();
      const overApi = await run({ tenant: { baseUrl, clientId: ADMIN_PAT.id, clientSecret: ADMIN_PAT.secret }, now: VERIFIED_AT });
      const fromFiles = await run({ fixtures: dir, workers: 0, now: VERIFIED_AT });
      expect(overApi.lines.filter((l) => l.kind !== 'random').sort(byIdentity)).toEqual(fromFiles.lines.filter((l) => l.kind !== 'random').sort(byIdentity));
      expect({ ...overApi.report, tenant: '', attributes: overApi.report.attributes.map((a) => ({ ...a, groups: a.groups.length })) }).toEqual({
        ...fromFiles.report,
        tenant: '',
        attributes: fromFiles.report.attributes.map((a) => ({ ...a, groups: a.groups.length })),
      });
    } finally {
      await server?.close();
    }
  }, 180_000);
});

describe('verify refuses what it cannot compare, with a code', () => {
  it('VERIFY_NOTHING_STORED for a tenant whose identities have nothing stored, after holding back their missing lines', async () => {
    const bare = join(tmp, 'bare');
    cpSync(dir, bare, { recursive: true });
    writeFileSync(join(bare, 'identities.json'), '[\n{"id":"a1","name":"a","attributes":{}},\n{"id":"b1","name":"b"}\n]\n');
    const lines: VerifyLine[] = [];
    const error = await (async () => {
      for await (const line of verify({ fixtures: bare, workers: 0 })) lines.push(line);
    })().catch((e: unknown) => e);
    expect(isTransformsError(error) && error.code).toBe('VERIFY_NOTHING_STORED');
    expect(lines).toEqual([]);
  }, 60_000);

  it('counts an identity with nothing stored as missing beside those that have', async () => {
    const some = join(tmp, 'some');
    cpSync(dir, some, { recursive: true });
    writeFileSync(join(some, 'identities.json'), '[\n{"id":"a1","name":"a","attributes":{}},\n{"id":"b1","name":"b","attributes":{"uid":"b"}}\n]\n');
    const { lines, report } = await run({ fixtures: some, workers: 0, attributes: ['uid'] });
    // b has no account: its uid computes to null.
    expect(lines).toEqual([
      { identityId: 'a1', identityName: 'a', attribute: null, platform: null, ours: null, kind: 'missing' },
      { identityId: 'b1', identityName: 'b', attribute: 'uid', platform: 'b', ours: null, kind: 'differ' },
    ]);
    expect(report.identities).toMatchObject({ compared: 1, missing: 1 });
    expect(report.attributes[0]).toMatchObject({ attribute: 'uid', compared: 1, agree: 0, differ: 1, notComparable: 1, byKind: { missing: 1 } });
  }, 60_000);

  it('leaves out, and counts, identities that another profile computed', async () => {
    const other = join(tmp, 'other');
    cpSync(dir, other, { recursive: true });
    writeFileSync(join(other, 'identities.json'), '[\n{"id":"a1","name":"a","attributes":{"uid":"x"},"identityProfile":{"id":"p2","name":"Contractors"}},\n{"id":"b1","name":"b","attributes":{"uid":"b"},"identityProfile":{"id":"2c9180867c1c5f4a017c2e1b2c3d4e5f","name":"Employees"}}\n]\n');
    const { report } = await run({ fixtures: other, workers: 0, attributes: ['uid'] });
    expect(report.identities).toMatchObject({ evaluated: 2, compared: 1, otherProfile: 1 });
  }, 60_000);

  it('VERIFY_ATTRIBUTE_UNKNOWN with the closest name for an attribute the profile does not compute', async () => {
    const error = await verifyReport({ fixtures: dir, attributes: ['emial'] }).catch((e: unknown) => e);
    expect(isTransformsError(error) && error.code).toBe('VERIFY_ATTRIBUTE_UNKNOWN');
    expect(isTransformsError(error) && error.details).toEqual({ attribute: 'emial', suggestion: 'email' });
  });

  it('VERIFY_OPTION_INVALID for options it cannot read, before reading the tenant', () => {
    const bad: unknown[] = [{}, { fixtures: dir, tenant: { baseUrl: 'http://x' } }, { fixtures: dir, examples: -1 }, { fixtures: dir, attributes: [] }, { fixtures: dir, nope: 1 }, { tenant: { baseUrl: 'http://x' }, explain: true }];
    for (const options of bad) {
      let code: unknown;
      try {
        verify(options as VerifyOptions);
      } catch (error) {
        code = isTransformsError(error) ? error.code : error;
      }
      expect(code, JSON.stringify(options)).toBe('VERIFY_OPTION_INVALID');
    }
  });

  it('reads the tenant only when iterated', async () => {
    const job = verify({ fixtures: join(tmp, 'nowhere') });
    expect(await codeOf((async () => { for await (const line of job) void line; })())).toBe('CLI_FIXTURES');
  });
});
