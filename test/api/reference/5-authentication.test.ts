// Authorization (https://developer.sailpoint.com/docs/api/authentication): a bearer token on every
// API call; 401 for a missing, malformed, expired or tampered token; 403 without the right or
// without a user.

import { SignJWT, UnsecuredJWT, decodeJwt, generateKeyPair } from 'jose';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installAuthentication } from '../../../src/api/auth/authenticate.js';
import { ALICE_NARROW_PAT, ALICE_PAT, BOB_PAT, SERVICE, bearer, expectPlatformError, testServer, tokenFor, type TestServer } from '../helpers.js';

describe('bearer tokens', () => {
  let s: TestServer;
  let other: TestServer;
  let now = Date.parse('2025-03-01T12:00:00Z');
  let aliceToken: string;
  beforeAll(async () => {
    s = await testServer({ clock: () => now });
    other = await testServer();
    aliceToken = await tokenFor(s, ALICE_PAT);
  });
  afterAll(async () => {
    await s.close();
    await other.close();
  });

  const call = (headers: Record<string, string> = {}) => s.api.inject({ url: '/oauth-clients/v1', headers });

  it('§5.1 a valid bearer token lets the request through', async () => {
    expect((await call(bearer(aliceToken))).statusCode).toBe(200);
  });

  function tampered(token: string, change: (p: Record<string, unknown>) => void): string {
    const [h, p, sig] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    change(payload);
    return `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`;
  }

  it.each<[string, () => Promise<Record<string, string>>, RegExp]>([
    ['no Authorization header', async () => ({}), /missing/],
    ['a Basic credential', async () => ({ authorization: 'Basic YTpi' }), /not a Bearer/],
    ['a malformed token', async () => bearer('not-a-jwt'), /malformed/],
    ['a tampered payload (signature no longer matches)', async () => bearer(tampered(aliceToken, (p) => (p.scope = ['sp:scopes:all', 'x']))), /signature/],
    ['a tampered signature', async () => bearer(aliceToken.slice(0, -4) + (aliceToken.endsWith('AAAA') ? 'BBBB' : 'AAAA')), /signature|malformed/],
    ['alg: none', async () => {
      const claims = decodeJwt(aliceToken);
      return bearer(new UnsecuredJWT(claims).encode());
    }, /algorithm|malformed/],
    ['an HS256 token keyed with the public key (algorithm confusion)', async () => {
      const jwk = s.context.tokens.jwks().keys[0]!;
      const key = new TextEncoder().encode(JSON.stringify(jwk));
      const claims = decodeJwt(aliceToken);
      return bearer(await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key));
    }, /algorithm/],
    ['a token signed by another key with the same claims', async () => {
      const { privateKey } = await generateKeyPair('ES256');
      const claims = decodeJwt(aliceToken);
      return bearer(await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'JWT' }).sign(privateKey));
    }, /signature/],
    ['a token of another tenant (another store, another key)', async () => bearer(await tokenFor(other, ALICE_PAT)), /signature|claim/],
  ])('§7 %s → 401 with the error body', async (_name, headers, text) => {
    const res = await call(await headers());
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm=/);
    const e = expectPlatformError(res.json());
    expect(e.detailCode).toBe('401 Unauthorized');
    expect(e.text).toMatch(text);
  });

  it('§7 an expired token → 401', async () => {
    const token = await tokenFor(s, ALICE_PAT);
    now += 750_000;
    const res = await call(bearer(token));
    expect(res.statusCode).toBe(401);
    expect(expectPlatformError(res.json()).text).toMatch(/expired/);
  });

  it('still refuses a token that expired after it was verified once (verification cache)', async () => {
    const token = await tokenFor(s, ALICE_PAT);
    expect((await call(bearer(token))).statusCode).toBe(200);
    now += 750_000;
    const res = await call(bearer(token));
    expect(res.statusCode).toBe(401);
    expect(expectPlatformError(res.json()).text).toMatch(/expired/);
  });

  it('answers a refresh token used as an access token with 401', async () => {
    const refresh = await s.context.tokens.sign({ sub: 'x', token_use: 'refresh', client_id: ALICE_PAT.id, tenant_id: s.tenantId, scope: ['sp:scopes:all'] }, 60);
    expect((await call(bearer(refresh.token))).statusCode).toBe(401);
  });

  it('stops the tokens of a deleted PAT at once', async () => {
    const created = await s.api.inject({ method: 'POST', url: '/v3/personal-access-tokens', headers: bearer(await tokenFor(s, ALICE_PAT)), payload: { name: 'short-lived' } });
    const { id, secret } = created.json() as { id: string; secret: string };
    const token = await tokenFor(s, { id, secret });
    expect((await call(bearer(token))).statusCode).toBe(200);
    await s.api.inject({ method: 'DELETE', url: `/v3/personal-access-tokens/${id}`, headers: bearer(token) });
    expect((await call(bearer(token))).statusCode).toBe(401);
  });
});

describe('rights, scopes and user context', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await testServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it('§7 a PAT whose owner lacks the right → 403', async () => {
    const res = await s.api.inject({ url: '/oauth-clients/v1', headers: bearer(await tokenFor(s, BOB_PAT)) });
    expect(res.statusCode).toBe(403);
    expect(expectPlatformError(res.json()).detailCode).toBe('403 Forbidden');
    expect(res.json().causes[0].text).toContain('idn:oauth-clients:read');
  });

  it('§5.3 a client-credentials token without a user → 403 from an admin endpoint', async () => {
    const res = await s.api.inject({ url: '/oauth-clients/v1', headers: bearer(await tokenFor(s, SERVICE)) });
    expect(res.statusCode).toBe(403);
    expect(expectPlatformError(res.json()).text).toMatch(/user context/);
  });

  it('§5.7 the scopes of the token request narrow access', async () => {
    const narrowed = await tokenFor(s, ALICE_PAT, { scope: 'idn:my-personal-access-tokens:read' });
    expect((await s.api.inject({ url: '/oauth-clients/v1', headers: bearer(narrowed) })).statusCode).toBe(403);
    expect((await s.api.inject({ url: '/personal-access-tokens/v1?owner-id=me', headers: bearer(narrowed) })).statusCode).toBe(200);
  });

  it('§5.7 the scopes of the PAT narrow access', async () => {
    const token = await tokenFor(s, ALICE_NARROW_PAT);
    expect((await s.api.inject({ url: '/oauth-clients/v1', headers: bearer(token) })).statusCode).toBe(403);
    expect((await s.api.inject({ url: '/personal-access-tokens/v1?owner-id=me', headers: bearer(token) })).statusCode).toBe(200);
  });

  it('cannot widen a narrow PAT by asking for more scope', async () => {
    const res = await s.api.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: ALICE_NARROW_PAT.id, client_secret: ALICE_NARROW_PAT.secret, scope: 'sp:scopes:all' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.json().error).toBe('invalid_scope');
  });

  it('keeps public the token endpoint, the tenant details and the OpenAPI document', async () => {
    for (const url of ['/oauth/info', '/openapi.json']) expect((await s.api.inject({ url })).statusCode).toBe(200);
  });
});

describe('authorization by construction', () => {
  it('refuses to boot a route that declares neither config.auth nor config.public', async () => {
    const s = await testServer();
    const app = Fastify({ logger: false });
    try {
      installAuthentication(app, s.context, { apiKeys: false });
      expect(() => app.get('/open-by-mistake', async () => 'x')).toThrow(/declares neither config.auth nor config.public/);
      app.get('/declared', { config: { auth: {} } }, async () => 'x');
      await app.ready();
    } finally {
      await app.close();
      await s.close();
    }
  });
});
