// OAuth client lookup in both path layouts (https://developer.sailpoint.com/docs/api/v3/create-oauth-client).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE_PAT, SERVICE, WEB_APP, bearer, expectPlatformError, testServer, tokenFor, type TestServer } from '../helpers.js';

describe('OAuth clients', () => {
  let s: TestServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    s = await testServer();
    admin = bearer(await tokenFor(s, ALICE_PAT));
  });
  afterAll(async () => {
    await s.close();
  });

  it.each(['/oauth-clients/v1', '/oauth-clients/v1/', '/v3/oauth-clients'])('§4.2 GET %s lists the OAuth clients with secret null, and no PATs', async (url) => {
    const res = await s.api.inject({ url, headers: admin });
    expect(res.statusCode).toBe(200);
    const list = res.json() as { id: string; secret: unknown }[];
    expect(list.map((c) => c.id)).toContain(WEB_APP.id);
    expect(list.map((c) => c.id)).not.toContain(ALICE_PAT.id);
    expect(list.every((c) => c.secret === null)).toBe(true);
  });

  it.each([`/oauth-clients/v1/${WEB_APP.id}`, `/v3/oauth-clients/${WEB_APP.id}`])('§2.2 GET %s answers one OAuth client with its documented fields, secret null', async (url) => {
    const res = await s.api.inject({ url, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: WEB_APP.id,
      name: 'Web app',
      description: 'Authorization code with refresh',
      enabled: true,
      created: '2024-01-02T03:04:05.000Z',
      secret: null,
      grantTypes: ['AUTHORIZATION_CODE', 'REFRESH_TOKEN'],
      redirectUris: [WEB_APP.redirectUri],
    });
  });

  it('§2.2 lastUsed records when a client last got a token', async () => {
    await tokenFor(s, SERVICE);
    const res = await s.api.inject({ url: `/v3/oauth-clients/${SERVICE.id}`, headers: admin });
    expect(res.json().lastUsed).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it.each([['an unknown id', '00000000-0000-4000-8000-000000000000'], ['a PAT id', ALICE_PAT.id]])('§4.2 GET /oauth-clients/v1/{id} answers %s with 404', async (_name, id) => {
    const res = await s.api.inject({ url: `/oauth-clients/v1/${id}`, headers: admin });
    expect(res.statusCode).toBe(404);
    expect(expectPlatformError(res.json()).detailCode).toBe('404 Not found');
  });
});
