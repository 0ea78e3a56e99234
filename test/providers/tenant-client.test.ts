// The tenant HTTP client (src/providers/tenant/client.ts) against a scripted fetch: the token
// cached and renewed before expiry (https://developer.sailpoint.com/docs/api/authentication), 401 renews once, 429/5xx/network
// failures retried with backoff and Retry-After, other errors coded at once, the concurrency
// limit, limit/offset paging (https://developer.sailpoint.com/docs/api/standard-collection-parameters)
// and searchAfter paging (https://developer.sailpoint.com/docs/api/v3/search-post).

import { describe, expect, it } from 'vitest';
import { TransformsError } from '../../src/errors/index.js';
import { retryAfterMs, TenantClient, type TenantClientOptions } from '../../src/providers/tenant/client.js';
import { scriptedFetch, TOKEN } from './scripted-fetch.js';

function client(fetch: typeof globalThis.fetch, extra: Partial<TenantClientOptions> = {}) {
  const sleeps: number[] = [];
  const c = new TenantClient({
    baseUrl: 'https://acme.api.example.com/',
    clientId: 'id-1',
    clientSecret: 'secret-1',
    fetch,
    sleep: async (ms) => void sleeps.push(ms),
    ...extra,
  });
  return { c, sleeps };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TransformsError);
    return (error as TransformsError).code;
  }
  throw new Error('expected a coded error');
}

describe('TenantClient: the access token (client credentials, renewed before expiry)', () => {
  it('posts client_credentials as a form to {baseUrl}/oauth/token and sends the token as Bearer', async () => {
    const { fetch, calls } = scriptedFetch((call, n) => (call.url.pathname === '/oauth/token' ? TOKEN(n) : { status: 200, body: [] }));
    const { c } = client(fetch);
    await c.request('GET', '/v3/sources');
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.url.href).toBe('https://acme.api.example.com/oauth/token');
    expect(calls[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(calls[0]!.body))).toEqual({ grant_type: 'client_credentials', client_id: 'id-1', client_secret: 'secret-1' });
    expect(calls[1]!.headers.authorization).toBe('Bearer token-0');
  });

  it('asks once for concurrent callers and reuses the token until shortly before it expires', async () => {
    let now = 1_000_000;
    const { fetch, calls } = scriptedFetch((call, n) => (call.url.pathname === '/oauth/token' ? TOKEN(n) : { status: 200, body: [] }));
    const { c } = client(fetch, { now: () => now });
    await Promise.all([c.request('GET', '/v3/a'), c.request('GET', '/v3/b'), c.request('GET', '/v3/c')]);
    expect(calls.filter((x) => x.url.pathname === '/oauth/token')).toHaveLength(1);
    // expires_in 749 s, renewed 60 s before: still the same token at 688 s …
    now += 688_000;
    await c.request('GET', '/v3/d');
    expect(c.stats().tokens).toBe(1);
    // … and a new one from 689 s on.
    now += 1_000;
    await c.request('GET', '/v3/e');
    expect(c.stats().tokens).toBe(2);
    expect(calls.at(-1)!.headers.authorization).toBe('Bearer token-1');
  });

  it('renews a short-lived token at half its lifetime at the latest', async () => {
    let now = 0;
    const { fetch } = scriptedFetch((call, n) => (call.url.pathname === '/oauth/token' ? TOKEN(n, 20) : { status: 200, body: [] }));
    const { c } = client(fetch, { now: () => now });
    await c.request('GET', '/v3/a');
    now = 9_999;
    await c.request('GET', '/v3/a');
    expect(c.stats().tokens).toBe(1);
    now = 10_000;
    await c.request('GET', '/v3/a');
    expect(c.stats().tokens).toBe(2);
  });

  it('takes a 401 from an API call as a revoked token: one new token, one more attempt', async () => {
    const { fetch, calls } = scriptedFetch((call, n) => {
      if (call.url.pathname === '/oauth/token') return TOKEN(n);
      return call.headers.authorization === 'Bearer token-0' ? { status: 401, body: { messages: [{ text: 'expired' }] } } : { status: 200, body: [1] };
    });
    const { c } = client(fetch);
    const response = await c.request('GET', '/v3/sources');
    expect(response.body).toEqual([1]);
    expect(calls.map((x) => x.url.pathname)).toEqual(['/oauth/token', '/v3/sources', '/oauth/token', '/v3/sources']);
  });

  it('gives TENANT_HTTP 401 when the new token is refused as well', async () => {
    const { fetch } = scriptedFetch((call, n) => (call.url.pathname === '/oauth/token' ? TOKEN(n) : { status: 401, body: { detailCode: '401 Unauthorized', messages: [{ locale: 'en-US', localeOrigin: 'DEFAULT', text: 'The token is invalid.' }] } }));
    const { c } = client(fetch);
    const error = await c.request('GET', '/v3/sources').catch((e: TransformsError) => e);
    expect(error).toBeInstanceOf(TransformsError);
    expect((error as TransformsError).code).toBe('TENANT_HTTP');
    expect((error as TransformsError).message).toBe('GET /v3/sources answered 401: The token is invalid.');
    expect((error as TransformsError).details).toMatchObject({ status: 401, method: 'GET', path: '/v3/sources' });
  });

  it('reports refused credentials as TENANT_AUTH with the OAuth error text', async () => {
    const { fetch } = scriptedFetch(() => ({ status: 401, body: { error: 'invalid_client', error_description: 'Bad credentials' } }));
    const { c } = client(fetch);
    const error = await c.accessToken().catch((e: TransformsError) => e);
    expect((error as TransformsError).code).toBe('TENANT_AUTH');
    expect((error as TransformsError).message).toContain('Bad credentials');
  });

  it('reports a token response without access_token as TENANT_RESPONSE', async () => {
    const { fetch } = scriptedFetch(() => ({ status: 200, body: { token_type: 'bearer' } }));
    expect(await codeOf(client(fetch).c.accessToken())).toBe('TENANT_RESPONSE');
  });
});

describe('TenantClient: retries', () => {
  it('retries a 429 after the Retry-After seconds', async () => {
    const { fetch } = scriptedFetch((call, n) => {
      if (call.url.pathname === '/oauth/token') return TOKEN(n);
      return n === 0 ? { status: 429, headers: { 'retry-after': '2' }, body: { messages: [{ text: 'slow down' }] } } : { status: 200, body: ['ok'] };
    });
    const { c, sleeps } = client(fetch);
    expect((await c.request('GET', '/v3/accounts')).body).toEqual(['ok']);
    expect(sleeps).toEqual([2000]);
    expect(c.stats()).toMatchObject({ requests: 2, retries: 1 });
  });

  it('backs off exponentially with jitter on 5xx and gives TENANT_HTTP when the retries run out', async () => {
    const { fetch } = scriptedFetch((call, n) => (call.url.pathname === '/oauth/token' ? TOKEN(n) : { status: 503, body: { messages: [{ text: 'maintenance' }] } }));
    const { c, sleeps } = client(fetch, { retries: 4, retryDelayMs: 100 });
    const error = await c.request('GET', '/v3/accounts').catch((e: TransformsError) => e);
    expect((error as TransformsError).code).toBe('TENANT_HTTP');
    expect((error as TransformsError).message).toBe('GET /v3/accounts answered 503: maintenance');
    expect(sleeps).toHaveLength(4);
    sleeps.forEach((ms, attempt) => {
      expect(ms).toBeGreaterThanOrEqual((100 * 2 ** attempt) / 2);
      expect(ms).toBeLessThanOrEqual(100 * 2 ** attempt);
    });
  });

  it('caps every wait at maxRetryDelayMs, Retry-After included', async () => {
    const { fetch } = scriptedFetch((call, n) => (call.url.pathname === '/oauth/token' ? TOKEN(n) : n < 2 ? { status: 429, headers: { 'retry-after': '3600' } } : { status: 200, body: [] }));
    const { c, sleeps } = client(fetch, { maxRetryDelayMs: 5000 });
    await c.request('GET', '/v3/accounts');
    expect(sleeps).toEqual([5000, 5000]);
  });

  it('retries network failures and gives TENANT_NETWORK naming the cause when they persist', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    const { fetch, calls } = scriptedFetch((call, n) => (call.url.pathname === '/oauth/token' ? TOKEN(n) : refused));
    const { c } = client(fetch, { retries: 2 });
    const error = await c.request('GET', '/v3/accounts').catch((e: TransformsError) => e);
    expect((error as TransformsError).code).toBe('TENANT_NETWORK');
    expect((error as TransformsError).message).toContain('ECONNREFUSED');
    expect(calls.filter((x) => x.url.pathname === '/v3/accounts')).toHaveLength(3);
  });

  it('retries the token request too', async () => {
    const { fetch } = scriptedFetch((call, n) => (call.url.pathname !== '/oauth/token' ? { status: 200, body: [] } : n === 0 ? { status: 502 } : TOKEN(n)));
    const { c, sleeps } = client(fetch);
    await c.request('GET', '/v3/sources');
    expect(c.stats().tokens).toBe(1);
    expect(sleeps).toHaveLength(1);
  });

  it('does not retry other 4xx answers', async () => {
    const { fetch, calls } = scriptedFetch((call, n) =>
      call.url.pathname === '/oauth/token' ? TOKEN(n) : { status: 400, body: { detailCode: '400.1 Bad request syntax', messages: [{ text: "Unsupported filter field 'nope'" }] } },
    );
    const { c } = client(fetch);
    const error = await c.request('GET', '/v3/accounts', { query: { filters: 'nope eq 1' } }).catch((e: TransformsError) => e);
    expect((error as TransformsError).code).toBe('TENANT_HTTP');
    expect((error as TransformsError).message).toContain("Unsupported filter field 'nope'");
    expect(calls.filter((x) => x.url.pathname === '/v3/accounts')).toHaveLength(1);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('7', 0)).toBe(7000);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:10 GMT', 4000)).toBe(6000);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:10 GMT', 20_000)).toBe(0);
    expect(retryAfterMs('soon', 0)).toBeNull();
    expect(retryAfterMs(null, 0)).toBeNull();
  });
});

describe('TenantClient: bodies, concurrency and paging', () => {
  it('reports a 200 whose body is not JSON as TENANT_RESPONSE', async () => {
    const { fetch } = scriptedFetch((call, n) => (call.url.pathname === '/oauth/token' ? TOKEN(n) : { status: 200, body: '<html>' }));
    expect(await codeOf(client(fetch).c.request('GET', '/v3/sources'))).toBe('TENANT_RESPONSE');
  });

  it('reports a collection that is not an array as TENANT_RESPONSE', async () => {
    const { fetch } = scriptedFetch((call, n) => (call.url.pathname === '/oauth/token' ? TOKEN(n) : { status: 200, body: { items: [] } }));
    const pages = client(fetch).c.list('/v3/sources');
    expect(await codeOf(pages.next())).toBe('TENANT_RESPONSE');
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const { fetch } = scriptedFetch(async (call, n) => {
      if (call.url.pathname === '/oauth/token') return TOKEN(n);
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return { status: 200, body: [] };
    });
    const { c } = client(fetch, { concurrency: 3 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => c.request('GET', `/v3/x${i}`)));
    expect(most).toBe(3);
    expect(c.stats().requests).toBe(12);
  });

  it('pages a collection with limit and offset until a short page', async () => {
    const records = Array.from({ length: 5 }, (_, i) => ({ id: `r${i}` }));
    const { fetch, calls } = scriptedFetch((call, n) => {
      if (call.url.pathname === '/oauth/token') return TOKEN(n);
      const limit = Number(call.url.searchParams.get('limit'));
      const offset = Number(call.url.searchParams.get('offset'));
      return { status: 200, body: records.slice(offset, offset + limit) };
    });
    const pages: unknown[][] = [];
    for await (const page of client(fetch).c.list('/v3/accounts', { filters: 'identityId eq "a"' }, 2)) pages.push(page);
    expect(pages).toEqual([[records[0], records[1]], [records[2], records[3]], [records[4]]]);
    const listed = calls.filter((x) => x.url.pathname === '/v3/accounts');
    expect(listed.map((x) => x.url.searchParams.get('offset'))).toEqual(['0', '2', '4']);
    expect(listed.every((x) => x.url.searchParams.get('filters') === 'identityId eq "a"')).toBe(true);
  });

  describe('with pages requested ahead (the count from the first page)', () => {
    const listing = (records: { id: string }[], { total = true, inFlight = { now: 0, most: 0 } } = {}) =>
      scriptedFetch(async (call, n) => {
        if (call.url.pathname === '/oauth/token') return TOKEN(n);
        inFlight.now++;
        inFlight.most = Math.max(inFlight.most, inFlight.now);
        await new Promise((resolve) => setTimeout(resolve, 2));
        inFlight.now--;
        const limit = Number(call.url.searchParams.get('limit'));
        const offset = Number(call.url.searchParams.get('offset'));
        const counted = total && call.url.searchParams.get('count') === 'true';
        return { status: 200, body: records.slice(offset, offset + limit), headers: counted ? { 'X-Total-Count': String(records.length) } : {} };
      });
    const records = Array.from({ length: 9 }, (_, i) => ({ id: `r${i}` }));
    const offsets = (calls: { url: URL }[]) => calls.filter((x) => x.url.pathname === '/v3/accounts').map((x) => [x.url.searchParams.get('offset'), x.url.searchParams.get('count')]);

    it('asks count=true once, then the counted pages at most `ahead` at a time, handed out in order', async () => {
      const inFlight = { now: 0, most: 0 };
      const { fetch, calls } = listing(records, { inFlight });
      const pages: unknown[][] = [];
      for await (const page of client(fetch).c.list('/v3/accounts', { filters: 'modified ge 2025-01-01T00:00:00Z' }, 2, { ahead: 3 })) pages.push(page);
      expect(pages).toEqual([0, 2, 4, 6, 8].map((i) => records.slice(i, i + 2)));
      expect(offsets(calls)).toEqual([['0', 'true'], ['2', null], ['4', null], ['6', null], ['8', null]]);
      expect(inFlight.most).toBe(3);
    });

    it('a count that is a multiple of the page size ends with one empty page, as one page at a time does', async () => {
      const { fetch, calls } = listing(records.slice(0, 4));
      const pages: unknown[][] = [];
      for await (const page of client(fetch).c.list('/v3/accounts', {}, 2, { ahead: 4 })) pages.push(page);
      expect(pages).toEqual([records.slice(0, 2), records.slice(2, 4)]);
      expect(offsets(calls).map(([o]) => o)).toEqual(['0', '2', '4']);
    });

    it('without X-Total-Count, pages one at a time', async () => {
      const { fetch, calls } = listing(records, { total: false });
      const ids: string[] = [];
      for await (const page of client(fetch).c.list<{ id: string }>('/v3/accounts', {}, 4, { ahead: 4 })) ids.push(...page.map((r) => r.id));
      expect(ids).toEqual(records.map((r) => r.id));
      expect(offsets(calls).map(([o]) => o)).toEqual(['0', '4', '8']);
    });

    it('records added past the count are listed one page at a time after the counted ones', async () => {
      // The count (3) is taken before 4 more records are added.
      let shown = 3;
      const { fetch, calls } = scriptedFetch((call, n) => {
        if (call.url.pathname === '/oauth/token') return TOKEN(n);
        const offset = Number(call.url.searchParams.get('offset'));
        const body = records.slice(0, shown).slice(offset, offset + 2);
        const headers: Record<string, string> = call.url.searchParams.get('count') === 'true' ? { 'X-Total-Count': String(shown) } : {};
        shown = 7;
        return { status: 200, body, headers };
      });
      const ids: string[] = [];
      for await (const page of client(fetch).c.list<{ id: string }>('/v3/accounts', {}, 2, { ahead: 4 })) ids.push(...page.map((r) => r.id));
      expect(ids).toEqual(records.slice(0, 7).map((r) => r.id));
      expect(offsets(calls).map(([o]) => o)).toEqual(['0', '2', '4', '6']);
    });

    it('a page that fails fails the listing, after the pages in flight settle', async () => {
      let settled = 0;
      const { fetch } = scriptedFetch(async (call, n) => {
        if (call.url.pathname === '/oauth/token') return TOKEN(n);
        const offset = Number(call.url.searchParams.get('offset'));
        await new Promise((resolve) => setTimeout(resolve, offset === 2 ? 1 : 10));
        settled++;
        if (offset === 2) return { status: 400, body: { messages: [{ text: 'no' }] } };
        return { status: 200, body: records.slice(offset, offset + 2), headers: { 'X-Total-Count': '9' } };
      });
      const pages = client(fetch).c.list('/v3/accounts', {}, 2, { ahead: 4 });
      await pages.next();
      expect(await codeOf(pages.next())).toBe('TENANT_HTTP');
      expect(settled).toBe(5);
    });
  });

  it('pages a search with sort and searchAfter (the last hit of each page)', async () => {
    const hits = Array.from({ length: 5 }, (_, i) => ({ id: `id-${i}`, name: `n${i}` }));
    const { fetch, calls } = scriptedFetch((call, n) => {
      if (call.url.pathname === '/oauth/token') return TOKEN(n);
      const body = JSON.parse(call.body!) as { searchAfter?: string[] };
      const start = body.searchAfter ? hits.findIndex((h) => h.id === body.searchAfter![0]) + 1 : 0;
      return { status: 200, body: hits.slice(start, start + Number(call.url.searchParams.get('limit'))) };
    });
    const ids: string[] = [];
    for await (const page of client(fetch).c.search<{ id: string }>('identities', '*', 'id', 2)) ids.push(...page.map((h) => h.id));
    expect(ids).toEqual(hits.map((h) => h.id));
    const bodies = calls.filter((x) => x.url.pathname === '/v3/search').map((x) => JSON.parse(x.body!));
    expect(bodies[0]).toEqual({ indices: ['identities'], query: { query: '*' }, sort: ['id'] });
    expect(bodies.slice(1).map((b) => b.searchAfter)).toEqual([['id-1'], ['id-3']]);
  });
});

describe('TenantClient: paging that would not end', () => {
  it('reports a page longer than the limit as TENANT_RESPONSE', async () => {
    const { fetch } = scriptedFetch((call, n) => (call.url.pathname === '/oauth/token' ? TOKEN(n) : { status: 200, body: [1, 2, 3] }));
    expect(await codeOf(client(fetch).c.list('/v3/accounts', {}, 2).next())).toBe('TENANT_RESPONSE');
  });

  it('reports a search that ignores searchAfter as TENANT_RESPONSE instead of paging forever', async () => {
    const { fetch } = scriptedFetch((call, n) => (call.url.pathname === '/oauth/token' ? TOKEN(n) : { status: 200, body: [{ id: 'a' }, { id: 'b' }] }));
    const pages = client(fetch).c.search('identities', '*', 'id', 2);
    await pages.next();
    expect(await codeOf(pages.next())).toBe('TENANT_RESPONSE');
  });

  it('reports hits without their sort value as TENANT_RESPONSE', async () => {
    const { fetch } = scriptedFetch((call, n) => (call.url.pathname === '/oauth/token' ? TOKEN(n) : { status: 200, body: [{ name: 'a' }] }));
    const pages = client(fetch).c.search('identities', '*', 'id', 1);
    expect(await codeOf(pages.next())).toBe('TENANT_RESPONSE');
  });
});

describe('TenantClient: options', () => {
  const base = { baseUrl: 'https://t.example.com', clientId: 'a', clientSecret: 'b' };
  it.each([
    [{ ...base, baseUrl: 'ftp://t.example.com' }, 'baseUrl'],
    [{ ...base, baseUrl: 'not a url' }, 'baseUrl'],
    [{ ...base, clientId: '' }, 'clientId'],
    [{ ...base, clientSecret: undefined as unknown as string }, 'clientSecret'],
    [{ ...base, concurrency: 0 }, 'concurrency'],
    [{ ...base, retries: 1.5 }, 'retries'],
    [{ ...base, timeoutMs: -1 }, 'timeoutMs'],
    [{ ...base, fetch: 'no' as unknown as typeof fetch }, 'fetch'],
  ])('rejects %o naming the option', (options, option) => {
    try {
      new TenantClient(options);
      throw new Error('accepted');
    } catch (error) {
      expect((error as TransformsError).code).toBe('TENANT_OPTIONS');
      expect((error as TransformsError).details).toEqual({ option });
    }
  });
});

describe('TenantClient: the rate', () => {
  it("holds every request back until a 429's Retry-After has passed, not only the refused one", async () => {
    let refusedAt = 0;
    let answered!: () => void;
    const refusal = new Promise<void>((resolve) => (answered = resolve));
    const sent: Record<string, number[]> = { '/v3/a': [], '/v3/b': [] };
    const { fetch } = scriptedFetch(async (call, n) => {
      if (call.url.pathname === '/oauth/token') return TOKEN(n);
      sent[call.url.pathname]!.push(Date.now());
      if (call.url.pathname === '/v3/a' && n === 0) {
        refusedAt = Date.now();
        setImmediate(answered);
        return { status: 429, headers: { 'retry-after': '1' } };
      }
      if (call.url.pathname === '/v3/b' && n === 0) {
        await refusal;
        return { status: 503 };
      }
      return { status: 200, body: [] };
    });
    const c = new TenantClient({ baseUrl: 'https://acme.api.example.com', clientId: 'id', clientSecret: 'secret', fetch, concurrency: 2, retryDelayMs: 1 });
    await Promise.all([c.request('GET', '/v3/a'), c.request('GET', '/v3/b')]);
    // b failed with a 503 (a few ms of backoff) but was held until a's Retry-After had passed.
    expect(sent['/v3/b']![1]! - refusedAt).toBeGreaterThanOrEqual(950);
    expect(c.stats().pausedMs).toBeGreaterThan(0);
  });

  it('starts at most maxRequestsPerSecond requests a second', async () => {
    let now = 0;
    const sleeps: number[] = [];
    const { fetch } = scriptedFetch((call, n) => (call.url.pathname === '/oauth/token' ? TOKEN(n) : { status: 200, body: [] }));
    const c = new TenantClient({
      baseUrl: 'https://acme.api.example.com', clientId: 'id', clientSecret: 'secret', fetch, maxRequestsPerSecond: 10,
      now: () => now, sleep: async (ms) => void (sleeps.push(ms), (now += ms)),
    });
    for (let i = 0; i < 5; i++) await c.request('GET', '/v3/accounts');
    expect(sleeps).toEqual([100, 100, 100, 100]);
    expect(() => new TenantClient({ baseUrl: 'https://x.example.com', clientId: 'a', clientSecret: 'b', maxRequestsPerSecond: -1 })).toThrow(/maxRequestsPerSecond/);
  });
});
