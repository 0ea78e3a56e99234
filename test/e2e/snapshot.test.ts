// snapshotTenant() end to end against `serve` over a generated tenant (20,000 identities unless
// IDT_SNAPSHOT_IDENTITIES says otherwise): a snapshot refreshes exactly as the tenant does over
// its API; a copy interrupted at a random page and resumed is the same bytes as one taken in one
// go; after the tenant changes (patched, moved, added and deleted records), --since gives the
// same bytes as a full copy, fetching only what changed, also when interrupted and resumed; the
// same holds pseudonymized.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTransformsError } from '../../src/errors/index.js';
import { refresh, type IdentityRefreshResult } from '../../src/refresh/index.js';
import { snapshotTenant, type SnapshotOptions } from '../../src/snapshot/index.js';
import { generatedTenant, prng, type GeneratedTenant } from './snapshot-tenant.js';

const IDENTITIES = Number(process.env.IDT_SNAPSHOT_IDENTITIES ?? 20_000);
const T1 = Date.parse('2025-06-01T00:00:00.000Z');
const CHANGED_AT = '2025-06-02T00:00:00.000Z';
const T2 = Date.parse('2025-06-03T00:00:00.000Z');
const KEY = Buffer.from('a test key of more than sixteen bytes');

let tenant: GeneratedTenant;
const work = mkdtempSync(join(tmpdir(), 'idt-snapshot-e2e-'));
const dir = (name: string) => join(work, name);

beforeAll(async () => {
  tenant = await generatedTenant(IDENTITIES);
}, 1_200_000);
afterAll(async () => {
  await tenant?.close();
  rmSync(work, { recursive: true, force: true });
  if (tenant) rmSync(tenant.dir, { recursive: true, force: true });
});

const take = (out: string, at: number, extra: Partial<SnapshotOptions> = {}) => snapshotTenant({ tenant: tenant.credentials(), out, now: () => at, ...extra });

/** Every file of a directory (dot files included) and its bytes. */
function files(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(root, path), readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  return out;
}

function expectSameFiles(actual: string, expected: string): void {
  const a = files(actual);
  const e = files(expected);
  expect([...a.keys()]).toEqual([...e.keys()]);
  for (const [name, text] of e) expect(a.get(name) === text, `${name} differs`).toBe(true);
}

async function results(job: AsyncIterable<IdentityRefreshResult>): Promise<Map<string, IdentityRefreshResult>> {
  const out = new Map<string, IdentityRefreshResult>();
  for await (const r of job) out.set(r.identityId, r);
  return out;
}

describe(`snapshot of a ${IDENTITIES.toLocaleString('en-US')}-identity tenant served by serve`, () => {
  it('writes the fixture layout, and refresh over it gives exactly what refresh --tenant gives', async () => {
    const summary = await take(dir('full'), T1);
    expect(summary.mode).toBe('full');
    expect(summary.counts.identities).toBe(IDENTITIES);
    expect(summary.counts.profiles).toBe(1);
    expect(readdirSync(dir('full')).sort()).toEqual(['.snapshot.json', 'accounts.json', 'identities.json', 'identity-profiles', 'source-schemas.json', 'sources.json', 'transforms']);
    expect(readdirSync(join(dir('full'), 'transforms'))).toContain('CleanDepartment.json');
    // One shard of four (the same identities on both sides: a hash of the id) keeps the
    // refresh over the API, which evaluates on this thread beside the server, to minutes.
    const now = '2025-06-01T00:00:00.000Z';
    const shard = '1/4';
    const fromSnapshot = await results(refresh({ fixtures: dir('full'), workers: 0, now, shard }));
    const fromTenant = await results(refresh({ tenant: tenant.credentials(), now, batchSize: 500, shard }));
    expect(fromSnapshot.size).toBeGreaterThan(IDENTITIES / 5);
    expect(fromSnapshot).toEqual(fromTenant);
  }, 1_200_000);

  it('resumes a copy interrupted at a random page and writes the same bytes', async () => {
    const pages = Math.ceil(IDENTITIES / 1000);
    const stopAt = 1 + Math.floor(prng(Date.now() % 100_000)() * (pages - 1));
    const abort = new AbortController();
    let seen = 0;
    const error = await take(dir('resumed'), T1, {
      signal: abort.signal,
      onProgress: (p) => {
        if (p.phase === 'identities' && p.identities > 0 && ++seen >= stopAt) abort.abort();
      },
    }).catch((e: unknown) => e);
    expect(isTransformsError(error) && error.code, `stopped after page ${stopAt}`).toBe('SNAPSHOT_ABORTED');
    expect(existsSync(dir('resumed'))).toBe(false);
    const summary = await take(dir('resumed'), T2);
    expect(summary.resumed).toBe(true);
    expectSameFiles(dir('resumed'), dir('full'));
  }, 1_200_000);

  it('merges the changes since a snapshot into the same bytes as a full copy, fetching only those', async () => {
    await take(dir('pseudonymized-before'), T1, { pseudonymizationKey: KEY });
    const changes = tenant.change(0.01, CHANGED_AT);
    const incremental = await take(dir('incremental'), T2, { since: dir('full') });
    await take(dir('full-after'), T2);
    expectSameFiles(dir('incremental'), dir('full-after'));
    expect(incremental.mode).toBe('incremental');
    expect(incremental.merge!.deleted).toBe(changes.identitiesDeleted);
    // Fetched again: the changed identities, the owners of changed, moved, added and deleted accounts, the new ones.
    const c = changes;
    expect(incremental.merge!.fetched).toBeLessThanOrEqual(c.identitiesChanged + c.reportsChanged + c.identitiesAdded + c.accountsChanged + c.accountsMoved + c.accountsDeleted + c.accountsAdded);
    expect(incremental.merge!.fetched).toBeLessThan(IDENTITIES * 0.1);
    expect(incremental.merge!.fetched).toBeGreaterThanOrEqual(changes.identitiesChanged + changes.identitiesAdded);
    const ids = readFileSync(join(dir('incremental'), 'identities.json'), 'utf8');
    expect(ids).toContain('"department":"Snapshot Tests"');
    expect(ids).toContain('"name":"new.person0"');

    // Interrupted at a random page and resumed, the merge writes the same bytes as well.
    const pages = Math.ceil(IDENTITIES / 1000);
    const stopAt = 1 + Math.floor(prng(Date.now() % 100_000)() * (pages - 1));
    const abort = new AbortController();
    let seen = 0;
    const stopped = await take(dir('incremental-resumed'), T2, {
      since: dir('full'),
      signal: abort.signal,
      onProgress: (p) => {
        if (p.phase === 'identities' && p.identities > 0 && ++seen >= stopAt) abort.abort();
      },
    }).catch((e: unknown) => e);
    expect(isTransformsError(stopped) && stopped.code, `stopped after page ${stopAt}`).toBe('SNAPSHOT_ABORTED');
    expect(existsSync(dir('incremental-resumed'))).toBe(false);
    const resumed = await take(dir('incremental-resumed'), T2 + 60_000, { since: dir('full') });
    expect(resumed).toMatchObject({ mode: 'incremental', resumed: true, merge: incremental.merge });
    expectSameFiles(dir('incremental-resumed'), dir('full-after'));

    const pseudoIncremental = await take(dir('pseudonymized-after'), T2, { since: dir('pseudonymized-before'), pseudonymizationKey: KEY });
    await take(dir('pseudonymized-full'), T2, { pseudonymizationKey: KEY });
    expectSameFiles(dir('pseudonymized-after'), dir('pseudonymized-full'));
    expect(pseudoIncremental.merge!.fetched).toBe(incremental.merge!.fetched);
  }, 1_200_000);

  it('refuses a --since snapshot taken with another key or none', async () => {
    const error = await take(dir('mismatch'), T2, { since: dir('full'), pseudonymizationKey: KEY }).catch((e: unknown) => e);
    expect(isTransformsError(error) && error.code).toBe('SNAPSHOT_PREVIOUS');
    expect(existsSync(dir('mismatch'))).toBe(false);
  });
});
