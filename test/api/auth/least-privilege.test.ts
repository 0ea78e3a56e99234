// Least privilege ("Scopes can narrow access",
// https://developer.sailpoint.com/docs/api/authentication; docs/decisions.md A19, A24–A26): every
// right × every route. The route list is the server's own (ApiServer.routes), and the table below
// is the specification it is held to: a new route fails this file until it says which right it
// needs.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_RIGHTS, RIGHTS, type Right } from '../../../src/api/auth/rights.js';
import { ALICE_NARROW_PAT, ALICE_PAT, BOB_PAT, NE_KEY, SERVICE, bearer, expectPlatformError, testServer, tokenFor, type TestServer } from '../helpers.js';

type Rule = { public: true } | { rights: readonly Right[]; user: boolean };

const R = RIGHTS;
const both = (service: string, path: string): [string, string] => [`/${service}/v1${path}`, `/v3/${service}${path}`];

/** What each route needs, written from the platform's documentation of each area. */
const SPEC: Record<string, Rule> = {};
function rule(method: string, urls: readonly string[], r: Rule, listener = 'api'): void {
  for (const url of urls) SPEC[`${listener} ${method} ${url}`] = r;
}
rule('GET', ['/openapi.json', '/oauth/info'], { public: true });
rule('POST', ['/oauth/token'], { public: true });
rule('GET', ['/oauth/authorize', '/logout'], { public: true }, 'login');
rule('POST', ['/oauth/authorize'], { public: true }, 'login');
rule('GET', ['/assets/login.css', '/favicon.ico'], { public: true }, 'login');
rule('GET', [...both('oauth-clients', ''), ...both('oauth-clients', '/:id')], { rights: [R.oauthClientsRead], user: true });
rule('POST', both('personal-access-tokens', ''), { rights: [R.myPatsManage], user: true });
rule('GET', both('personal-access-tokens', ''), { rights: [R.myPatsRead, R.allPatsRead], user: true });
rule('DELETE', both('personal-access-tokens', '/:id'), { rights: [R.myPatsManage, R.allPatsManage], user: true });
rule('GET', both('public-identities', ''), { rights: [R.identitiesRead], user: false });
rule('GET', [...both('accounts', ''), ...both('accounts', '/:id')], { rights: [R.accountsRead], user: true });
rule('GET', [...both('account-activities', ''), ...both('account-activities', '/:id')], { rights: [R.accountActivitiesRead], user: true });
rule('GET', [...both('sources', ''), ...both('sources', '/:id'), ...both('sources', '/:id/schemas'), ...both('sources', '/:id/schemas/:schemaId')], { rights: [R.sourcesRead], user: true });
for (const m of ['PUT', 'PATCH']) rule(m, [...both('sources', '/:id'), ...both('sources', '/:id/schemas/:schemaId')], { rights: [R.sourcesManage], user: true });
rule('GET', [...both('transforms', ''), ...both('transforms', '/:id')], { rights: [R.transformsRead], user: true });
rule('POST', both('transforms', ''), { rights: [R.transformsManage], user: true });
for (const m of ['PUT', 'DELETE']) rule(m, both('transforms', '/:id'), { rights: [R.transformsManage], user: true });
rule('GET', [...both('identity-profiles', ''), ...both('identity-profiles', '/:id')], { rights: [R.identityProfilesRead], user: true });
rule('POST', both('identity-profiles', '/identity-preview'), { rights: [R.identityProfilesRead, R.identityProfilesManage], user: true });
rule('POST', both('search', ''), { rights: [R.searchRead], user: false });
rule('GET', ['/api/v2025/non-employee-sources'], { rights: [R.nonEmployeeRead], user: false }, 'nonEmployee');

const MISSING = '00000000-0000-4000-8000-0000000000ff';

describe('least privilege: every right × every route', () => {
  let s: TestServer;
  /** Alice (ORG_ADMIN) narrowed to exactly one right, per right. */
  const narrowed = new Map<Right, string>();
  let serviceToken: string;
  let bobToken: string;
  let adminToken: string;
  beforeAll(async () => {
    s = await testServer({ tokenRateLimit: false });
    for (const right of ALL_RIGHTS) narrowed.set(right, await tokenFor(s, ALICE_PAT, { scope: right }));
    serviceToken = await tokenFor(s, SERVICE);
    bobToken = await tokenFor(s, BOB_PAT);
    adminToken = await tokenFor(s, ALICE_PAT);
  });
  afterAll(async () => {
    await s.close();
  });

  const key = (r: { listener: string; method: string; url: string }) => `${r.listener} ${r.method} ${r.url}`;

  /** Call a route with placeholder ids and an empty body: access is decided before the body is read. */
  function call(route: { listener: string; method: string; url: string }, headers: Record<string, string>) {
    const app = route.listener === 'api' ? s.api : route.listener === 'login' ? s.login : s.nonEmployee;
    // The PAT list without owner-id lists every user's tokens; `me` asks for the caller's own.
    const query = route.url.includes('personal-access-tokens') && !route.url.includes(':') && route.method === 'GET' ? '?owner-id=me' : '';
    const url = route.url.replace(/:\w+/g, MISSING) + query;
    const body = ['POST', 'PUT', 'PATCH'].includes(route.method) ? { payload: {} } : {};
    return app.inject({ method: route.method as 'GET', url, headers, ...body });
  }

  it('has a rule for every registered route and a route for every rule', () => {
    expect(s.routes.map(key).sort()).toEqual(Object.keys(SPEC).sort());
  });

  it.each(ALL_RIGHTS)('a token narrowed to %s reaches exactly the routes that right opens', async (right) => {
    const token = narrowed.get(right)!;
    const denied: string[] = [];
    const allowed: string[] = [];
    for (const route of s.routes) {
      const r = SPEC[key(route)]!;
      if ('public' in r) continue;
      const res = await call(route, bearer(token));
      const opens = r.rights.includes(right);
      if (opens) {
        if (res.statusCode === 401 || res.statusCode === 403) denied.push(`${key(route)} → ${res.statusCode} ${res.body}`);
        else allowed.push(key(route));
      } else if (res.statusCode !== 403) {
        denied.push(`${key(route)} should be 403, was ${res.statusCode}`);
      } else {
        expect(expectPlatformError(res.json()).detailCode).toBe('403 Forbidden');
      }
    }
    expect(denied).toEqual([]);
    // Every right opens at least one route (no right is dead weight in the table).
    expect(allowed.length).toBeGreaterThan(0);
  });

  it('refuses every non-public route without a token (401) and with a legacy API key on the API listener', async () => {
    for (const route of s.routes) {
      if ('public' in SPEC[key(route)]!) continue;
      expect((await call(route, {})).statusCode, key(route)).toBe(401);
      if (route.listener === 'api') expect((await call(route, bearer(NE_KEY))).statusCode, key(route)).toBe(401);
    }
  });

  it('answers the public routes without a token', async () => {
    for (const route of s.routes) {
      if (!('public' in SPEC[key(route)]!)) continue;
      expect([401, 403], key(route)).not.toContain((await call(route, {})).statusCode);
    }
  });

  it('gives a client without a user only the routes that need no user', async () => {
    for (const route of s.routes) {
      const r = SPEC[key(route)]!;
      if ('public' in r) continue;
      const res = await call(route, bearer(serviceToken));
      if (r.user) {
        expect(res.statusCode, key(route)).toBe(403);
        expect(expectPlatformError(res.json()).text).toMatch(/user context/);
      } else {
        expect([401, 403], key(route)).not.toContain(res.statusCode);
      }
    }
  });

  it("gives a user without capabilities only the rights every user has, even with sp:scopes:all", async () => {
    for (const route of s.routes) {
      const r = SPEC[key(route)]!;
      if ('public' in r) continue;
      const res = await call(route, bearer(bobToken));
      const everyUser = r.rights.some((x) => x === R.myPatsRead || x === R.myPatsManage);
      expect(res.statusCode === 403, `${key(route)} → ${res.statusCode}`).toBe(!everyUser);
    }
  });

  it('opens every route to an unnarrowed ORG_ADMIN token', async () => {
    for (const route of s.routes) {
      if ('public' in SPEC[key(route)]!) continue;
      expect([401, 403], key(route)).not.toContain((await call(route, bearer(adminToken))).statusCode);
    }
  });
});

describe('a PAT never holds a scope its creator lacks', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await testServer({ tokenRateLimit: false });
  });
  afterAll(async () => {
    await s.close();
  });

  const create = (token: string, payload: object) => s.api.inject({ method: 'POST', url: '/v3/personal-access-tokens', headers: bearer(token), payload });

  it.each([
    ['an empty scope list', { scope: [] }],
    ['scope null', { scope: null }],
    ['no scope', {}],
    ['the all-scopes value', { scope: ['sp:scopes:all'] }],
    ['a right the creating token lacks', { scope: [R.sourcesRead] }],
    ['its own scope and one more', { scope: [R.myPatsManage, R.oauthClientsRead] }],
  ])('refuses %s from a token narrowed to managing its PATs (403, nothing stored)', async (_name, extra) => {
    const narrow = await tokenFor(s, ALICE_PAT, { scope: R.myPatsManage });
    const before = s.store.identity.listClients('PAT').length;
    const res = await create(narrow, { name: `escalate ${JSON.stringify(extra)}`, ...extra });
    expect(res.statusCode, res.body).toBe(403);
    expect(expectPlatformError(res.json()).text).toMatch(/exceeds the scope of the calling token/);
    expect(s.store.identity.listClients('PAT').length).toBe(before);
  });

  it('stores a PAT within the creating scope, and its tokens stay within it', async () => {
    const narrow = await tokenFor(s, ALICE_PAT, { scope: `${R.myPatsManage} ${R.sourcesRead}` });
    const res = await create(narrow, { name: 'within', scope: [R.sourcesRead] });
    expect(res.statusCode, res.body).toBe(200);
    const { id, secret } = res.json() as { id: string; secret: string };
    expect(s.store.identity.getClient(id)!.scope).toEqual([R.sourcesRead]);
    const token = await tokenFor(s, { id, secret });
    expect((await s.api.inject({ url: '/v3/sources', headers: bearer(token) })).statusCode).toBe(200);
    expect((await s.api.inject({ url: '/v3/oauth-clients', headers: bearer(token) })).statusCode).toBe(403);
  });

  it('lets an unnarrowed token create a PAT with an empty scope list, meaning sp:scopes:all (the documented default)', async () => {
    const res = await create(await tokenFor(s, ALICE_PAT), { name: 'default scope', scope: [] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().scope).toBeNull();
  });

  it('keeps the fixture PAT narrowed to reading PATs from creating any PAT', async () => {
    const narrow = await tokenFor(s, ALICE_NARROW_PAT);
    expect((await create(narrow, { name: 'from narrow', scope: [] })).statusCode).toBe(403);
  });
});
