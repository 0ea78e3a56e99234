// refresh() (src/refresh/index.ts, runner.ts): every identity's profile attributes, in the
// input order with and without workers; per-attribute errors; the summary; options.

import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { refresh, refreshToStream, RefreshRunner, type IdentityRefreshResult, type RefreshOptions } from '../../src/refresh/index.js';
import { cleanUp, FIXTURES, generatedTenant, handTenant, hrAccount, identityIds, NOW, profile } from './tenants.js';

afterAll(cleanUp);

async function collect(options: RefreshOptions) {
  const job = refresh(options);
  const results: IdentityRefreshResult[] = [];
  for await (const r of job) results.push(r);
  return { results, summary: job.summary() };
}

const HR = { sourceName: 'HR' };
const errorsTenant = () =>
  handTenant({
    identities: [
      { id: 'i1', name: 'one', attributes: { status: 'before' } },
      { id: 'i2', name: 'two', attributes: { status: 'older' } },
    ],
    accounts: [hrAccount('i1', { dept: 'Sales', loc: 'LON' }), hrAccount('i2', { dept: 'R&D', loc: 'XYZ' })],
    profiles: [
      profile('Errors', {
        department: { type: 'accountAttribute', attributes: { ...HR, attributeName: 'dept' } },
        city: { type: 'lookup', attributes: { input: { type: 'accountAttribute', attributes: { ...HR, attributeName: 'loc' } }, table: { LON: 'London' } } },
        broken: { type: 'noSuchType', attributes: {} },
        // $oldValue: the identity's current value of the attribute being computed.
        status: { type: 'static', attributes: { value: 'was $oldValue' } },
      }),
    ],
  });

describe('refresh()', () => {
  it('keeps going after an attribute fails: the other attributes are computed, each error is reported with its code and pointer', async () => {
    const { results } = await collect({ fixtures: errorsTenant(), workers: 0 });
    expect(results.map((r) => r.identityId)).toEqual(['i1', 'i2']);
    const [one, two] = results;
    expect(one!.attributes).toEqual({ department: 'Sales', city: 'London', status: 'was before' });
    expect(two!.attributes).toEqual({ department: 'R&D', city: null, status: 'was older' });
    // A mapping that does not compile is reported for every identity, without a value.
    expect(one!.errors).toEqual([
      { attribute: 'broken', code: expect.any(String), message: expect.stringContaining('noSuchType'), path: expect.stringMatching(/^\/identityAttributeConfig\/attributeTransforms\/2\/transformDefinition/) },
    ]);
    expect(two!.errors.map((e) => [e.attribute, e.code])).toEqual([
      ['city', 'EVAL_LOOKUP_NO_MATCH'],
      ['broken', one!.errors[0]!.code],
    ]);
    expect(two!.errors[0]!.path).toBe('/identityAttributeConfig/attributeTransforms/1/transformDefinition/attributes/table');
  });

  it('summarises identities, attributes, errors by code, throughput and cache hit rates', async () => {
    const { summary } = await collect({ fixtures: errorsTenant(), workers: 0 });
    expect(summary).toMatchObject({
      profile: 'Errors',
      complete: true,
      shard: null,
      workers: 0,
      tenantIdentities: 2,
      identities: 2,
      identitiesWithErrors: 2,
      attributes: 5,
      errors: 3,
      accounts: 2,
      accountsIndex: 'merge',
      managers: 0,
    });
    expect(Object.values(summary.errorsByCode).reduce((a, b) => a + b, 0)).toBe(3);
    expect(summary.errorsByCode.EVAL_LOOKUP_NO_MATCH).toBe(1);
    expect(Object.keys(summary.caches).sort()).toEqual(['filters', 'regexes', 'templates', 'transforms']);
    for (const c of Object.values(summary.caches)) {
      expect(c.hitRate === null || (c.hitRate >= 0 && c.hitRate <= 1)).toBe(true);
    }
    expect(summary.caches.templates!.hits + summary.caches.templates!.misses).toBeGreaterThan(0);
    expect(summary.elapsedMs).toBeGreaterThan(0);
    expect(summary.identitiesPerSecond).toBeGreaterThan(0);
    expect(summary.peakRssBytes).toBeGreaterThan(0);
  });

  it('writes the lines in the order of identities.json, with and without workers, identically', async () => {
    const fixtures = generatedTenant(500);
    const single = await collect({ fixtures, workers: 0, now: NOW, batchSize: 40 });
    const pooled = await collect({ fixtures, workers: 2, now: NOW, batchSize: 40 });
    expect(single.results.map((r) => r.identityId)).toEqual(identityIds(fixtures));
    expect(pooled.results).toEqual(single.results);
    expect(pooled.summary.workers).toBe(Math.min(2, availableParallelism()));
    expect(pooled.summary).toMatchObject({ identities: 500, attributes: single.summary.attributes, errors: single.summary.errors, managers: single.summary.managers });
    // Both threads' engines are counted.
    expect(pooled.summary.caches.transforms!.misses).toBeGreaterThanOrEqual(single.summary.caches.transforms!.misses);
  });

  it('starts no more worker threads than the machine has cores, whatever count is asked for', async () => {
    const fixtures = generatedTenant(60);
    const single = await collect({ fixtures, workers: 0, now: NOW, batchSize: 20 });
    const many = await collect({ fixtures, workers: 256, now: NOW, batchSize: 20 });
    expect(many.summary.workers).toBe(availableParallelism());
    expect(many.results).toEqual(single.results);
  });

  it('reports a tenant that breaks in the middle as a coded error from a worker too', async () => {
    const fixtures = generatedTenant(120);
    const lines = `[\n${identityIds(fixtures).map((id) => JSON.stringify({ id, name: id, attributes: {} })).join(',\n')},\n{"id":"bad","name":"bad","attributes":{"x":tru}}\n]\n`;
    writeFileSync(join(fixtures, 'identities.json'), lines);
    await expect(collect({ fixtures, workers: 2, batchSize: 16 })).rejects.toMatchObject({ code: 'CLI_FIXTURES' });
  });

  it('evaluates the bundled tenant with its only profile by default', async () => {
    const { results, summary } = await collect({ fixtures: FIXTURES, now: NOW });
    expect(summary.workers).toBe(0);
    expect(summary.identities).toBe(identityIds(FIXTURES).length);
    expect(results.map((r) => r.identityId)).toEqual(identityIds(FIXTURES));
    expect(Object.keys(results[0]!.attributes).length).toBeGreaterThanOrEqual(15);
  });

  it('streams NDJSON to a writable with refreshToStream', async () => {
    const chunks: string[] = [];
    const sink = new Writable({
      highWaterMark: 16,
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        setImmediate(done);
      },
    });
    const summary = await refreshToStream({ fixtures: errorsTenant(), workers: 0 }, sink);
    const lines = chunks.join('').trimEnd().split('\n').map((l) => JSON.parse(l) as IdentityRefreshResult);
    expect(lines.map((l) => l.identityId)).toEqual(['i1', 'i2']);
    expect(summary.identities).toBe(2);
  });

  it('writes each result as the line refresh() yields it, and stops between two batches once its signal is aborted', async () => {
    const fixtures = generatedTenant(60);
    const { results } = await collect({ fixtures, workers: 0, now: NOW });
    let text = '';
    const all = await refreshToStream({ fixtures, workers: 0, now: NOW, batchSize: 20 }, new Writable({ write: (chunk, _e, done) => ((text += String(chunk)), done()) }));
    expect(text).toBe(results.map((r) => JSON.stringify(r) + '\n').join(''));
    expect(all).toMatchObject({ identities: 60, complete: true });

    const stop = new AbortController();
    let lines = 0;
    const sink = new Writable({
      write(chunk, _e, done) {
        lines += String(chunk).split('\n').length - 1;
        stop.abort();
        done();
      },
    });
    const stopped = await refreshToStream({ fixtures, workers: 0, now: NOW, batchSize: 20 }, sink, { signal: stop.signal });
    expect(lines).toBe(20);
    expect(stopped).toMatchObject({ identities: 20, tenantIdentities: 60, complete: false });
  });
});

describe('refresh() profiles', () => {
  const twoProfiles = () =>
    handTenant({
      identities: [{ id: 'i1', name: 'one', attributes: {} }],
      profiles: [
        { id: 'p-a', ...profile('Alpha', { which: { type: 'static', attributes: { value: 'alpha' } } }) },
        { id: 'p-b', ...profile('Beta', { which: { type: 'static', attributes: { value: 'beta' } } }) },
      ],
    });

  it.each([
    ['the first profile by file name by default', undefined, 'alpha'],
    ['a profile by name', 'Beta', 'beta'],
    ['a profile by id', 'p-b', 'beta'],
    ['a profile by file name', '01', 'beta'],
  ])('uses %s', async (_label, profileOption, value) => {
    const { results } = await collect({ fixtures: twoProfiles(), ...(profileOption ? { profile: profileOption } : {}) });
    expect(results[0]!.attributes).toEqual({ which: value });
  });

  it('uses a profile file outside the tenant, or a profile object', async () => {
    const fixtures = twoProfiles();
    const file = join(fixtures, 'other.json');
    writeFileSync(file, JSON.stringify(profile('Other', { which: { type: 'static', attributes: { value: 'file' } } })));
    expect((await collect({ fixtures, profile: file })).results[0]!.attributes).toEqual({ which: 'file' });
    const object = profile('Object', { which: { type: 'static', attributes: { value: 'object' } } });
    expect((await collect({ fixtures, profile: object as never })).results[0]!.attributes).toEqual({ which: 'object' });
  });

  it.each([
    ['an unknown profile name', { profile: 'Gamma' }, 'REFRESH_OPTION_INVALID'],
    ['a profile without attributeTransforms', { profile: { name: 'x', identityAttributeConfig: {} } as never }, 'CLI_FIXTURES'],
    ['a mapping without a name', { profile: { name: 'x', identityAttributeConfig: { attributeTransforms: [{ transformDefinition: {} }] } } as never }, 'CLI_FIXTURES'],
  ])('rejects %s', (_label, options, code) => {
    expect(() => new RefreshRunner({ fixtures: twoProfiles(), ...options })).toThrow(expect.objectContaining({ code }));
  });

  it('rejects a tenant without profiles when none is given', () => {
    const fixtures = handTenant({ identities: [{ id: 'i1', name: 'one' }] });
    expect(() => new RefreshRunner({ fixtures })).toThrow(expect.objectContaining({ code: 'CLI_FIXTURES' }));
  });
});

describe('refresh() options', () => {
  it.each([
    ['an unknown option', { colour: 'red' }],
    ['negative workers', { workers: -1 }],
    ['fractional workers', { workers: 1.5 }],
    ['a zero batch size', { batchSize: 0 }],
    ['a malformed shard', { shard: '3/3' }],
    ['an invalid clock', { now: 'yesterday' }],
    ['a non-function onProgress', { onProgress: 'yes' }],
  ])('rejects %s with REFRESH_OPTION_INVALID', (_label, options) => {
    expect(() => new RefreshRunner({ fixtures: FIXTURES, ...(options as object) })).toThrow(expect.objectContaining({ code: 'REFRESH_OPTION_INVALID' }));
  });

  it('reports progress after each batch', async () => {
    const seen: number[] = [];
    await collect({ fixtures: FIXTURES, workers: 0, batchSize: 50, onProgress: (p) => seen.push(p.done) });
    const total = identityIds(FIXTURES).length;
    expect(seen.at(-1)).toBe(total);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.length).toBe(Math.ceil(total / 50));
  });

  it('can be iterated only once; a run stopped early says so in its summary', async () => {
    const runner = new RefreshRunner({ fixtures: FIXTURES, workers: 0, batchSize: 10 });
    for await (const _ of runner.batches()) break;
    expect(runner.summary()).toMatchObject({ complete: false, identities: 10 });
    await expect(runner.batches().next()).rejects.toMatchObject({ code: 'REFRESH_OPTION_INVALID' });
  });
});
