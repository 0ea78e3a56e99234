// The official SDK (`sailpoint-api-client`, unmodified) obtains a token with its own
// login (multipart client_credentials to {baseurl}/oauth/token) and calls authenticated v3
// endpoints of a real listener.

import { Configuration, OAuthClientsApi, PersonalAccessTokensApi } from 'sailpoint-api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, ALICE_PAT, BOB_PAT, WEB_APP, testServer, type TestServer } from './helpers.js';

describe('official SDK against a real listener', () => {
  let s: TestServer;
  let baseUrl: string;
  beforeAll(async () => {
    s = await testServer();
    ({ baseUrl } = await s.listen());
  });
  afterAll(async () => {
    await s.close();
  });

  const configFor = (client: { id: string; secret: string }) =>
    new Configuration({ baseurl: baseUrl, tokenUrl: `${baseUrl}/oauth/token`, clientId: client.id, clientSecret: client.secret });

  it('logs in with a PAT and lists and gets OAuth clients', async () => {
    const api = new OAuthClientsApi(configFor(ALICE_PAT));
    const list = await api.listOauthClients();
    expect(list.status).toBe(200);
    expect(list.data.map((c) => c.id)).toContain(WEB_APP.id);
    const one = await api.getOauthClient({ id: WEB_APP.id });
    expect(one.data).toMatchObject({ id: WEB_APP.id, secret: null, grantTypes: ['AUTHORIZATION_CODE', 'REFRESH_TOKEN'] });
  });

  it('creates, lists and deletes a personal access token', async () => {
    const api = new PersonalAccessTokensApi(configFor(ALICE_PAT));
    const created = await api.createPersonalAccessToken({ createPersonalAccessTokenRequest: { name: 'from the SDK', scope: null } });
    expect(created.data).toMatchObject({ name: 'from the SDK', owner: { type: 'IDENTITY', id: ALICE.identityId } });
    expect(created.data.secret).toMatch(/^[0-9a-f]{64}$/);
    const listed = await api.listPersonalAccessTokens({ ownerId: 'me' });
    expect(listed.data.map((p) => p.id)).toContain(created.data.id);
    // The new PAT logs in through the SDK in turn.
    const again = await new PersonalAccessTokensApi(configFor({ id: created.data.id, secret: created.data.secret })).listPersonalAccessTokens({ ownerId: 'me' });
    expect(again.status).toBe(200);
    expect((await api.deletePersonalAccessToken({ id: created.data.id })).status).toBe(204);
  });

  it('surfaces a 403 with the platform error body to the SDK caller', async () => {
    const api = new OAuthClientsApi(configFor(BOB_PAT));
    const failure = await api.listOauthClients().then(
      () => null,
      (e: { response?: { status: number; data: Record<string, unknown> } }) => e.response,
    );
    expect(failure?.status).toBe(403);
    expect(failure?.data).toMatchObject({ detailCode: '403 Forbidden', messages: [{ locale: 'en-US', localeOrigin: 'DEFAULT' }] });
  });
});
