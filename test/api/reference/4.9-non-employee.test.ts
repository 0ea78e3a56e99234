// https://developer.sailpoint.com/docs/api/v3/non-employee-lifecycle-management: the non-employee
// service on its own listener accepts a legacy non-employee API key or an access token of this
// server.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOB_PAT, NE_KEY, NE_READER, ALICE_PAT, bearer, expectPlatformError, testServer, tokenFor, type TestServer } from '../helpers.js';

const URL_ = '/api/v2025/non-employee-sources';

describe('non-employee service', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await testServer({ nonEmployeeApiKeys: ['flag-given-legacy-key-000000000000'] });
  });
  afterAll(async () => {
    await s.close();
  });

  it.each<[string, () => Promise<string>]>([
    ['the legacy API key from the fixtures', async () => NE_KEY],
    ['a legacy API key given as an option (the CLI flag)', async () => 'flag-given-legacy-key-000000000000'],
    ['an access token of an admin PAT', async () => tokenFor(s, ALICE_PAT)],
    ['an access token of a client scoped to the service', async () => tokenFor(s, NE_READER)],
  ])('§5.9 the non-employee service accepts %s', async (_name, credential) => {
    const res = await s.nonEmployee.inject({ url: URL_, headers: bearer(await credential()) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      {
        id: 'src-ne',
        sourceId: 'src-ne',
        name: 'Contractors',
        description: 'Contractor onboarding',
        approvers: [],
        accountManagers: [{ type: 'IDENTITY', id: 'id-alice', name: 'Alice Admin' }],
        created: '2024-02-01T00:00:00Z',
        modified: '2024-02-02T00:00:00Z',
      },
    ]);
  });

  it.each<[string, () => Promise<Record<string, string>>, number]>([
    ['no credential', async () => ({}), 401],
    ['an unknown API key', async () => bearer('ne-legacy-key-XXXXXXXXXXXXXXXX'), 401],
    ['a short unknown key', async () => bearer('abc'), 401],
    ['a token of a user without the right', async () => bearer(await tokenFor(s, BOB_PAT)), 403],
  ])('refuses %s', async (_name, headers, status) => {
    const res = await s.nonEmployee.inject({ url: URL_, headers: await headers() });
    expect(res.statusCode).toBe(status);
    expectPlatformError(res.json());
  });

  it('§5.9 the legacy non-employee key is not accepted on the API listener', async () => {
    const res = await s.api.inject({ url: '/v3/oauth-clients', headers: bearer(NE_KEY) });
    expect(res.statusCode).toBe(401);
  });

  it('§4.9 GET /api/v2025/non-employee-sources pages with limit, offset and count', async () => {
    const res = await s.nonEmployee.inject({ url: `${URL_}?limit=1&offset=1&count=true`, headers: bearer(NE_KEY) });
    expect(res.json()).toEqual([]);
    expect(res.headers['x-total-count']).toBe('1');
    expect((await s.nonEmployee.inject({ url: `${URL_}?limit=251`, headers: bearer(NE_KEY) })).statusCode).toBe(400);
  });

  it.each([
    ['limit=251', 'LIMIT_EXCEEDED'],
    ['limit=1e2', 'PARAM_INVALID'],
    ['limit=%205', 'PARAM_INVALID'],
    ['limit=abc', 'PARAM_INVALID'],
    ['offset=0x1', 'PARAM_INVALID'],
    ['count=1', 'PARAM_INVALID'],
    ['limit=1&limit=2', 'PARAM_REPEATED'],
  ])('§4.6 GET /api/v2025/non-employee-sources?%s → 400 %s, as on every list (decision B10)', async (query, code) => {
    const res = await s.nonEmployee.inject({ url: `${URL_}?${query}`, headers: bearer(NE_KEY) });
    expect(res.statusCode).toBe(400);
    expect(expectPlatformError(res.json()).code).toBe(code);
  });
});
