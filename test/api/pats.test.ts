// Personal access tokens (https://developer.sailpoint.com/docs/api/v3/create-personal-access-token;
// docs/api.md's statement table §2.1, §4.3, §5.3, §8: 10 PATs per user); the v3 shape of the SDK.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, ALICE_PAT, BOB, BOB_PAT, SERVICE, bearer, expectPlatformError, testServer, tokenFor, type TestServer } from './helpers.js';

describe('personal access tokens', () => {
  let s: TestServer;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    s = await testServer();
    alice = await tokenFor(s, ALICE_PAT);
    bob = await tokenFor(s, BOB_PAT);
  });
  afterAll(async () => {
    await s.close();
  });

  const create = (token: string, payload: object, url = '/personal-access-tokens/v1') => s.api.inject({ method: 'POST', url, headers: bearer(token), payload });

  it('creates a PAT and returns its secret once, in the v3 shape', async () => {
    const res = await create(bob, { name: 'ci job', scope: null });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['accessTokenValiditySeconds', 'created', 'id', 'name', 'owner', 'scope', 'secret']);
    expect(body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(body.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(body.owner).toEqual({ type: 'IDENTITY', id: BOB.identityId, name: 'Bob User' });
    expect(body.accessTokenValiditySeconds).toBe(749);

    const list = await s.api.inject({ url: '/v3/personal-access-tokens?owner-id=me', headers: bearer(bob) });
    const listed = (list.json() as Record<string, unknown>[]).find((p) => p.id === body.id)!;
    expect(listed).toMatchObject({ name: 'ci job', owner: body.owner, managed: false });
    expect(listed).not.toHaveProperty('secret');
    // Stored hashed, never plain.
    const row = s.store.db.prepare('SELECT secret_hash FROM oauth_clients WHERE id = ?').get(body.id) as { secret_hash: string };
    expect(row.secret_hash).toMatch(/^scrypt\$/);
    expect(row.secret_hash).not.toContain(body.secret);
  });

  it('is a CLIENT_CREDENTIALS client acting as its owner, with the owner rights', async () => {
    const { id, secret } = (await create(alice, { name: 'admin script' })).json() as { id: string; secret: string };
    const token = await s.api.inject({ method: 'POST', url: `/oauth/token?grant_type=client_credentials&client_id=${id}&client_secret=${secret}` });
    expect(token.json()).toMatchObject({ user_id: ALICE.id, identity_id: ALICE.identityId });
    expect((await s.api.inject({ url: '/oauth-clients/v1', headers: bearer(token.json().access_token) })).statusCode).toBe(200);
  });

  it('refuses the eleventh PAT of a user', async () => {
    const fresh = await testServer();
    try {
      const token = await tokenFor(fresh, BOB_PAT); // bob holds 1 from the fixtures
      for (let i = 2; i <= 10; i++) expect((await fresh.api.inject({ method: 'POST', url: '/v3/personal-access-tokens', headers: bearer(token), payload: { name: `t${i}` } })).statusCode).toBe(200);
      const eleventh = await fresh.api.inject({ method: 'POST', url: '/v3/personal-access-tokens', headers: bearer(token), payload: { name: 't11' } });
      expect(eleventh.statusCode).toBe(400);
      expect(expectPlatformError(eleventh.json()).text).toMatch(/at most 10/);
      expect(fresh.store.identity.countPatsOf(BOB.id)).toBe(10);
    } finally {
      await fresh.close();
    }
  });

  it('keeps the limit under concurrent creations', async () => {
    const fresh = await testServer();
    try {
      const token = await tokenFor(fresh, BOB_PAT);
      const all = await Promise.all(
        Array.from({ length: 12 }, (_, i) => fresh.api.inject({ method: 'POST', url: '/v3/personal-access-tokens', headers: bearer(token), payload: { name: `c${i}` } })),
      );
      expect(all.filter((r) => r.statusCode === 200)).toHaveLength(9);
      expect(all.filter((r) => r.statusCode === 400)).toHaveLength(3);
      expect(fresh.store.identity.countPatsOf(BOB.id)).toBe(10);
    } finally {
      await fresh.close();
    }
  });

  it('refuses a second PAT with the same name for the same user', async () => {
    expect((await create(bob, { name: 'dup' })).statusCode).toBe(200);
    const again = await create(bob, { name: 'dup' });
    expect(again.statusCode).toBe(400);
    expect(expectPlatformError(again.json()).text).toMatch(/already exists/);
  });

  it.each([
    ['no name', {}],
    ['an empty name', { name: '' }],
    ['an unknown property', { name: 'x', owner: 'someone' }],
    ['an unknown scope', { name: 'x', scope: ['idn:everything'] }],
  ])('answers a body with %s with 400', async (_name, payload) => {
    const res = await create(alice, payload);
    expect(res.statusCode).toBe(400);
    expectPlatformError(res.json());
  });

  it('refuses a PAT wider than the narrowed token creating it', async () => {
    const narrowed = await tokenFor(s, ALICE_PAT, { scope: 'idn:my-personal-access-tokens:manage' });
    expect((await create(narrowed, { name: 'wider' })).statusCode).toBe(403);
    expect((await create(narrowed, { name: 'same', scope: ['idn:my-personal-access-tokens:manage'] })).statusCode).toBe(200);
  });

  it('needs a user: a client without one gets 403', async () => {
    const res = await create(await tokenFor(s, SERVICE), { name: 'x' });
    expect(res.statusCode).toBe(403);
  });

  it.each([
    ['owner-id=me', '?owner-id=me', 'bob', 200],
    ['owner-id = own identity id', `?owner-id=${BOB.identityId}`, 'bob', 200],
    ['another owner without the all-tokens right', `?owner-id=${ALICE.identityId}`, 'bob', 403],
    ['no owner-id without the all-tokens right', '', 'bob', 403],
    ['no owner-id with the all-tokens right', '', 'alice', 200],
    ['filters lastUsed isnull (published for this list)', '?owner-id=me&filters=lastUsed%20isnull', 'alice', 200],
    ['filters on a field the list does not publish', '?owner-id=me&filters=name%20eq%20%22x%22', 'alice', 400],
  ])('lists with %s', async (_name, query, who, status) => {
    const res = await s.api.inject({ url: `/personal-access-tokens/v1${query}`, headers: bearer(who === 'bob' ? bob : alice) });
    expect(res.statusCode).toBe(status);
  });

  it('lists every PAT of the tenant for an admin and those of one owner by identity id', async () => {
    const all = (await s.api.inject({ url: '/v3/personal-access-tokens', headers: bearer(alice) })).json() as { owner: { id: string } }[];
    expect(new Set(all.map((p) => p.owner.id))).toEqual(new Set([ALICE.identityId, BOB.identityId]));
    const bobs = (await s.api.inject({ url: `/v3/personal-access-tokens?owner-id=${BOB.identityId}`, headers: bearer(alice) })).json() as { owner: { id: string } }[];
    expect(bobs.every((p) => p.owner.id === BOB.identityId)).toBe(true);
  });

  it('deletes a PAT (204), after which it no longer authenticates', async () => {
    const { id, secret } = (await create(bob, { name: 'to delete' })).json() as { id: string; secret: string };
    const del = await s.api.inject({ method: 'DELETE', url: `/personal-access-tokens/v1/${id}`, headers: bearer(bob) });
    expect(del.statusCode).toBe(204);
    const token = await s.api.inject({ method: 'POST', url: `/oauth/token?grant_type=client_credentials&client_id=${id}&client_secret=${secret}` });
    expect(token.statusCode).toBe(401);
    expect((await s.api.inject({ method: 'DELETE', url: `/personal-access-tokens/v1/${id}`, headers: bearer(bob) })).statusCode).toBe(404);
  });

  it("hides another user's PAT from a user who may not manage all tokens", async () => {
    const res = await s.api.inject({ method: 'DELETE', url: `/v3/personal-access-tokens/${ALICE_PAT.id}`, headers: bearer(bob) });
    expect(res.statusCode).toBe(404);
    expect(s.store.identity.getClient(ALICE_PAT.id)).not.toBeNull();
  });

  it('lets an admin delete the PAT of another user', async () => {
    const { id } = (await create(bob, { name: 'admin removes' })).json() as { id: string };
    expect((await s.api.inject({ method: 'DELETE', url: `/v3/personal-access-tokens/${id}`, headers: bearer(alice) })).statusCode).toBe(204);
  });
});
