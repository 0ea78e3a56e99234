// https://developer.sailpoint.com/docs/api/authentication; RFC 6749 §4.1, §6: the authorization
// code flow on the login listener and refresh-token rotation.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redirectSource } from '../../../src/api/plugins/login.js';
import { ALICE, BOB, SERVICE, WEB_APP, WEB_APP_NO_REFRESH, expectPlatformError, form, testServer, type TestServer } from '../helpers.js';

function authorizeQuery(client: { id: string; redirectUri: string }, extra: Record<string, string> = {}): Record<string, string> {
  return { client_id: client.id, response_type: 'code', redirect_uri: client.redirectUri, state: 'xyz', ...extra };
}

/** Log in through the form and return the code from the redirect. */
async function loginFor(s: TestServer, client: { id: string; redirectUri: string }, user: { login: string; password: string }, extra: Record<string, string> = {}): Promise<string> {
  const res = await s.login.inject({ method: 'POST', url: '/oauth/authorize', ...form({ ...authorizeQuery(client, extra), username: user.login, password: user.password }) });
  if (res.statusCode !== 303) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const location = new URL(res.headers.location as string);
  return location.searchParams.get('code')!;
}

async function exchange(s: TestServer, params: Record<string, string>) {
  return s.api.inject({ method: 'POST', url: `/oauth/token?${new URLSearchParams({ grant_type: 'authorization_code', ...params }).toString()}` });
}

describe('GET /oauth/authorize (login listener)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await testServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it('shows a login form carrying the request', async () => {
    const res = await s.login.inject({ url: `/oauth/authorize?${new URLSearchParams(authorizeQuery(WEB_APP)).toString()}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('<form method="post" action="/oauth/authorize">');
    expect(res.body).toContain(`value="${WEB_APP.redirectUri}"`);
    expect(res.body).toContain('<h1>Sign in to local</h1>');
    expect(res.body).toContain('to continue to Web app');
    expect(res.body).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  it("allows only its own stylesheet, and the form's way to the client's redirect URI", async () => {
    const res = await s.login.inject({ url: `/oauth/authorize?${new URLSearchParams(authorizeQuery(WEB_APP)).toString()}` });
    // Chromium checks form-action on the redirect after the submission too (CSP3 §6.4.2).
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'self'; form-action 'self' http://localhost:8080; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(res.body).toContain('<link rel="stylesheet" href="/assets/login.css">');
    expect(res.body).not.toMatch(/<script|<style|style=/);
    const css = await s.login.inject({ url: '/assets/login.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toContain('.error');
  });

  it.each([
    ['http://localhost:8080/callback', 'http://localhost:8080'],
    ['https://App.Example.com/cb?x=1#f', 'https://app.example.com'],
    ['https://app.example.com:443/cb', 'https://app.example.com'],
    ['http://127.0.0.1:9000/cb', 'http://127.0.0.1:9000'],
    ['http://[::1]:9000/cb', 'http:'],
    ['http://my_host/cb', 'http:'],
    ['com.example.app:/oauth2redirect', 'com.example.app:'],
    ['javascript:alert(1)', null],
    ['data:text/html,x', null],
    ['not a url', null],
  ])('derives the form-action source of redirect URI %s', (uri, source) => {
    expect(redirectSource(uri)).toBe(source);
  });

  it('§5.4 the authorize endpoint is not served on the API host (the hosts differ)', async () => {
    const res = await s.api.inject({ url: `/oauth/authorize?${new URLSearchParams(authorizeQuery(WEB_APP)).toString()}` });
    expect(res.statusCode).toBe(404);
  });

  it.each([
    ['a redirect_uri that is not registered', { redirect_uri: 'http://localhost:8080/callback/evil' }],
    ['a redirect_uri differing in case', { redirect_uri: 'http://LOCALHOST:8080/callback' }],
    ['a redirect_uri with a query added', { redirect_uri: 'http://localhost:8080/callback?x=1' }],
    ['no redirect_uri', { redirect_uri: undefined }],
    ['an unknown client', { client_id: '99999999-0000-4000-8000-000000000000' }],
    ['a legacy client id', { client_id: '0123456789abcdef0123456789abcdef' }],
  ])('refuses %s without redirecting: a page for a person, the error body for a script', async (_name, override) => {
    const q: Record<string, string> = authorizeQuery(WEB_APP);
    for (const [k, v] of Object.entries(override)) if (v === undefined) delete q[k];
    else q[k] = v;
    const url = `/oauth/authorize?${new URLSearchParams(q).toString()}`;
    const page = await s.login.inject({ url, headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(page.statusCode).toBe(400);
    expect(page.headers.location).toBeUndefined();
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("form-action 'self';");
    expect(page.body).toContain('<h1>Cannot sign in</h1>');
    expect(page.body).toMatch(/tracking id <code>[0-9a-f]{32}<\/code>/);

    const json = await s.login.inject({ url, headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(400);
    expect(json.headers.location).toBeUndefined();
    expect(json.json().error).toBe('invalid_request');
    expectPlatformError(json.json());
  });

  it('escapes the message of the error page', async () => {
    const res = await s.login.inject({ url: `/oauth/authorize?client_id=<b>x-y</b>&response_type=code` });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Unknown or disabled client.');
    expect(res.body).not.toContain('<b>');
  });

  it.each([
    ['response_type other than code', WEB_APP, { response_type: 'token' }, 'unsupported_response_type'],
    ['a scope the client may not have', WEB_APP, { scope: 'no-such-scope' }, 'invalid_scope'],
  ])('redirects %s back with the error and state', async (_name, client, extra, error) => {
    const res = await s.login.inject({ url: `/oauth/authorize?${new URLSearchParams(authorizeQuery(client, extra)).toString()}` });
    expect(res.statusCode).toBe(302);
    const location = new URL(res.headers.location as string);
    expect(location.origin + location.pathname).toBe(client.redirectUri);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('state')).toBe('xyz');
  });

  it('re-shows the form on a wrong password and issues no code', async () => {
    const res = await s.login.inject({ method: 'POST', url: '/oauth/authorize', ...form({ ...authorizeQuery(WEB_APP), username: ALICE.login, password: 'nope' }) });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<p class="error" id="login-error" role="alert" tabindex="-1" autofocus>Invalid username or password.</p>');
    expect(res.body).toContain('aria-invalid="true" aria-describedby="login-error"');
    expect(res.body).toContain(`value="${ALICE.login}"`);
    expect(res.headers.location).toBeUndefined();
  });

  it('escapes request values in the form', async () => {
    const res = await s.login.inject({ url: `/oauth/authorize?${new URLSearchParams(authorizeQuery(WEB_APP, { state: '"><script>x</script>' })).toString()}` });
    expect(res.body).not.toContain('<script>x</script>');
    expect(res.body).toContain('&quot;&gt;&lt;script&gt;');
  });
});

describe('authorization_code grant', () => {
  let s: TestServer;
  let now = Date.parse('2025-01-01T00:00:00Z');
  beforeAll(async () => {
    s = await testServer({ clock: () => now, authorizationCodeTtlSeconds: 30 });
  });
  afterAll(async () => {
    await s.close();
  });

  it('§5.4 the login host delivers a code to the redirect URI with the state, exchanged at the token endpoint for user tokens', async () => {
    const code = await loginFor(s, WEB_APP, BOB);
    expect(code).toMatch(/^[\w-]{43}$/);
    const res = await exchange(s, { client_id: WEB_APP.id, code, redirect_uri: WEB_APP.redirectUri });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ user_id: BOB.id, identity_id: BOB.identityId, accessType: 'OFFLINE' });
    expect(typeof body.refresh_token).toBe('string');
  });

  it('refuses a reused code (single use)', async () => {
    const code = await loginFor(s, WEB_APP, BOB);
    expect((await exchange(s, { client_id: WEB_APP.id, code, redirect_uri: WEB_APP.redirectUri })).statusCode).toBe(200);
    const again = await exchange(s, { client_id: WEB_APP.id, code, redirect_uri: WEB_APP.redirectUri });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('invalid_grant');
  });

  it('lets only one of two concurrent exchanges of a code succeed', async () => {
    const code = await loginFor(s, WEB_APP, BOB);
    const both = await Promise.all([1, 2].map(() => exchange(s, { client_id: WEB_APP.id, code, redirect_uri: WEB_APP.redirectUri })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('refuses a code presented with another redirect_uri, and the code is then spent', async () => {
    const code = await loginFor(s, WEB_APP, BOB);
    const wrong = await exchange(s, { client_id: WEB_APP.id, code, redirect_uri: 'http://localhost:8080/other' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('invalid_grant');
    const right = await exchange(s, { client_id: WEB_APP.id, code, redirect_uri: WEB_APP.redirectUri });
    expect(right.json().error).toBe('invalid_grant');
  });

  it('refuses a code of another client', async () => {
    const code = await loginFor(s, WEB_APP_NO_REFRESH, BOB);
    const res = await exchange(s, { client_id: WEB_APP.id, code, redirect_uri: WEB_APP_NO_REFRESH.redirectUri });
    expect(res.json().error).toBe('invalid_grant');
  });

  it('refuses an expired code (short-lived)', async () => {
    const code = await loginFor(s, WEB_APP, BOB);
    now += 31_000;
    const res = await exchange(s, { client_id: WEB_APP.id, code, redirect_uri: WEB_APP.redirectUri });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_grant');
  });

  it('checks a client_secret when one is sent', async () => {
    const code = await loginFor(s, WEB_APP, BOB);
    const res = await exchange(s, { client_id: WEB_APP.id, client_secret: 'wrong', code, redirect_uri: WEB_APP.redirectUri });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_client');
  });

  it.each([['code'], ['redirect_uri']])('requires %s', async (missing) => {
    const params: Record<string, string> = { client_id: WEB_APP.id, code: 'x', redirect_uri: WEB_APP.redirectUri };
    delete params[missing];
    const res = await exchange(s, params);
    expect(res.json().error).toBe('invalid_request');
  });

  it('issues no refresh token to a client without REFRESH_TOKEN', async () => {
    const code = await loginFor(s, WEB_APP_NO_REFRESH, ALICE);
    const res = await exchange(s, { client_id: WEB_APP_NO_REFRESH.id, code, redirect_uri: WEB_APP_NO_REFRESH.redirectUri });
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty('refresh_token');
    expect(res.json().accessType).toBe('ONLINE');
  });
});

describe('refresh_token grant', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await testServer();
  });
  afterAll(async () => {
    await s.close();
  });

  async function firstRefresh(): Promise<string> {
    const code = await loginFor(s, WEB_APP, ALICE);
    return (await exchange(s, { client_id: WEB_APP.id, code, redirect_uri: WEB_APP.redirectUri })).json().refresh_token as string;
  }

  const refresh = (token: string, secret = WEB_APP.secret, clientId = WEB_APP.id) =>
    s.api.inject({ method: 'POST', url: '/oauth/token', ...form({ grant_type: 'refresh_token', client_id: clientId, client_secret: secret, refresh_token: token }) });

  it('§4.1 refresh_token returns a new access token and a new refresh token', async () => {
    const r0 = await firstRefresh();
    const res = await refresh(r0);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refresh_token).not.toBe(r0);
    expect(res.json().user_id).toBe(ALICE.id);
  });

  it('rotates: the old refresh token stops working, and its reuse revokes the chain', async () => {
    const r0 = await firstRefresh();
    const r1 = (await refresh(r0)).json().refresh_token as string;
    const reused = await refresh(r0);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toBe('invalid_grant');
    // The replay revoked the newer token of the same chain too.
    expect((await refresh(r1)).json().error).toBe('invalid_grant');
  });

  it('requires the client secret', async () => {
    const r0 = await firstRefresh();
    const res = await s.api.inject({ method: 'POST', url: '/oauth/token', ...form({ grant_type: 'refresh_token', client_id: WEB_APP.id, refresh_token: r0 }) });
    expect(res.statusCode).toBe(401);
  });

  it('§5.5 refresh_token is refused to a client without both REFRESH_TOKEN and AUTHORIZATION_CODE', async () => {
    const r0 = await firstRefresh();
    const res = await refresh(r0, SERVICE.secret, SERVICE.id);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('unauthorized_client');
  });

  it('refuses an access token presented as a refresh token', async () => {
    const code = await loginFor(s, WEB_APP, ALICE);
    const access = (await exchange(s, { client_id: WEB_APP.id, code, redirect_uri: WEB_APP.redirectUri })).json().access_token as string;
    expect((await refresh(access)).json().error).toBe('invalid_grant');
  });

  it('refuses a tampered refresh token', async () => {
    const r0 = await firstRefresh();
    const [h, p, sig] = r0.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    payload.sub = BOB.id;
    const forged = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`;
    expect((await refresh(forged)).json().error).toBe('invalid_grant');
  });
});

describe('login listener limits and pages', () => {
  it('answers a brute force of the login form with 429', async () => {
    const s = await testServer({ loginRateLimit: { max: 3, timeWindowMs: 60_000 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await s.login.inject({ method: 'POST', url: '/oauth/authorize', ...form({ ...authorizeQuery(WEB_APP), username: ALICE.login, password: `guess-${i}` }) });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      // A person's browser gets a page for it too.
      const page = await s.login.inject({ method: 'POST', url: '/oauth/authorize', ...form({ ...authorizeQuery(WEB_APP), username: ALICE.login, password: 'x' }) });
      expect(page.statusCode).toBe(429);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('<h1>Too many attempts</h1>');
    } finally {
      await s.close();
    }
  });

  it('serves the logout page named by /oauth/info', async () => {
    const s = await testServer({ urls: { baseUrl: 'https://tenant.example.com', loginUrl: 'https://login.example.com' } });
    try {
      const info = (await s.api.inject({ url: '/oauth/info' })).json() as { logoutUrl: string; authorizeEndpoint: string; tokenEndpoint: string };
      expect(info).toMatchObject({ logoutUrl: 'https://login.example.com/logout', authorizeEndpoint: 'https://login.example.com/oauth/authorize', tokenEndpoint: 'https://tenant.example.com/oauth/token' });
      const res = await s.login.inject({ url: '/logout' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('signed out');
    } finally {
      await s.close();
    }
  });
});
