// impact() and impactDifferences() (src/impact/index.ts): a planted change reports exactly the
// identities whose value changes, as a diff of two full refreshes finds them; errors that appear
// or are fixed; workers and shards give the same report as the main thread.

import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { impact, impactDifferences, impactPasses, type ImpactOptions } from '../../src/impact/index.js';
import { readDirectoryVersion } from '../../src/impact/version.js';
import { refresh } from '../../src/refresh/index.js';
import { cleanUp, FIXTURES, generatedTenant, NOW, tempDir } from '../refresh/tenants.js';

afterAll(cleanUp);

let tenant: string;
beforeAll(() => {
  tenant = generatedTenant(600, 'impact');
});

/** A copy of the tenant's transforms and profiles, edited by `edit` (file name → JSON → JSON). */
function headVersion(edits: Record<string, (doc: Record<string, unknown>) => unknown>): string {
  const dir = tempDir('idt-impact-head-');
  cpSync(join(FIXTURES, 'transforms'), join(dir, 'transforms'), { recursive: true });
  cpSync(join(FIXTURES, 'identity-profiles'), join(dir, 'identity-profiles'), { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    const path = join(dir, file);
    writeFileSync(path, JSON.stringify(edit(JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>), null, 2));
  }
  return dir;
}

/** Every (identity, attribute) whose value or error differs between two full refreshes. */
async function refreshDiff(head: string): Promise<Set<string>> {
  const version = readDirectoryVersion(head);
  const before = new Map<string, { attributes: Record<string, unknown>; errors: { attribute: string; code: string }[] }>();
  for await (const r of refresh({ fixtures: tenant, now: NOW, workers: 0 })) before.set(r.identityId, r);
  const changed = new Set<string>();
  const after = refresh({ fixtures: tenant, now: NOW, workers: 0, profile: version.profiles[0]!.doc, transforms: [...version.transforms.values()].map((t) => t.doc) });
  for await (const r of after) {
    const b = before.get(r.identityId)!;
    for (const attribute of new Set([...Object.keys(b.attributes), ...Object.keys(r.attributes)])) {
      const errorOf = (x: typeof b) => x.errors.find((e) => e.attribute === attribute)?.code ?? null;
      if (JSON.stringify(b.attributes[attribute]) !== JSON.stringify(r.attributes[attribute]) || errorOf(b) !== errorOf(r)) changed.add(`${r.identityId} ${attribute}`);
    }
  }
  return changed;
}

const options = (head: string, more: Partial<ImpactOptions> = {}): ImpactOptions => ({ base: FIXTURES, head, fixtures: tenant, now: NOW, workers: 0, ...more });

describe('impact', () => {
  it('lists exactly the identities whose value a changed transform changes, as two full refreshes do', async () => {
    // "Location Region" is reached by `region` through a reference: London moves to a new region.
    const head = headVersion({ 'transforms/location-region.json': (t) => ({ ...t, attributes: { table: { ...(t.attributes as { table: object }).table, LON: 'UK' } } }) });
    const found = new Set<string>();
    for await (const d of impactDifferences(options(head))) found.add(`${d.identityId} ${d.attribute}`);
    const expected = await refreshDiff(head);
    expect(expected.size).toBeGreaterThan(0);
    expect([...found].sort()).toEqual([...expected].sort());

    const report = await impact(options(head));
    expect(report.transforms).toEqual([{ kind: 'changed', name: 'Location Region', file: join(head, 'transforms/location-region.json') }]);
    expect(report.profiles).toHaveLength(1);
    const [region] = report.profiles[0]!.attributes;
    expect(region).toMatchObject({ attribute: 'region', identities: 600, changed: expected.size, newErrors: 0, errorsFixed: 0, dependsOnIssuedValues: false });
    expect(region!.unchanged).toBe(600 - expected.size);
    expect(region!.examples.changed![0]).toMatchObject({ before: { value: 'EMEA' }, after: { value: 'UK' } });
    // Each example names its identity as identities.json does.
    const names = new Map((JSON.parse(readFileSync(join(tenant, 'identities.json'), 'utf8')) as { id: string; name: string }[]).map((i) => [i.id, i.name]));
    for (const e of region!.examples.changed!) expect(e.identityName).toBe(names.get(e.identityId));
  });

  it('evaluates only the attributes that reach the change', async () => {
    const head = headVersion({ 'transforms/clean-department.json': (t) => ({ ...t, attributes: { regex: '\\s*&\\s*', replacement: ' + ' } }) });
    const report = await impact(options(head));
    expect(report.profiles[0]!.attributes.map((a) => a.attribute)).toEqual(['department']);
    expect(report.totals.attributes).toBe(1);
  });

  it('counts new errors and errors fixed, with the error located in the version\'s own profile', async () => {
    // A regex the platform rejects: every identity's department fails in head.
    const broken = headVersion({ 'transforms/clean-department.json': (t) => ({ ...t, attributes: { regex: '(unclosed', replacement: '' } }) });
    const forward = await impact(options(broken));
    const department = forward.profiles[0]!.attributes[0]!;
    expect(department.newErrors).toBeGreaterThan(0);
    const example = department.examples.newError![0]!;
    // Located at the reference that reaches the broken transform, in the version's own profile.
    expect(example.after).toMatchObject({ error: { code: 'REGEX_SYNTAX', path: '/identityAttributeConfig/attributeTransforms/6/transformDefinition/attributes/id' } });
    expect(JSON.stringify(example)).not.toContain('[base]');
    expect(impactPasses(forward, 'errors')).toBe(false);
    expect(impactPasses(forward, 'none')).toBe(true);

    const backward = await impact({ ...options(FIXTURES), base: broken });
    expect(backward.profiles[0]!.attributes[0]!.errorsFixed).toBe(department.newErrors);
    expect(impactPasses(backward, 'errors')).toBe(true);
    expect(impactPasses(backward, 'changes')).toBe(false);
  });

  it('reports a mapping change in the profile, and keeps $oldValue the identity attribute\'s own', async () => {
    const head = headVersion({
      'identity-profiles/default.json': (p) => {
        const config = p.identityAttributeConfig as { attributeTransforms: { identityAttributeName: string; transformDefinition: unknown }[] };
        for (const m of config.attributeTransforms) {
          if (m.identityAttributeName === 'title') m.transformDefinition = { type: 'static', attributes: { value: '#if($oldValue)$oldValue#{else}none#end' } };
        }
        return p;
      },
    });
    const report = await impact(options(head));
    const title = report.profiles[0]!.attributes.find((a) => a.attribute === 'title')!;
    expect(title.reasons).toEqual([{ kind: 'mapping-changed' }]);
    const identities = JSON.parse(readFileSync(join(tenant, 'identities.json'), 'utf8')) as { id: string; attributes: Record<string, unknown> }[];
    const examples = Object.values(title.examples).flat();
    expect(title.changed).toBeGreaterThan(0);
    expect(examples.length).toBeGreaterThan(0);
    for (const e of examples) {
      const old = identities.find((i) => i.id === e.identityId)!.attributes.title;
      expect(e.after).toEqual({ value: old === undefined || old === null || old === '' ? 'none' : old });
    }
  });

  it('gives the same report with worker threads and as the union of its shards', async () => {
    const head = headVersion({ 'transforms/location-region.json': (t) => ({ ...t, attributes: { table: { LON: 'UK' }, default: 'Elsewhere' } }) });
    const strip = (r: Awaited<ReturnType<typeof impact>>) => ({ ...r, elapsedMs: 0 });
    const main = await impact(options(head));
    expect(strip(await impact(options(head, { workers: 2, batchSize: 50 })))).toEqual(strip(main));
    const shards = await Promise.all([0, 1].map((i) => impact(options(head, { shard: `${i}/2` }))));
    const total = (r: typeof main) => r.profiles[0]!.attributes[0]!;
    expect(total(shards[0]!).identities + total(shards[1]!).identities).toBe(total(main).identities);
    expect(total(shards[0]!).changed + total(shards[1]!).changed).toBe(total(main).changed);
  });

  it('explains each example in both versions, each with its own transforms', async () => {
    const head = headVersion({ 'transforms/clean-department.json': (t) => ({ ...t, attributes: { regex: '\\s*&\\s*', replacement: ' + ' } }) });
    const report = await impact(options(head, { examples: 2, explain: true }));
    const examples = report.profiles[0]!.attributes[0]!.examples.changed!;
    expect(examples).toHaveLength(2);
    for (const e of examples) {
      for (const side of ['before', 'after'] as const) {
        const trace = e.explained![side]!;
        expect(trace).toMatchObject({ type: 'reference', decisions: { transform: 'Clean Department' }, value: (e[side] as { value: unknown }).value });
        expect(trace.children.at(-1)).toMatchObject({ type: 'replace', transform: 'Clean Department' });
      }
    }
    await expect(impact({ base: FIXTURES, head, tenant: { baseUrl: 'http://127.0.0.1:1', clientId: 'a', clientSecret: 'b' }, explain: true })).rejects.toMatchObject({ code: 'IMPACT_OPTION_INVALID', details: { option: 'explain' } });
  });

  it('compares usernames as each version issues them in its own run, and says they depend on issued values', async () => {
    const withUsername = (p: Record<string, unknown>) => {
      (p.identityAttributeConfig as { attributeTransforms: unknown[] }).attributeTransforms.push({ identityAttributeName: 'username', transformDefinition: { type: 'reference', attributes: { id: 'Generate Username' } } });
      return p;
    };
    const base = headVersion({ 'identity-profiles/default.json': withUsername });
    // The same generator in head, saved with one more (inert) member: changed, but it issues the same names.
    const head = headVersion({ 'identity-profiles/default.json': withUsername, 'transforms/generate-username.json': (t) => ({ ...t, requiresPeriodicRefresh: false }) });
    const report = await impact({ ...options(head), base });
    const username = report.profiles[0]!.attributes.find((a) => a.attribute === 'username')!;
    expect(username).toMatchObject({ dependsOnIssuedValues: true, identities: 600, changed: 0, newErrors: 0 });
    expect(username.reasons).toEqual([{ kind: 'transform', name: 'Generate Username', change: 'changed' }]);
    // Asked for worker threads, each version issues its names on one of them, in the same order.
    const threaded = await impact({ ...options(head, { workers: 2, batchSize: 50 }), base });
    expect({ ...threaded, elapsedMs: 0 }).toEqual({ ...report, elapsedMs: 0 });
  });

  // With no change to evaluate they were never read: `--shard garbage` exited 0.
  it.each<[string, Partial<ImpactOptions>, string]>([
    ['a shard that is not i/n', { shard: 'garbage' }, 'shard'],
    ['a shard index past its count', { shard: { index: 3, count: 2 } }, 'shard'],
    ['a batch size of 0', { batchSize: 0 }, 'batchSize'],
    ['a clock that is no date', { now: 'yesterday-ish' }, 'now'],
    ['a negative number of workers', { workers: -1 }, 'workers'],
    ['workers given as text other than auto', { workers: 'many' as unknown as number }, 'workers'],
    ['a worker heap of 1 MB', { workerHeapMb: 1 }, 'workerHeapMb'],
  ])('refuses %s with REFRESH_OPTION_INVALID, when no change needs evaluating too', async (_name, bad, option) => {
    await expect(impact({ ...options(FIXTURES), ...bad })).rejects.toMatchObject({ code: 'REFRESH_OPTION_INVALID', details: { option: expect.stringMatching(new RegExp(`^${option}`)) } });
  });

  it('refuses unknown options and a version that is not JSON, naming the file, line and column', async () => {
    await expect(impact({ ...options(FIXTURES), bogus: 1 } as ImpactOptions)).rejects.toMatchObject({ code: 'IMPACT_OPTION_INVALID', details: { option: 'bogus' } });
    await expect(impact({ base: FIXTURES, head: FIXTURES } as ImpactOptions)).rejects.toMatchObject({ code: 'IMPACT_OPTION_INVALID', details: { option: 'fixtures' } });
    const head = headVersion({});
    writeFileSync(join(head, 'transforms', 'broken.json'), '{\n  "name": "Broken",\n  "type" "lower"\n}\n');
    await expect(impact(options(head))).rejects.toMatchObject({ code: 'IMPACT_VERSION', message: expect.stringContaining('broken.json:3:10: not valid JSON (colon expected)') });
  });
});

describe('impact against a tenant over its API', () => {
  it('gives the report it gives over the same records as fixtures', async () => {
    const { ADMIN_PAT, resourceServer, TENANT } = await import('../api/resources-server.js');
    const server = await resourceServer();
    try {
      const baseUrl = await server.listen();
      const head = headVersion({ 'transforms/location-region.json': (t) => ({ ...t, attributes: { table: { ...(t.attributes as { table: object }).table, LON: 'UK' } } }) });
      const strip = (r: Awaited<ReturnType<typeof impact>>) => ({ ...r, tenant: '', elapsedMs: 0, profiles: r.profiles.map((p) => ({ ...p, attributes: p.attributes.map((a) => ({ ...a, examples: {} })) })) });
      const overApi = await impact({ base: FIXTURES, head, tenant: { baseUrl, clientId: ADMIN_PAT.id, clientSecret: ADMIN_PAT.secret }, now: NOW });
      const overFixtures = await impact({ base: FIXTURES, head, fixtures: TENANT, now: NOW, workers: 0 });
      expect(overApi.profiles[0]!.attributes[0]!.changed).toBeGreaterThan(0);
      expect(strip(overApi)).toEqual(strip(overFixtures));
    } finally {
      await server.close();
    }
  });

  it('stops with IMPACT_TENANT_CHANGED, naming the identities, when an identity is deleted while its passes read the tenant', async () => {
    const { ADMIN_PAT, resourceServer } = await import('../api/resources-server.js');
    const { createTenantProviders } = await import('../../src/providers/tenant/index.js');
    const server = await resourceServer();
    try {
      const providers = createTenantProviders({ baseUrl: await server.listen(), clientId: ADMIN_PAT.id, clientSecret: ADMIN_PAT.secret });
      // Usernames are issued in a pass of their own: the passes page the tenant's identities each
      // on its own, and the one that starts after the deletion no longer sees the first identity.
      let listings = 0;
      const changing = new Proxy(providers, {
        get(target, key) {
          if (key === 'listIdentities') {
            return async function* () {
              const deleted = listings++ > 0;
              for await (const page of target.listIdentities()) yield deleted ? page.filter((_i, n) => n !== 0) : page;
            };
          }
          const value = Reflect.get(target, key, target) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      const withUsername = (p: Record<string, unknown>) => {
        (p.identityAttributeConfig as { attributeTransforms: unknown[] }).attributeTransforms.push({ identityAttributeName: 'username', transformDefinition: { type: 'reference', attributes: { id: 'Generate Username' } } });
        return p;
      };
      const base = headVersion({ 'identity-profiles/default.json': withUsername });
      const head = headVersion({ 'identity-profiles/default.json': withUsername, 'transforms/generate-username.json': (t) => ({ ...t, requiresPeriodicRefresh: false }), 'transforms/location-region.json': (t) => ({ ...t, attributes: { table: { ...(t.attributes as { table: object }).table, LON: 'UK' } } }) });
      const first = (await providers.listIdentities().next()).value![0]!.id;
      await expect(impact({ base, head, tenant: changing, now: NOW })).rejects.toMatchObject({
        code: 'IMPACT_TENANT_CHANGED',
        message: expect.stringMatching(new RegExp(`^the tenant's identities changed during the impact run: after 0 identities, one pass read the identity ${first} and another \\S+; run it again`)),
        details: { identitiesRead: 0 },
      });
    } finally {
      await server.close();
    }
  });
});
