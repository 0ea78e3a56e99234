// The bundled fixtures/ tenant seeds a server: the identity-side files of docs/api.md link
// their users to identities of fixtures/identities.json.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, bearer, form, testServer, tokenFor, type TestServer } from '../helpers.js';

const BUNDLED = join(FIXTURES, '..', '..', '..', 'fixtures');

describe('bundled fixtures', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await testServer({ fixtures: BUNDLED });
  });
  afterAll(async () => {
    await s.close();
  });

  it('links every user to an identity of identities.json', () => {
    const identities = new Set((JSON.parse(readFileSync(join(BUNDLED, 'identities.json'), 'utf8')) as { id: string }[]).map((i) => i.id));
    for (const u of s.store.identity.listUsers()) expect(identities.has(u.identityId!), u.login).toBe(true);
  });

  it('serves the admin PAT, the user PAT and the legacy client as documented', async () => {
    const admin = await tokenFor(s, { id: 'e1d2c3b4-a596-4877-8a69-5b4c3d2e1f00', secret: 'fixture-only-admin-pat-secret' });
    expect((await s.api.inject({ url: '/v3/oauth-clients', headers: bearer(admin) })).statusCode).toBe(200);
    const user = await tokenFor(s, { id: 'e1d2c3b4-a596-4877-8a69-5b4c3d2e1f01', secret: 'fixture-only-user-pat-secret' });
    expect((await s.api.inject({ url: '/v3/oauth-clients', headers: bearer(user) })).statusCode).toBe(403);
    const legacy = await s.api.inject({ method: 'POST', url: '/oauth/token', ...form({ grant_type: 'client_credentials', client_id: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', client_secret: 'fixture-only-legacy-secret' }) });
    expect(legacy.statusCode).toBe(401);
  });

  it('seeds the tenant resources', () => {
    expect(s.seeded!.sources).toBeGreaterThanOrEqual(5);
    expect(s.seeded!.identities).toBeGreaterThanOrEqual(200);
    expect(s.seeded!.accounts).toBeGreaterThanOrEqual(500);
    expect(s.seeded!.transforms).toBeGreaterThan(0);
  });

  it('accepts the fixture legacy non-employee API key', async () => {
    const res = await s.nonEmployee.inject({ url: '/api/v2025/non-employee-sources', headers: bearer('fixture-only-nonemployee-api-key-0001') });
    expect(res.statusCode).toBe(200);
    expect(Array.isArray(res.json())).toBe(true);
  });
});
