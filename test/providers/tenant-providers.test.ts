// createTenantProviders (src/providers/tenant/providers.ts) against a scripted tenant: which
// endpoint each provider calls and with which filters, the fixture shape of identities, exact
// name matching, caching (one request per key, concurrent lookups shared), bulk prefetch, and
// option checking; TenantRefreshRunner's option checking.

import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { TransformsError } from '../../src/errors/index.js';
import { parseObjectFilter } from '../../src/filter/index.js';
import { createTenantProviders, identityFromDocument, type TenantProviderOptions } from '../../src/providers/tenant/index.js';
import { TenantRefreshRunner } from '../../src/refresh/tenant-runner.js';
import { scriptedFetch, TOKEN, type Call, type Reply } from './scripted-fetch.js';

const SOURCES = [
  { id: 'src-ad', name: 'Active Directory', externalId: 'ext-ad' },
  { id: 'src-hr', name: 'HR', applicationName: 'Workday HR [source]' },
  { id: 'src-hr-2', name: 'hr' },
];
const ACCOUNTS = [
  { id: 'a1', identityId: 'id-1', sourceId: 'src-ad', nativeIdentity: 'jdoe', name: 'John Doe', created: '2020-01-01T00:00:00Z', hasEntitlements: true, attributes: { mail: 'j@x' } },
  { id: 'a2', identityId: 'id-1', sourceId: 'src-hr', nativeIdentity: '100', name: 'John Doe', created: '2020-01-01T00:00:00Z', hasEntitlements: false, attributes: null },
  { id: 'a3', identityId: 'id-2', sourceId: 'src-ad', nativeIdentity: 'asmith', name: 'Ann Smith', created: '2020-01-01T00:00:00Z', hasEntitlements: false, attributes: {} },
];
const HITS = [
  { id: 'id-1', name: 'john.doe', _type: 'identity', type: 'identity', isManager: true, inactive: false, attributes: { firstname: 'John' }, manager: { id: 'id-2', name: 'ann.smith' } },
  { id: 'id-2', name: 'ann.smith', _type: 'identity', type: 'identity', isManager: false, inactive: false, attributes: { firstname: 'Ann' }, manager: null },
];

/** A tenant that answers sources, accounts (identityId eq / in, sourceId eq), search (id:"…" / name:"…") and transforms. */
function tenantFetch() {
  return scriptedFetch((call: Call, n: number): Reply => {
    const p = call.url.pathname;
    if (p === '/oauth/token') return TOKEN(n);
    if (p === '/v3/sources') return { status: 200, body: SOURCES };
    if (p === '/v3/accounts') {
      const f = call.url.searchParams.get('filters') ?? '';
      const ids = [...f.matchAll(/"(id-\d)"/g)].map((m) => m[1]);
      const source = /sourceId eq "([^"]+)"/.exec(f)?.[1];
      return { status: 200, body: ACCOUNTS.filter((a) => ids.includes(a.identityId) && (source === undefined || a.sourceId === source)) };
    }
    if (p === '/v3/search') {
      const q = (JSON.parse(call.body!) as { query: { query: string } }).query.query;
      const wanted = [...q.matchAll(/(id|name):"([^"]+)"/g)].map((m) => [m[1], m[2]]);
      return { status: 200, body: HITS.filter((h) => wanted.some(([field, v]) => (field === 'id' ? h.id : h.name.toUpperCase()) === (field === 'id' ? v : v!.toUpperCase()))) };
    }
    if (p === '/v3/transforms') return { status: 200, body: [{ id: 't1', name: 'Upper', type: 'upper', attributes: null, internal: false }, { id: 't2', name: 'upper', type: 'lower', attributes: null, internal: false }] };
    return { status: 404, body: { messages: [{ text: 'no route' }] } };
  });
}

function providers(extra: Partial<TenantProviderOptions> = {}) {
  const { fetch, calls } = tenantFetch();
  const tenant = createTenantProviders({ baseUrl: 'https://acme.example.com', clientId: 'c', clientSecret: 's', fetch, ...extra });
  const requests = (path: string) => calls.filter((c) => c.url.pathname === path);
  return { tenant, calls, requests };
}

describe('identityFromDocument: a search hit names its identity', () => {
  it.each([
    ['no id', { name: 'x', attributes: {} }, 'id'],
    ['an empty id', { id: '', name: 'x' }, 'id'],
    ['an object as its id', { id: { o: 1 }, name: 'x' }, 'id'],
    ['a number as its id', { id: 5, name: 'x' }, 'id'],
    ['no name', { id: 'id-1' }, 'name'],
    ['an array as its name', { id: 'id-1', name: ['x'] }, 'name'],
  ])('refuses a hit with %s as TENANT_RESPONSE, rather than an identity named "undefined" or "[object Object]"', (_what, hit, member) => {
    let error: unknown;
    try {
      identityFromDocument(hit as Record<string, unknown>);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TransformsError);
    expect((error as TransformsError).code).toBe('TENANT_RESPONSE');
    expect((error as TransformsError).details).toMatchObject({ path: '/v3/search', member });
  });
});

describe('createTenantProviders', () => {
  it('reads search hits into the fixture shape, without the computed members', async () => {
    const { tenant } = providers();
    expect(await tenant.identities.getIdentity('id-1')).toEqual({ id: 'id-1', name: 'john.doe', attributes: { firstname: 'John' }, managerId: 'id-2' });
    expect(await tenant.identities.findIdentityByName!('ANN.SMITH')).toBeNull();
    expect(await tenant.identities.findIdentityByName!('ann.smith')).toMatchObject({ id: 'id-2', managerId: null });
    expect(await tenant.findIdentity('john.doe')).toMatchObject({ id: 'id-1' });
    expect(await tenant.identities.getIdentity('id-9')).toBeNull();
  });

  it('resolves sources from one listing, exactly, with the in-memory precedence', async () => {
    const { tenant, requests } = providers();
    expect(await tenant.sources.resolveSource({ sourceName: 'hr' })).toMatchObject({ id: 'src-hr-2' });
    expect(await tenant.sources.resolveSource({ sourceName: 'HR' })).toMatchObject({ id: 'src-hr' });
    expect(await tenant.sources.resolveSource({ applicationId: 'ext-ad' })).toMatchObject({ id: 'src-ad' });
    expect(await tenant.sources.resolveSource({ applicationId: 'src-hr' })).toMatchObject({ id: 'src-hr' });
    expect(await tenant.sources.resolveSource({ applicationName: 'Workday HR [source]' })).toMatchObject({ id: 'src-hr' });
    expect(await tenant.sources.resolveSource({ applicationName: 'Active Directory [source]' })).toMatchObject({ id: 'src-ad' });
    expect(await tenant.sources.resolveSource({ sourceId: 'src-ad', sourceName: 'HR' })).toMatchObject({ id: 'src-ad' });
    expect(await tenant.sources.resolveSource({ sourceName: 'Nope' })).toBeNull();
    expect(requests('/v3/sources')).toHaveLength(1);
  });

  it('picks the transform of exactly that name from the case-insensitive listing', async () => {
    const { tenant, requests } = providers();
    expect(await tenant.transforms.getTransform('upper')).toMatchObject({ id: 't2' });
    expect(await tenant.transforms.getTransform('Upper')).toMatchObject({ id: 't1' });
    expect(requests('/v3/transforms')[0]!.url.searchParams.get('filters')).toBe('name eq "upper"');
  });

  it('sends one request for concurrent lookups of one key, and none for a cached key', async () => {
    const { tenant, requests } = providers();
    await Promise.all([tenant.transforms.getTransform('Upper'), tenant.transforms.getTransform('Upper')]);
    await tenant.transforms.getTransform('Upper');
    expect(requests('/v3/transforms')).toHaveLength(1);
    expect(tenant.stats().cacheHits).toBe(2);
  });

  it('asks again for every lookup with cache: false', async () => {
    const { tenant, requests } = providers({ cache: false });
    await tenant.transforms.getTransform('Upper');
    await tenant.transforms.getTransform('Upper');
    expect(requests('/v3/transforms')).toHaveLength(2);
  });

  it('asks again once the time to live has passed', async () => {
    let now = 1_000_000;
    const { tenant, requests } = providers({ now: () => now, cache: { ttlMs: 1000 } });
    await tenant.transforms.getTransform('Upper');
    now += 999;
    await tenant.transforms.getTransform('Upper');
    now += 2;
    await tenant.transforms.getTransform('Upper');
    expect(requests('/v3/transforms')).toHaveLength(2);
  });

  it('lists the accounts of an identity on a source with the accountFilter pushed down', async () => {
    const { tenant, requests } = providers();
    const filter = parseObjectFilter('(nativeIdentity.startsWith("j") && !(displayName.startsWith("SVC-")))');
    const found = await tenant.accounts.listAccounts({ identityId: 'id-1', sourceId: 'src-ad', filter });
    expect(found.map((a) => a.id)).toEqual(['a1']);
    expect(requests('/v3/accounts')[0]!.url.searchParams.get('filters')).toBe('identityId eq "id-1" and sourceId eq "src-ad" and nativeIdentity sw "j"');
  });

  it("answers every source's accounts from an identity's whole list once it is known, and fills null attributes", async () => {
    const { tenant, requests } = providers();
    const all = await tenant.accounts.listAccounts({ identityId: 'id-1' });
    expect(all.map((a) => a.id)).toEqual(['a1', 'a2']);
    expect(all[1]!.attributes).toEqual({});
    expect((await tenant.accounts.listAccounts({ identityId: 'id-1', sourceId: 'src-hr', filter: parseObjectFilter('nativeIdentity == "100"') })).map((a) => a.id)).toEqual(['a2']);
    expect(requests('/v3/accounts')).toHaveLength(1);
  });

  it('prefetches accounts and managers of many identities in chunks, then answers from them', async () => {
    const { tenant, requests } = providers({ prefetchChunk: 1 });
    await tenant.prefetchAccounts(['id-1', 'id-2', 'id-1']);
    await tenant.prefetchIdentities(['id-2', 'id-1']);
    expect(requests('/v3/accounts').map((c) => c.url.searchParams.get('filters'))).toEqual(['identityId in ("id-1")', 'identityId in ("id-2")']);
    expect(requests('/v3/search')).toHaveLength(2);
    expect((await tenant.accounts.listAccounts({ identityId: 'id-2', sourceId: 'src-ad' })).map((a) => a.id)).toEqual(['a3']);
    expect(await tenant.identities.getIdentity('id-2')).toMatchObject({ name: 'ann.smith' });
    expect(requests('/v3/accounts')).toHaveLength(2);
    expect(requests('/v3/search')).toHaveLength(2);
    expect(tenant.stats().accounts).toBe(3);
  });

  it('is accepted by createEngine as its providers and evaluates through them', async () => {
    const { tenant } = providers();
    const engine = createEngine({ providers: tenant });
    const transform = { name: 'mail', type: 'accountAttribute', attributes: { sourceName: 'Active Directory', attributeName: 'mail' } };
    expect(await engine.evaluate(transform, { identity: 'id-1' })).toBe('j@x');
    expect(await engine.evaluate({ name: 'r', type: 'reference', attributes: { id: 'Upper', input: 'abc' } }, { identity: 'id-1' })).toBe('ABC');
  });

  it.each([
    [{ nope: 1 }, 'nope'],
    [{ pageSize: 251 }, 'pageSize'],
    [{ searchPageSize: 0 }, 'searchPageSize'],
    [{ prefetchChunk: 2.5 }, 'prefetchChunk'],
    [{ cache: 'yes' }, 'cache'],
    [{ concurrency: 1000 }, 'concurrency'],
  ])('rejects the option %o as TENANT_OPTIONS', (extra, option) => {
    try {
      createTenantProviders({ baseUrl: 'https://acme.example.com', clientId: 'c', clientSecret: 's', ...(extra as object) });
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(TransformsError);
      expect((error as TransformsError).code).toBe('TENANT_OPTIONS');
      expect((error as TransformsError).details).toEqual({ option });
    }
  });
});

describe('TenantRefreshRunner options', () => {
  const tenant = { baseUrl: 'https://acme.example.com', clientId: 'c', clientSecret: 's' };
  it.each([
    [{ tenant, workers: 2 }, 'workers'],
    [{ tenant, fixtures: 'fixtures' }, 'fixtures'],
    [{ tenant: 5 }, 'tenant'],
    [{ tenant, batchSize: 0 }, 'batchSize'],
    [{ tenant, shard: '3/3' }, 'shard'],
    [{ tenant, now: 'yesterday' }, 'now'],
    [{ tenant, nope: true }, 'nope'],
  ])('rejects %o as REFRESH_OPTION_INVALID before any request', (options, option) => {
    try {
      new TenantRefreshRunner(options as never);
      throw new Error('accepted');
    } catch (error) {
      expect((error as TransformsError).code).toBe('REFRESH_OPTION_INVALID');
      expect((error as TransformsError).details).toEqual({ option });
    }
  });
});
