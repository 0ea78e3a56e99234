// A collection `filters` value is bounded in comparisons as a search query is in terms
// (SECURITY.md "Limits"): 500 `or`-ed comparisons made SQLite refuse the WHERE clause
// ("Expression tree is too large"), a 500; past 128 they are a 400 FILTER_LIMIT in the platform's
// body on every list endpoint, before any SQL runs.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPlatformError } from '../helpers.js';
import { ADMIN_PAT, resourceServer, tokenOf, type ResourceServer } from '../resources-server.js';

// Every list endpoint that takes `filters`, with a comparison it accepts.
const LISTS: Array<[string, (i: number) => string]> = [
  ['/v3/accounts', (i) => `id eq "n${i}"`],
  ['/v3/account-activities', (i) => `id eq "n${i}"`],
  ['/v3/public-identities', (i) => `id eq "n${i}"`],
  ['/v3/sources', (i) => `id eq "n${i}"`],
  ['/v3/transforms', (i) => `id eq "n${i}"`],
  ['/v3/identity-profiles', (i) => `id eq "n${i}"`],
  ['/v3/oauth-clients', (i) => `lastUsed le ${2000 + (i % 20)}-01-01T00:00:00Z`],
  ['/v3/personal-access-tokens', (i) => `lastUsed le ${2000 + (i % 20)}-01-01T00:00:00Z`],
];
const chain = (n: number, term: (i: number) => string) => encodeURIComponent(Array.from({ length: n }, (_, i) => term(i)).join(' or '));

describe('collection filters: comparisons are bounded', () => {
  let server: ResourceServer;
  let auth: Record<string, string>;
  beforeAll(async () => {
    server = await resourceServer();
    auth = { authorization: `Bearer ${await tokenOf(server, ADMIN_PAT)}` };
  });
  afterAll(() => server.close());
  const get = (url: string) => server.api.inject({ method: 'GET', url, headers: auth });

  it.each(LISTS)('GET %s: 128 or-ed comparisons run; 500 are 400 FILTER_LIMIT, not a 500', async (list, term) => {
    const within = await get(`${list}?filters=${chain(128, term)}`);
    expect(within.statusCode).toBe(200);
    expect(within.json()).toBeInstanceOf(Array);
    const over = await get(`${list}?filters=${chain(500, term)}`);
    expect(over.statusCode).toBe(400);
    expect(expectPlatformError(over.json()).code).toBe('FILTER_LIMIT');
  });
});
