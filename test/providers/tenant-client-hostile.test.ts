// The tenant client (src/providers/tenant/client.ts) against a tenant that attacks it, over real
// HTTP on 127.0.0.1: redirects that would carry the client secret elsewhere, bodies without end,
// listings without end, search cursors that go round, a body that stalls, a token that is not a
// bearer token, credentials in the URL. Each is a coded TENANT_* error, and nothing is read
// past its bound.

import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { TransformsError } from '../../src/errors/index.js';
import { TenantClient, type TenantClientOptions } from '../../src/providers/tenant/client.js';
import { hostileTenant, json, tokenAnswer, type Handler, type HostileTenant } from './hostile-tenant.js';

const open: HostileTenant[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function tenant(handle: Handler): Promise<HostileTenant> {
  const t = await hostileTenant(handle);
  open.push(t);
  return t;
}

/** Answers the token endpoint, and every other path with `api`. */
const withToken =
  (api: Handler): Handler =>
  (request, response, n) =>
    request.path === '/oauth/token' ? tokenAnswer(response) : api(request, response, n);

function client(url: string, extra: Partial<TenantClientOptions> = {}): TenantClient {
  return new TenantClient({ baseUrl: url, clientId: 'client-1', clientSecret: 'secret-of-client-1', retries: 2, sleep: async () => undefined, ...extra });
}

async function failure(promise: Promise<unknown>): Promise<TransformsError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TransformsError);
    return error as TransformsError;
  }
  throw new Error('expected a coded error');
}

async function drain<T>(walk: AsyncIterable<T[]>): Promise<number> {
  let n = 0;
  for await (const page of walk) n += page.length;
  return n;
}

/** Writes JSON array elements for as long as the client reads. */
function endless(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('[');
  const chunk = '"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",'.repeat(1024);
  const more = () => {
    while (!response.destroyed && response.write(chunk));
  };
  response.on('drain', more);
  more();
}

describe('redirects: no credential is sent to where a redirect points', () => {
  it('refuses a 307 from the token endpoint: the other host never receives the re-posted client secret', async () => {
    const elsewhere = await tenant((_request, response) => tokenAnswer(response, 'stolen'));
    const t = await tenant((request, response) => {
      response.writeHead(307, { location: `${elsewhere.url}/collect` });
      response.end();
    });
    const error = await failure(client(t.url).request('GET', '/v3/sources'));
    expect(error.code).toBe('TENANT_REDIRECT');
    expect(error.details).toMatchObject({ status: 307, location: elsewhere.url });
    expect(elsewhere.received).toEqual([]);
    // Refused, not retried: the tenant was asked once.
    expect(t.received.map((r) => r.path)).toEqual(['/oauth/token']);
  });

  it.each([301, 302, 303, 308])('refuses a %i from an API call, the bearer token kept from its target', async (status) => {
    const elsewhere = await tenant((_request, response) => json(response, 200, []));
    const t = await tenant(
      withToken((_request, response) => {
        response.writeHead(status, { location: `${elsewhere.url}/v3/sources` });
        response.end();
      }),
    );
    expect((await failure(client(t.url).request('GET', '/v3/sources'))).code).toBe('TENANT_REDIRECT');
    expect(elsewhere.received).toEqual([]);
  });
});

describe('bodies: read up to maxBodyBytes, never further', () => {
  it('stops reading a body without end at maxBodyBytes', async () => {
    const t = await tenant(withToken((_request, response) => endless(response)));
    const error = await failure(client(t.url, { maxBodyBytes: 1 << 20 }).request('GET', '/v3/sources'));
    expect(error.code).toBe('TENANT_LIMIT');
    expect(error.details).toMatchObject({ limit: 'maxBodyBytes', max: 1 << 20, path: '/v3/sources' });
  });

  it('refuses a body whose Content-Length is over the limit before reading it', async () => {
    const t = await tenant(
      withToken((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(4 * 1024 ** 3) });
        response.write('[');
      }),
    );
    const error = await failure(client(t.url, { maxBodyBytes: 4096 }).request('GET', '/v3/sources'));
    expect(error.code).toBe('TENANT_LIMIT');
    expect(error.details).toMatchObject({ limit: 'maxBodyBytes', max: 4096 });
  });

  it('bounds the token answer too', async () => {
    const t = await tenant((_request, response) => endless(response));
    expect((await failure(client(t.url, { maxBodyBytes: 1 << 16 }).accessToken())).code).toBe('TENANT_LIMIT');
  });

  it('gives up on a body that stalls after timeoutMs, retrying it, as TENANT_NETWORK', async () => {
    const t = await tenant(
      withToken((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('[{"id":"1"'); // and nothing more
      }),
    );
    const c = client(t.url, { timeoutMs: 200, retries: 2 });
    const error = await failure(c.request('GET', '/v3/sources'));
    expect(error.code).toBe('TENANT_NETWORK');
    expect(error.message).toContain('failed after 3 attempt(s): no complete answer within the time limit');
    expect(t.received.filter((r) => r.path === '/v3/sources')).toHaveLength(3);
    expect(c.stats().retries).toBe(2);
  });

  it('retries a body cut off midway, and reads the next answer', async () => {
    const t = await tenant(
      withToken((_request, response, n) => {
        if (n > 0) return json(response, 200, [{ id: 'src-1' }]);
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        response.write('[{"id":');
        response.destroy();
      }),
    );
    const answer = await client(t.url).request('GET', '/v3/sources');
    expect(answer.body).toEqual([{ id: 'src-1' }]);
  });
});

describe('listings: at most maxRecords', () => {
  it('ends a collection whose pages never end with TENANT_LIMIT', async () => {
    const t = await tenant(withToken((_request, response) => json(response, 200, Array.from({ length: 250 }, (_, i) => ({ id: `a${i}` })))));
    const c = client(t.url, { maxRecords: 2000 });
    const error = await failure(drain(c.list('/v3/accounts')));
    expect(error.code).toBe('TENANT_LIMIT');
    expect(error.details).toMatchObject({ limit: 'maxRecords', max: 2000, path: '/v3/accounts' });
    // Nine pages of 250 pass 2,000: the tenant was asked no further.
    expect(t.received.filter((r) => r.path === '/v3/accounts')).toHaveLength(9);
  });

  it('bounds a listing fetched ahead from a count without end', async () => {
    const t = await tenant(
      withToken((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'x-total-count': '9007199254740991' });
        response.end(JSON.stringify(Array.from({ length: 10 }, (_, i) => ({ id: `a${i}` }))));
      }),
    );
    expect((await failure(drain(client(t.url, { maxRecords: 100 }).list('/v3/accounts', {}, 10, { ahead: 4 })))).code).toBe('TENANT_LIMIT');
  });

  it('ends a search whose cursor cycles over two pages', async () => {
    const pages = [
      [{ id: 'a' }, { id: 'b' }],
      [{ id: 'c' }, { id: 'd' }],
    ];
    const t = await tenant(withToken((_request, response, n) => json(response, 200, pages[n % 2])));
    const error = await failure(drain(client(t.url).search('identities', '*', 'id', 2)));
    expect(error.code).toBe('TENANT_RESPONSE');
    expect(error.message).toContain('"b", a cursor already used');
    expect(t.received.filter((r) => r.path === '/v3/search')).toHaveLength(3);
  });

  it.each([
    ['within a page', [[{ id: 'a' }, { id: 'b' }, { id: 'b' }]], {}],
    ['across a page boundary', [[{ id: 'a' }, { id: 'b' }], [{ id: 'b' }, { id: 'c' }]], {}],
    ['on the cursor a resumed walk sent', [[{ id: 'b' }, { id: 'c' }]], { after: ['b'] }],
  ])('ends a search that hands out one identity twice %s (a snapshot would copy it twice)', async (_where, pages, walk) => {
    const t = await tenant(withToken((_request, response, n) => json(response, 200, pages[n] ?? [])));
    const error = await failure(drain(client(t.url).search('identities', '*', 'id', pages[0]!.length, walk)));
    expect(error.code).toBe('TENANT_RESPONSE');
    expect(error.message).toBe('/v3/search handed out the hit whose id is "b" twice; a search walked with searchAfter gives each id once');
  });

  it.each([
    ['an object', { nested: 'x' }],
    ['an array', ['x']],
    ['a boolean', true],
    ['null', null],
  ])('ends a search whose sort value is %s, which cannot be a cursor', async (_what, id) => {
    const t = await tenant(withToken((_request, response) => json(response, 200, [{ id: 'a' }, { id }])));
    const error = await failure(drain(client(t.url).search('identities', '*', 'id', 2)));
    expect(error.code).toBe('TENANT_RESPONSE');
    expect(error.message).toMatch(/paging does not advance: the last hit's id is not a string or number/);
  });

  it('bounds a search that always advances by maxRecords', async () => {
    const t = await tenant(withToken((_request, response, n) => json(response, 200, [{ id: `a${n}` }, { id: `b${n}` }])));
    const error = await failure(drain(client(t.url, { maxRecords: 50 }).search('identities', '*', 'id', 2)));
    expect(error.code).toBe('TENANT_LIMIT');
    expect(error.details).toMatchObject({ limit: 'maxRecords', max: 50, path: '/v3/search' });
  });
});

describe('records: every element of a listing is a JSON object', () => {
  it.each([
    ['null', null],
    ['a number', 5],
    ['a string', 'x'],
    ['an array', ['x']],
  ])('ends a collection whose page holds %s with TENANT_RESPONSE at its index, not a crash on reading it', async (_what, element) => {
    const t = await tenant(withToken((_request, response) => json(response, 200, [{ id: 'a' }, element])));
    const error = await failure(drain(client(t.url).list('/v3/transforms')));
    expect(error.code).toBe('TENANT_RESPONSE');
    expect(error.details).toMatchObject({ path: '/v3/transforms', pointer: '/1' });
    expect(error.message).toMatch(/^\/v3\/transforms answered .+ at \/1 where a record \(a JSON object\) was expected$/);
  });

  it.each([
    ['null', null],
    ['a number', 7],
    ['an array', []],
  ])('ends a search whose page holds %s with TENANT_RESPONSE at its index', async (_what, element) => {
    const t = await tenant(withToken((_request, response) => json(response, 200, [element, { id: 'b' }])));
    const error = await failure(drain(client(t.url).search('identities', '*', 'id', 2)));
    expect(error.code).toBe('TENANT_RESPONSE');
    expect(error.details).toMatchObject({ path: '/v3/search', pointer: '/0' });
  });
});

describe('credentials: never printed, never retried into a header', () => {
  it('refuses an access token holding CR/LF once, without quoting it or retrying the request', async () => {
    const secretToken = 'abc\r\nX-Injected: 1';
    const t = await tenant((request, response) => (request.path === '/oauth/token' ? tokenAnswer(response, secretToken) : json(response, 200, [])));
    const error = await failure(client(t.url, { retries: 5 }).request('GET', '/v3/sources'));
    expect(error.code).toBe('TENANT_RESPONSE');
    expect(error.message).not.toContain('abc');
    expect(error.message).not.toContain('X-Injected');
    expect(t.received.map((r) => r.path)).toEqual(['/oauth/token']);
  });

  it.each(['baseUrl', 'tokenUrl'] as const)('refuses %s with user:password@, naming the option but not the password', (option) => {
    let thrown: unknown;
    try {
      new TenantClient({ baseUrl: 'https://acme.api.example.com', clientId: 'c', clientSecret: 's', [option]: 'https://admin:hunter2@acme.api.example.com' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TransformsError);
    const error = thrown as TransformsError;
    expect(error.code).toBe('TENANT_OPTIONS');
    expect(error.details).toEqual({ option });
    expect(error.message).not.toContain('hunter2');
    expect(error.message).not.toContain('admin');
  });
});

describe('a request that cannot be built', () => {
  it('is refused at once, not retried, and its header value is not quoted', async () => {
    let calls = 0;
    const fetch = (async () => {
      calls++;
      throw new TypeError('Headers.append: "Bearer abc\r\ndef" is an invalid header value.');
    }) as typeof globalThis.fetch;
    const error = await failure(client('https://acme.api.example.com', { fetch, retries: 5 }).accessToken());
    expect(error.code).toBe('TENANT_NETWORK');
    expect(error.message).toContain('could not be sent');
    expect(error.message).not.toContain('abc');
    expect(calls).toBe(1);
  });
});

describe('limits are options', () => {
  it.each([
    ['maxBodyBytes', 10],
    ['maxRecords', 0],
  ] as const)('refuses %s = %j', (option, value) => {
    expect(() => new TenantClient({ baseUrl: 'https://a.example.com', clientId: 'c', clientSecret: 's', [option]: value })).toThrow(expect.objectContaining({ code: 'TENANT_OPTIONS' }));
  });
});
