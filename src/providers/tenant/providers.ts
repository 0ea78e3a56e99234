// Tenant-backed providers: the account, source, identity and transform providers over
// a platform tenant's API, so that transforms and profiles evaluate against real data.
//
//   accounts    GET /v3/accounts, filters `identityId eq … and sourceId eq …` plus the pushed-down
//               accountFilter; an identity's whole account list is kept once fetched
//   sources     GET /v3/sources, every page once (a tenant has few), resolved as every provider
//               resolves them (sources.ts): by id, external id, "<name> [source]" or name
//   identities  POST /v3/search on the identities index (`id:"…"`, `name:"…"`), read into the
//               fixture shape { id, name, attributes, managerId }
//   transforms  GET /v3/transforms, filters `name eq "…"`, the exact name picked
//
// Answers are cached in an lru-cache with a time to live (default 60 s), so that a long-lived
// engine sees changes while one evaluation or one refresh batch costs each lookup once.

import { LRUCache } from 'lru-cache';
import { codedError } from '../../errors/index.js';
import { SourceIndex } from '../sources.js';
import type { Account, AccountQuery, Identity, IdentityProfile, Providers, Source, SourceRef, TransformDocument } from '../types.js';
import { TenantClient, LIST_PAGE_MAX, SEARCH_PAGE_MAX, type TenantClientOptions, type TenantClientStats } from './client.js';
import { pushDownAccountFilter } from './pushdown.js';
import { apiAll, apiEquals, apiIn, EVERY_DOCUMENT, filtersParam, searchAny, searchPhrase, searchQuery } from './queries.js';

export interface TenantProviderOptions extends TenantClientOptions {
  /** Records per page of the list endpoints (at most 250). Default 250. */
  pageSize?: number;
  /** Identities per page of the search endpoint (at most 10,000). Default 1,000. */
  searchPageSize?: number;
  /** Identity ids per `identityId in (…)` request when accounts are fetched for many identities. Default 50. */
  prefetchChunk?: number;
  /** Cached answers: how many, and for how long. `false` turns the cache off. Default { max: 10000, ttlMs: 60000 }. */
  cache?: { max?: number; ttlMs?: number } | false;
}

const OPTION_KEYS = new Set([
  'baseUrl', 'clientId', 'clientSecret', 'tokenUrl', 'concurrency', 'retries', 'retryDelayMs', 'maxRetryDelayMs', 'timeoutMs',
  'maxBodyBytes', 'maxRecords', 'renewBeforeSeconds', 'maxRequestsPerSecond', 'fetch', 'now', 'sleep', 'pageSize', 'searchPageSize', 'prefetchChunk', 'cache',
]);

export interface TenantStats extends TenantClientStats {
  /** Account records received. */
  accounts: number;
  /** Answers served from the cache. */
  cacheHits: number;
}

/**
 * A search hit (or any identity document) in the fixture shape the engine reads. Its id and name
 * are strings (an id not empty), as the platform's identity documents have them: a hit without
 * them is TENANT_RESPONSE, not an identity the report would call "undefined" or "[object Object]".
 */
export function identityFromDocument(doc: Record<string, unknown>): Identity {
  for (const member of ['id', 'name'] as const) {
    const value = doc[member];
    if (typeof value !== 'string' || (member === 'id' && value === '')) {
      throw codedError('TENANT_RESPONSE', `/v3/search answered an identity whose ${member} is ${value === undefined ? 'missing' : value === '' ? 'empty' : value === null ? 'null' : Array.isArray(value) ? 'an array' : `of type ${typeof value}`}, not ${member === 'id' ? 'a non-empty' : 'a'} string`, {
        details: { path: '/v3/search', member },
      });
    }
  }
  const manager = doc.manager as { id?: unknown } | null | undefined;
  const attributes = doc.attributes;
  const profile = doc.identityProfile as { id?: unknown; name?: unknown } | null | undefined;
  return {
    id: doc.id as string,
    name: doc.name as string,
    attributes: attributes !== null && typeof attributes === 'object' && !Array.isArray(attributes) ? (attributes as Record<string, unknown>) : {},
    managerId: manager && typeof manager.id === 'string' ? manager.id : typeof doc.managerId === 'string' ? doc.managerId : null,
    ...(typeof doc.modified === 'string' ? { modified: doc.modified } : {}),
    ...(profile && typeof profile.id === 'string' ? { identityProfile: { id: profile.id, name: typeof profile.name === 'string' ? profile.name : '' } } : {}),
  };
}

function normaliseAccount(doc: Record<string, unknown>): Account {
  if (doc.attributes === null || typeof doc.attributes !== 'object') doc.attributes = {};
  return doc as Account;
}

/** Search hits without their account lists: an identity is read as { id, name, attributes, managerId } only. */
const LEAN_HITS = { queryResultFilter: { excludes: ['accounts'] } };

/** The search query of every identity. */
const EVERY_IDENTITY = searchQuery(EVERY_DOCUMENT);

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The providers over a tenant's API. Pass it as the engine's `providers`: its four providers are
 * its own enumerable members; the client, the bulk fetches and the statistics are methods.
 */
export class TenantProviders implements Required<Pick<Providers, 'accounts' | 'sources' | 'identities' | 'transforms'>> {
  readonly accounts: Required<Providers>['accounts'];
  readonly sources: Required<Providers>['sources'];
  readonly identities: Required<Providers>['identities'];
  readonly transforms: Required<Providers>['transforms'];
  readonly #client: TenantClient;
  readonly #more: TenantMethods;

  constructor(client: TenantClient, providers: Required<Pick<Providers, 'accounts' | 'sources' | 'identities' | 'transforms'>>, more: TenantMethods) {
    this.accounts = providers.accounts;
    this.sources = providers.sources;
    this.identities = providers.identities;
    this.transforms = providers.transforms;
    this.#client = client;
    this.#more = more;
  }

  /** The HTTP client (token, retries, concurrency limit, paging). */
  get client(): TenantClient {
    return this.#client;
  }
  /** Every identity of the tenant, in id order, page by page (search with searchAfter). */
  listIdentities(): AsyncGenerator<Identity[], void, undefined> {
    return this.#more.listIdentities();
  }
  /** How many identities the tenant has (search with count=true). */
  countIdentities(): Promise<number> {
    return this.#more.countIdentities();
  }
  /** Every identity profile of the tenant. */
  listIdentityProfiles(): Promise<IdentityProfile[]> {
    return this.#more.listIdentityProfiles();
  }
  /** An identity by id, or else by name (uid). */
  findIdentity(idOrName: string): Promise<Identity | null> {
    return this.#more.findIdentity(idOrName);
  }
  /** Fetch the accounts of many identities in few requests (`identityId in (…)`) and keep them for listAccounts. */
  prefetchAccounts(identityIds: readonly string[]): Promise<void> {
    return this.#more.prefetchAccounts(identityIds);
  }
  /** Fetch many identities in few searches and keep them for getIdentity. */
  prefetchIdentities(ids: readonly string[]): Promise<void> {
    return this.#more.prefetchIdentities(ids);
  }
  /** Identities by id, in few searches (`id:"…" OR …`), uncached; ids the tenant lacks are absent from the answer. */
  fetchIdentities(ids: readonly string[]): Promise<Identity[]> {
    return this.#more.fetchIdentities(ids);
  }
  /** The accounts of many identities (`identityId in (…)`), uncached, each identity's in the tenant's order. */
  fetchAccountsOf(identityIds: readonly string[]): Promise<Map<string, Account[]>> {
    return this.#more.fetchAccountsOf(identityIds);
  }
  stats(): TenantStats {
    return this.#more.stats();
  }
  /** Forget every cached answer. */
  clearCache(): void {
    this.#more.clearCache();
  }
}

interface TenantMethods {
  listIdentities(): AsyncGenerator<Identity[], void, undefined>;
  countIdentities(): Promise<number>;
  listIdentityProfiles(): Promise<IdentityProfile[]>;
  findIdentity(idOrName: string): Promise<Identity | null>;
  prefetchAccounts(identityIds: readonly string[]): Promise<void>;
  prefetchIdentities(ids: readonly string[]): Promise<void>;
  fetchIdentities(ids: readonly string[]): Promise<Identity[]>;
  fetchAccountsOf(identityIds: readonly string[]): Promise<Map<string, Account[]>>;
  stats(): TenantStats;
  clearCache(): void;
}

export function createTenantProviders(options: TenantProviderOptions): TenantProviders {
  if (options === null || typeof options !== 'object') throw codedError('TENANT_OPTIONS', 'tenant options must be an object', { details: { option: '' } });
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) throw codedError('TENANT_OPTIONS', `unknown tenant option "${key}"`, { details: { option: key } });
  }
  const bounded = (name: 'pageSize' | 'searchPageSize' | 'prefetchChunk', max: number, fallback: number): number => {
    const v = options[name];
    if (v === undefined) return fallback;
    if (!Number.isSafeInteger(v) || v < 1 || v > max) throw codedError('TENANT_OPTIONS', `${name} must be an integer from 1 to ${max}, got ${JSON.stringify(v)}`, { details: { option: name } });
    return v;
  };
  const pageSize = bounded('pageSize', LIST_PAGE_MAX, LIST_PAGE_MAX);
  const searchPageSize = bounded('searchPageSize', SEARCH_PAGE_MAX, 1000);
  const prefetchChunk = bounded('prefetchChunk', 1000, 50);
  const cacheOption = options.cache ?? {};
  if (cacheOption !== false && (cacheOption === null || typeof cacheOption !== 'object')) {
    throw codedError('TENANT_OPTIONS', 'cache must be { max?, ttlMs? } or false', { details: { option: 'cache' } });
  }
  const { pageSize: _p, searchPageSize: _s, prefetchChunk: _c, cache: _cache, ...clientOptions } = options;
  const client = new TenantClient(clientOptions);

  // One cache for every kind of answer, keyed by kind; a promise is cached, so that concurrent
  // lookups of the same key send one request. Failed lookups are dropped from it.
  const cache =
    cacheOption === false
      ? null
      : new LRUCache<string, Promise<unknown>>({
          max: cacheOption.max ?? 10_000,
          ttl: cacheOption.ttlMs ?? 60_000,
          // Read the clock at every lookup (the default caches it for a millisecond tick).
          ttlResolution: 0,
          ...(options.now ? { perf: { now: options.now } } : {}),
        });
  let cacheHits = 0;
  let accountsReceived = 0;
  const cached = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const hit = cache?.get(key);
    if (hit !== undefined) {
      cacheHits++;
      return hit as Promise<T>;
    }
    const value = load();
    if (cache) {
      cache.set(key, value);
      value.catch(() => {
        if (cache.get(key) === value) cache.delete(key);
      });
    }
    return value;
  };
  const keep = (key: string, value: unknown): void => {
    cache?.set(key, Promise.resolve(value));
  };

  const listAll = async <T>(path: string, query: Record<string, string | undefined> = {}): Promise<T[]> => {
    const out: T[] = [];
    for await (const page of client.list<T>(path, query, pageSize)) out.push(...page);
    return out;
  };
  const fetchAccounts = async (filters: string): Promise<Account[]> => {
    const accounts = (await listAll<Record<string, unknown>>('/v3/accounts', { filters })).map(normaliseAccount);
    accountsReceived += accounts.length;
    return accounts;
  };

  // Sources: the whole list, indexed as the in-memory provider indexes fixtures.
  const sourceIndex = () => cached('sources', async () => new SourceIndex(await listAll<Source>('/v3/sources')));

  const searchIdentities = async (query: string): Promise<Identity[]> => {
    const out: Identity[] = [];
    for await (const page of client.search<Record<string, unknown>>('identities', query, 'id', searchPageSize, LEAN_HITS)) out.push(...page.map(identityFromDocument));
    return out;
  };
  const getIdentity = (id: string): Promise<Identity | null> =>
    cached(`identity:${id}`, async () => (await searchIdentities(searchQuery(searchPhrase('id', id)))).find((i) => i.id === id) ?? null);
  const findIdentityByName = (name: string): Promise<Identity | null> =>
    cached(`identity-name:${name}`, async () => (await searchIdentities(searchQuery(searchPhrase('name', name)))).find((i) => i.name === name) ?? null);

  // The accounts of many identities, a request (or a few pages) per chunk, grouped by identity.
  const accountsOf = async (identityIds: readonly string[]): Promise<Map<string, Account[]>> => {
    const byIdentity = new Map<string, Account[]>(identityIds.map((id) => [id, []]));
    await Promise.all(
      chunk([...new Set(identityIds)], prefetchChunk).map(async (ids) => {
        const accounts = await fetchAccounts(filtersParam(apiIn('identityId', ids)));
        for (const a of accounts) byIdentity.get(a.identityId)?.push(a);
      }),
    );
    return byIdentity;
  };
  const identitiesById = async (ids: readonly string[]): Promise<Identity[]> => {
    const found = await Promise.all(chunk([...new Set(ids)], prefetchChunk).map((part) => searchIdentities(searchQuery(searchAny(part.map((id) => searchPhrase('id', id)))))));
    return found.flat();
  };

  const allAccounts = (identityId: string): Promise<Account[]> =>
    cached(`accounts:${identityId}`, () => fetchAccounts(filtersParam(apiEquals('identityId', identityId))));

  const providers = {
    sources: {
      async resolveSource(ref: SourceRef) {
        return (await sourceIndex()).resolve(ref);
      },
    },
    accounts: {
      async listAccounts(query: AccountQuery) {
        // An identity whose accounts are all known is answered from them (the engine applies accountFilter again).
        const whole = cache?.get(`accounts:${query.identityId}`) as Promise<Account[]> | undefined;
        if (whole !== undefined || query.sourceId === undefined) {
          if (whole !== undefined) cacheHits++;
          const accounts = await (whole ?? allAccounts(query.identityId));
          return query.sourceId === undefined ? accounts : accounts.filter((a) => a.sourceId === query.sourceId);
        }
        const pushed = query.filter ? pushDownAccountFilter(query.filter) : null;
        const filters = filtersParam(apiAll([apiEquals('identityId', query.identityId), apiEquals('sourceId', query.sourceId), ...(pushed === null ? [] : [pushed])]));
        return cached(`accounts-query:${filters}`, () => fetchAccounts(filters));
      },
    },
    identities: { getIdentity, findIdentityByName },
    transforms: {
      getTransform: (name: string) =>
        cached(`transform:${name}`, async () => {
          const found = await listAll<TransformDocument>('/v3/transforms', { filters: filtersParam(apiEquals('name', name)) });
          return found.find((t) => t.name === name) ?? null;
        }),
    },
  };
  const methods: TenantMethods = {
    async *listIdentities() {
      for await (const page of client.search<Record<string, unknown>>('identities', EVERY_IDENTITY, 'id', searchPageSize, LEAN_HITS)) yield page.map(identityFromDocument);
    },
    async countIdentities() {
      const response = await client.request<unknown>('POST', '/v3/search', { query: { limit: 1, count: true }, body: { indices: ['identities'], query: { query: EVERY_IDENTITY } } });
      const total = Number(response.headers.get('x-total-count'));
      if (!Number.isSafeInteger(total) || total < 0) throw codedError('TENANT_RESPONSE', '/v3/search with count=true answered without a numeric X-Total-Count header', { details: { path: '/v3/search' } });
      return total;
    },
    listIdentityProfiles: () => listAll<IdentityProfile>('/v3/identity-profiles'),
    async findIdentity(idOrName: string) {
      return (await getIdentity(idOrName)) ?? (await findIdentityByName(idOrName));
    },
    async prefetchAccounts(identityIds) {
      const wanted = [...new Set(identityIds)].filter((id) => cache?.get(`accounts:${id}`) === undefined);
      for (const [id, list] of await accountsOf(wanted)) keep(`accounts:${id}`, list);
    },
    async prefetchIdentities(ids) {
      const wanted = [...new Set(ids)].filter((id) => cache?.get(`identity:${id}`) === undefined);
      const found = new Map((await identitiesById(wanted)).map((i) => [i.id, i]));
      for (const id of wanted) keep(`identity:${id}`, found.get(id) ?? null);
    },
    fetchIdentities: (ids) => identitiesById(ids),
    fetchAccountsOf: (identityIds) => accountsOf(identityIds),
    stats: () => ({ ...client.stats(), accounts: accountsReceived, cacheHits }),
    clearCache: () => cache?.clear(),
  };
  return new TenantProviders(client, providers, methods);
}
