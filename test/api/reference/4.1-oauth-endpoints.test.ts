// https://developer.sailpoint.com/docs/api/authentication; RFC 6749 §5: the token endpoint and the
// tenant OAuth details.

import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, ALICE_PAT, DISABLED, LEGACY, NE_READER, SERVICE, WEB_APP, expectPlatformError, form, testServer, type TestServer } from '../helpers.js';

const TOKEN_FIELDS_WITH_USER = [
  'access_token', 'token_type', 'expires_in', 'scope', 'accessType', 'tenant_id', 'internal', 'pod',
  'strong_auth_supported', 'org', 'user_id', 'identity_id', 'strong_auth', 'enabled', 'jti',
];

function multipart(params: Record<string, string>): { payload: string; headers: Record<string, string> } {
  const boundary = '----identity-transforms-test';
  const parts = Object.entries(params).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return { payload: `${parts.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('POST /oauth/token', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await testServer({ tenantName: 'acme', pod: 'stg01' });
  });
  afterAll(async () => {
    await s.close();
  });

  const pat = { grant_type: 'client_credentials', client_id: ALICE_PAT.id, client_secret: ALICE_PAT.secret };

  it.each([
    ['x-www-form-urlencoded body', () => ({ url: '/oauth/token', ...form(pat) })],
    ['multipart form-data body (the official SDK)', () => ({ url: '/oauth/token', ...multipart(pat) })],
    ['query string', () => ({ url: `/oauth/token?${new URLSearchParams(pat).toString()}` })],
    ['grant type in upper case', () => ({ url: '/oauth/token', ...form({ ...pat, grant_type: 'CLIENT_CREDENTIALS' }) })],
    ['HTTP Basic client authentication', () => ({
      url: '/oauth/token',
      ...form({ grant_type: 'client_credentials' }),
      headers: { ...form({}).headers, authorization: `Basic ${Buffer.from(`${ALICE_PAT.id}:${ALICE_PAT.secret}`).toString('base64')}` },
    })],
  ])('§4.1 the token endpoint takes its parameters as %s', async (_name, request) => {
    const res = await s.api.inject({ method: 'POST', ...request() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json().token_type).toBe('bearer');
  });

  it('§2.4 the token response for a PAT has exactly the documented fields, acting as its owner', async () => {
    const res = await s.api.inject({ method: 'POST', url: '/oauth/token', ...form(pat) });
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([...TOKEN_FIELDS_WITH_USER].sort());
    expect(body).toMatchObject({
      token_type: 'bearer',
      expires_in: 749,
      scope: 'sp:scopes:all',
      tenant_id: s.tenantId,
      internal: false,
      pod: 'stg01',
      org: 'acme',
      strong_auth_supported: false,
      strong_auth: false,
      enabled: true,
      user_id: ALICE.id,
      identity_id: ALICE.identityId,
    });
    expect(body.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const header = decodeProtectedHeader(body.access_token);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    const claims = decodeJwt(body.access_token);
    expect(claims.exp! - claims.iat!).toBe(749);
    expect(claims.jti).toBe(body.jti);
    expect(claims).toMatchObject({ client_id: ALICE_PAT.id, user_id: ALICE.id, identity_id: ALICE.identityId });
  });

  it('§5.3 client credentials without a user have no user_id, identity_id (or refresh_token)', async () => {
    const res = await s.api.inject({ method: 'POST', url: '/oauth/token', ...form({ grant_type: 'client_credentials', client_id: SERVICE.id, client_secret: SERVICE.secret }) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).not.toHaveProperty('user_id');
    expect(body).not.toHaveProperty('identity_id');
    expect(body).not.toHaveProperty('refresh_token');
    expect(decodeJwt(body.access_token)).not.toHaveProperty('user_id');
  });

  it('§4.1 client_credentials takes the scope header and narrows the token to it', async () => {
    const res = await s.api.inject({ method: 'POST', url: '/oauth/token', ...form(pat), headers: { ...form(pat).headers, scope: 'idn:oauth-clients:read' } });
    expect(res.json().scope).toBe('idn:oauth-clients:read');
  });

  it.each([
    ['unknown client', { client_id: '11111111-2222-4333-8444-555555555555', client_secret: 'x' }, 'invalid_client', 401],
    ['wrong secret', { client_id: ALICE_PAT.id, client_secret: 'wrong' }, 'invalid_client', 401],
    ['missing secret', { client_id: ALICE_PAT.id }, 'invalid_client', 401],
    ['missing client_id', { client_secret: 'x' }, 'invalid_client', 401],
    ['legacy client id without dashes', { client_id: LEGACY.id, client_secret: LEGACY.secret }, 'invalid_client', 401],
    ['disabled client', { client_id: DISABLED.id, client_secret: DISABLED.secret }, 'invalid_client', 401],
    ['client without CLIENT_CREDENTIALS', { client_id: WEB_APP.id, client_secret: WEB_APP.secret }, 'unauthorized_client', 400],
    ['unknown scope', { client_id: ALICE_PAT.id, client_secret: ALICE_PAT.secret, scope: 'idn:everything' }, 'invalid_scope', 400],
    ['scope beyond the client', { client_id: NE_READER.id, client_secret: NE_READER.secret, scope: 'sp:scopes:all' }, 'invalid_scope', 400],
  ])('§4.1 client_credentials with %s → %s', async (_name, params, error, status) => {
    const res = await s.api.inject({ method: 'POST', url: '/oauth/token', ...form({ grant_type: 'client_credentials', ...params }) });
    expect(res.statusCode).toBe(status);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json().error).toBe(error);
    expectPlatformError(res.json());
    if (status === 401) expect(res.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it.each([
    ['a missing grant_type', {}, 'invalid_request'],
    ['an unknown grant_type', { grant_type: 'password' }, 'unsupported_grant_type'],
  ])('§5.8 the token endpoint answers %s with %s', async (_name, params, error) => {
    const res = await s.api.inject({ method: 'POST', url: '/oauth/token', ...form(params) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error, detailCode: '400.1 Bad Request Content' });
  });

  it('refuses a parameter given twice with different values (RFC 6749 §3.2)', async () => {
    const res = await s.api.inject({ method: 'POST', url: `/oauth/token?client_id=${ALICE_PAT.id}`, ...form({ ...pat, client_id: SERVICE.id }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });

  it('refuses a repeated parameter', async () => {
    const res = await s.api.inject({ method: 'POST', url: '/oauth/token', payload: `grant_type=client_credentials&client_id=a&client_id=b`, headers: form({}).headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });
});

describe('§5.6 expires_in', () => {
  it('§5.6 expires_in is the configured accessTokenTtlSeconds', async () => {
    const s = await testServer({ accessTokenTtlSeconds: 120 });
    try {
      const res = await s.api.inject({ method: 'POST', url: '/oauth/token', ...form({ grant_type: 'client_credentials', client_id: SERVICE.id, client_secret: SERVICE.secret }) });
      expect(res.json().expires_in).toBe(120);
    } finally {
      await s.close();
    }
  });
});

describe('rate limit of the token endpoint', () => {
  it('answers a brute force of client secrets with 429 and the platform error body', async () => {
    const s = await testServer({ tokenRateLimit: { max: 5, timeWindowMs: 60_000 } });
    try {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 8; i++) {
        last = await s.api.inject({ method: 'POST', url: '/oauth/token', ...form({ grant_type: 'client_credentials', client_id: ALICE_PAT.id, client_secret: `guess-${i}` }) });
        statuses.push(last.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      expect(last!.headers['retry-after']).toBeDefined();
      const e = expectPlatformError(last!.json());
      expect(e.detailCode).toBe('429 Too Many Requests');
      // Even the right secret is refused until the window passes.
      const right = await s.api.inject({ method: 'POST', url: '/oauth/token', ...form({ grant_type: 'client_credentials', client_id: ALICE_PAT.id, client_secret: ALICE_PAT.secret }) });
      expect(right.statusCode).toBe(429);
    } finally {
      await s.close();
    }
  });
});

describe('GET /oauth/info', () => {
  it('§2.3 GET /oauth/info describes the tenant, with the authorize endpoint on the login host', async () => {
    const s = await testServer({ tenantName: 'acme', pod: 'stg01' });
    try {
      const urls = await s.listen();
      const res = await s.api.inject({ url: '/oauth/info' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        tenantId: s.tenantId,
        tenantName: 'acme',
        authorizeEndpoint: `${urls.loginUrl}/oauth/authorize`,
        tokenEndpoint: `${urls.baseUrl}/oauth/token`,
        cloudDomainUrl: urls.baseUrl,
        logoutUrl: `${urls.loginUrl}/logout`,
        pod: 'stg01',
      });
      expect(urls.loginUrl).not.toBe(urls.baseUrl);
    } finally {
      await s.close();
    }
  });
});
