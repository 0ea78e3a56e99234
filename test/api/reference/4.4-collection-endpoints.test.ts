// The collection endpoints over inject()
// (https://developer.sailpoint.com/docs/api/standard-collection-parameters): both path layouts,
// limit/offset/count, allowlisted filters and sorters, and the platform error body.

import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PAT, TENANT, USER_PAT, resourceServer, tokenOf, type ResourceServer } from '../resources-server.js';
import { expectPlatformError } from '../helpers.js';

let server: ResourceServer;
let admin: Record<string, string>;
let user: Record<string, string>;

beforeAll(async () => {
  server = await resourceServer();
  admin = { authorization: `Bearer ${await tokenOf(server, ADMIN_PAT)}` };
  user = { authorization: `Bearer ${await tokenOf(server, USER_PAT)}` };
  const insert = server.store.db.prepare('INSERT INTO account_activities (id, name, type, created, modified, doc) VALUES (?, ?, ?, ?, ?, ?)');
  for (const [id, type, created] of [
    ['act-1', 'CREATE_ACCOUNT', '2025-01-03T10:00:00Z'],
    ['act-2', 'DELETE_ACCOUNT', '2025-03-01T10:00:00Z'],
    ['act-3', 'CREATE_ACCOUNT', '2025-02-01T10:00:00Z'],
  ] as const) insert.run(id, `${type} ${id}`, type, created, created, JSON.stringify({ id, name: `${type} ${id}`, type, created, modified: created }));
});
afterAll(() => server.close());

const get = (url: string, headers = admin) => server.api.inject({ method: 'GET', url, headers });
const ids = (body: string) => (JSON.parse(body) as { id: string }[]).map((r) => r.id);
const q = encodeURIComponent;

describe('both path layouts answer the same JSON array', () => {
  it.each([
    ['/public-identities/v1', '/v3/public-identities'],
    ['/account-activities/v1', '/v3/account-activities'],
    ['/sources/v1', '/v3/sources'],
    ['/accounts/v1', '/v3/accounts'],
    ['/transforms/v1', '/v3/transforms'],
    ['/identity-profiles/v1', '/v3/identity-profiles'],
  ])('§9 %s answers the same JSON array as %s', async (spec, v3) => {
    const [a, b] = [await get(spec), await get(v3)];
    expect(a.statusCode).toBe(200);
    expect(Array.isArray(a.json())).toBe(true);
    expect(a.body).toBe(b.body);
  });

  it('§2.8 an empty page is an empty array', async () => {
    const res = await get(`/v3/sources?filters=${q('name eq "no such source"')}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });
});

describe('limit, offset, count', () => {
  it('§4.6 limit defaults to 250 and count=true puts the size of the whole filtered collection in X-Total-Count', async () => {
    const res = await get('/v3/public-identities?count=true');
    expect(res.json()).toHaveLength(209);
    expect(res.headers['x-total-count']).toBe('209');
    const page = await get('/v3/public-identities?limit=5&offset=200&count=true');
    expect(page.json()).toHaveLength(5);
    expect(page.headers['x-total-count']).toBe('209');
  });

  it('§4.6 without count=true there is no X-Total-Count', async () => {
    expect((await get('/v3/public-identities?limit=1')).headers['x-total-count']).toBeUndefined();
  });

  it('§4.6 offset=1&limit=20 returns records 1 to 20: the page of offset=0 shifted by one', async () => {
    const first = ids((await get('/v3/public-identities?limit=20&offset=0')).body);
    const second = ids((await get('/v3/public-identities?limit=20&offset=1')).body);
    expect(second.slice(0, 19)).toEqual(first.slice(1));
  });

  it('§4.6 an offset past the last record answers an empty array (decision B10)', async () => {
    const res = await get('/v3/public-identities?offset=209&count=true');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers['x-total-count']).toBe('209');
  });

  it.each(['limit=251', 'limit=-1', 'limit=abc', 'offset=-5', 'count=maybe'])('§4.6 %s → 400 with the platform body', async (query) => {
    const res = await get(`/v3/public-identities?${query}`);
    expect(res.statusCode).toBe(400);
    expect(expectPlatformError(res.json()).detailCode).toBe('400.1 Bad Request Content');
  });
});

describe('filters', () => {
  it.each([
    ['/v3/public-identities', 'email eq "FATIMA.SCHRODER@example.com"', ['2c91808409f45f693cd6e3f3a2393ef1']],
    ['/v3/public-identities', 'alias eq "NOAH.ANDERSEN"', ['2c918084461c483f12bc83900e60d551']],
    ['/v3/public-identities', 'id in ("2c918084461c483f12bc83900e60d551", "2c91808409f45f693cd6e3f3a2393ef1")', ['2c91808409f45f693cd6e3f3a2393ef1', '2c918084461c483f12bc83900e60d551']],
    ['/v3/sources', 'name sw "Work"', ['2c9180857c1c5f4a017c2d8e0f4b1a01']],
    ['/v3/sources', 'features ca ("ENABLE", "PASSWORD", "PROVISIONING") and not name co "Okta"', ['2c9180835d2e5168015d32f890ca1581']],
    ['/v3/account-activities', 'type eq "CREATE_ACCOUNT"', ['act-1', 'act-3']],
    ['/v3/account-activities', 'created gt 2025-01-15T00:00:00Z', ['act-2', 'act-3']],
    ['/v3/transforms', 'name eq "Clean Department"', null],
  ])('§4.4 GET %s?filters=%s returns the matching records', async (url, filters, expected) => {
    const res = await get(`${url}?filters=${q(filters)}`);
    expect(res.statusCode).toBe(200);
    if (expected === null) expect(res.json()).toHaveLength(1);
    else expect(ids(res.body)).toEqual(expected);
  });

  it.each([
    ['unsupported field', '/v3/public-identities', 'department eq "Sales"'],
    ['unsupported operator', '/v3/public-identities', 'alias co "noah"'],
    ['upper-case operator', '/v3/public-identities', 'alias EQ "noah"'],
    ['a value that does not fit the field', '/v3/account-activities', 'created gt "soon"'],
    ['operator not listed for the field', '/v3/sources', 'type sw "Work"'],
  ])('§4.8 a filter with an %s is a 400', async (_name, url, filters) => {
    const res = await get(`${url}?filters=${q(filters)}`);
    expect(res.statusCode).toBe(400);
    expectPlatformError(res.json());
  });

  it.each([
    ['an unescaped #, which cuts the URL', '/v3/sources?filters=name%20eq%20%22a#b%22'],
    ['an unescaped &, which splits the parameter', '/v3/sources?filters=name%20eq%20%22a&b%22'],
    ['an unescaped %', '/v3/sources?filters=name%20eq%20%22100%%22'],
  ])('§4.8 a filter value with %s is a 400', async (_name, url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expectPlatformError(res.json());
  });

  it('§4.8 an escaped # (%23) is an ordinary character', async () => {
    expect((await get('/v3/sources?filters=name%20eq%20%22a%23b%22')).json()).toEqual([]);
  });
});

describe('sorters', () => {
  it('§4.4 GET /account-activities/v1 sorts by -created', async () => {
    expect(ids((await get('/v3/account-activities?sorters=-created')).body)).toEqual(['act-2', 'act-3', 'act-1']);
    expect(ids((await get('/account-activities/v1?sorters=type,-created')).body)).toEqual(['act-3', 'act-1', 'act-2']);
  });

  it('§4.6 sorters=name sorts ascending, -name descending (public identities by display name)', async () => {
    const names = (await get('/v3/public-identities?sorters=-name')).json().map((p: { name: string }) => p.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0)));
  });

  it('equal sort keys are ordered by id, so consecutive pages never overlap', async () => {
    const all = ids((await get('/v3/sources?sorters=healthy')).body);
    const paged = [];
    for (let offset = 0; offset < all.length; offset += 2) paged.push(...ids((await get(`/v3/sources?sorters=healthy&limit=2&offset=${offset}`)).body));
    expect(paged).toEqual(all);
    expect(new Set(paged).size).toBe(all.length);
  });

  it.each(['/v3/public-identities?sorters=email', '/v3/account-activities?sorters=-name', '/v3/sources?sorters=name,,type'])('§4.6 sorters on a field the endpoint does not list, or an empty key: %s → 400', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expectPlatformError(res.json());
  });
});

describe('record shapes', () => {
  it('a public identity carries alias, email, status and its manager reference', async () => {
    const [noah] = (await get(`/v3/public-identities?filters=${q('alias eq "noah.andersen"')}`)).json();
    expect(noah).toMatchObject({
      id: '2c918084461c483f12bc83900e60d551',
      name: 'Noah Andersen',
      alias: 'noah.andersen',
      email: 'noah.andersen@example.com',
      status: 'ACTIVE',
      manager: { type: 'IDENTITY', id: '2c91808409f45f693cd6e3f3a2393ef1', name: 'Yuki Schröder' },
      attributes: [],
    });
  });

  it('§2.5 a source has every documented field and its schema references', async () => {
    const source = (await get('/v3/sources/2c9180857c1c5f4a017c2d8e0f4b1a01')).json();
    for (const field of ['id', 'name', 'description', 'owner', 'cluster', 'features', 'type', 'connector', 'connectorAttributes', 'deleteThreshold', 'authoritative', 'healthy', 'status', 'created', 'modified', 'schemas']) {
      expect(source).toHaveProperty(field);
    }
    expect(source.schemas).toEqual([{ type: 'CONNECTOR_SCHEMA', id: expect.any(String), name: 'account' }]);
  });

  it('accounts name their source and filter by source and identity', async () => {
    const res = await get(`/v3/accounts?filters=${q('sourceId eq "2c9180857c1c5f4a017c2d8e0f4b1a01" and identityId eq "2c91808409f45f693cd6e3f3a2393ef1"')}&count=true`);
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['x-total-count'])).toBeGreaterThan(0);
    expect(res.json()[0]).toMatchObject({ sourceName: 'Workday', identityId: '2c91808409f45f693cd6e3f3a2393ef1', uncorrelated: false });
  });

  it('identity profiles list and get', async () => {
    const [profile] = (await get('/v3/identity-profiles')).json();
    expect(profile.identityAttributeConfig.attributeTransforms.length).toBeGreaterThan(0);
    expect((await get(`/identity-profiles/v1/${profile.id}`)).json().name).toBe(profile.name);
    expect((await get('/identity-profiles/v1/nope')).statusCode).toBe(404);
  });
});

describe('authorization', () => {
  it('§5.1 a collection without a token → 401', async () => {
    expect((await server.api.inject({ method: 'GET', url: '/v3/sources' })).statusCode).toBe(401);
  });

  it.each(['/v3/sources', '/v3/transforms', '/v3/accounts', '/v3/account-activities', '/v3/public-identities'])('%s without the right → 403', async (url) => {
    const res = await get(url, user);
    expect(res.statusCode).toBe(403);
    expectPlatformError(res.json());
  });
});

describe('single records', () => {
  it.each([
    ['/v3/account-activities/act-2', 'act-2'],
    ['/account-activities/v1/act-1', 'act-1'],
  ])('%s', async (url, id) => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, executionStatus: 'COMPLETED' });
  });

  it('an account by id, and 404s with the platform body', async () => {
    const [first] = (await get('/v3/accounts?limit=1')).json();
    expect((await get(`/accounts/v1/${first.id}`)).json()).toEqual(first);
    for (const url of ['/v3/accounts/nope', '/v3/account-activities/nope', '/v3/sources/nope']) {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expectPlatformError(res.json());
    }
  });
});

describe("an account's modified", () => {
  // The view shows the document's own `modified`, else its `created` as stored: an empty or
  // non-text `created` too, where the filterable column holds ''.
  // Such documents break the served schema, so these requests bypass the contract check (an
  // inject() with a callback is not checked, test/api/contract.ts).
  const stored = async () => (await get('/v3/accounts?limit=1')).json()[0] as Record<string, unknown>;
  const unchecked = (url: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      void server.api.inject({ method: 'GET', url, headers: admin }, (error, res) => (error ? reject(error) : resolve(res!.json())));
    });
  it.each([
    ['text', '2024-01-02T03:04:05Z', '2024-01-02T03:04:05Z'],
    ['empty', '', ''],
    ['not text', 42, 42],
    ['absent', undefined, null],
  ])('without its own, is its created (%s)', async (_, created, modified) => {
    const id = `acct-modified-${String(created)}`;
    server.store.resources.put('accounts', { ...(await stored()), id, name: id, created, modified: undefined });
    try {
      expect((await unchecked(`/v3/accounts/${id}`)).modified).toEqual(modified);
      const [listed] = (await unchecked(`/v3/accounts?filters=${q(`id eq "${id}"`)}`)) as unknown as Record<string, unknown>[];
      expect(listed!.modified).toEqual(modified);
    } finally {
      server.store.resources.delete('accounts', id);
    }
  });

  it('with its own, is that', async () => {
    server.store.resources.put('accounts', { ...(await stored()), id: 'acct-own', name: 'acct-own', created: '', modified: '2025-05-05T00:00:00Z' });
    try {
      expect((await unchecked('/v3/accounts/acct-own')).modified).toBe('2025-05-05T00:00:00Z');
    } finally {
      server.store.resources.delete('accounts', 'acct-own');
    }
  });
});

describe('the public identity columns follow the identity documents', () => {
  it('on insert, update and delete, whoever writes', async () => {
    const byEmail = async (email: string) => ids((await get(`/v3/public-identities?filters=${q(`email eq "${email}"`)}`)).body);
    server.store.resources.put('identities', { id: 'col-1', name: 'col.one', attributes: { email: 'col.one@example.com', displayName: 'Col One' } });
    expect(await byEmail('col.one@example.com')).toEqual(['col-1']);
    server.store.resources.put('identities', { id: 'col-1', name: 'col.one', attributes: { email: 'renamed@example.com' } });
    expect(await byEmail('col.one@example.com')).toEqual([]);
    expect(await byEmail('renamed@example.com')).toEqual(['col-1']);
    expect((await get(`/v3/public-identities?filters=${q('id eq "col-1"')}`)).json()[0].name).toBe('col.one');
    server.store.resources.delete('identities', 'col-1');
    expect(await byEmail('renamed@example.com')).toEqual([]);
  });
});

describe('store preparation (account activities fixture, discovered schemas)', () => {
  it('seeds account-activities.json once and keeps the store as it was on reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-part2-'));
    try {
      for (const f of ['users.json', 'personal-access-tokens.json', 'sources.json', 'accounts.json']) copyFileSync(join(TENANT, f), join(dir, f));
      writeFileSync(join(dir, 'account-activities.json'), JSON.stringify([{ id: 'fx-1', name: 'Fixture activity', type: 'UNLOCK', created: '2024-05-05T00:00:00Z' }]));
      const db = join(dir, 'store.sqlite');
      const first = await resourceServer({ fixtures: dir, db });
      const token = { authorization: `Bearer ${await tokenOf(first, ADMIN_PAT)}` };
      expect(ids((await first.api.inject({ url: '/v3/account-activities', headers: token })).body)).toEqual(['fx-1']);
      const schemas = first.store.db.prepare('SELECT count(*) AS n FROM source_schemas').get() as { n: number };
      expect(schemas.n).toBe(6);
      first.store.db.prepare("DELETE FROM account_activities WHERE id = 'fx-1'").run();
      // A store of the previous schema version (public-identity columns without folded keys, in
      // the table identity_columns) is migrated forward on open, rows written before included.
      first.store.db.exec(`
        DROP VIEW public_identity_rows;
        DROP TRIGGER public_identity_columns_insert; DROP TRIGGER public_identity_columns_update; DROP TRIGGER public_identity_columns_delete;
        DROP TABLE public_identity_columns;
        CREATE TABLE identity_columns (id TEXT PRIMARY KEY, alias TEXT, email TEXT, firstname TEXT, lastname TEXT, display TEXT);
        CREATE VIEW public_identity_rows AS SELECT i.id AS id, i.name AS name, i.doc AS doc FROM identities i JOIN identity_columns c ON c.id = i.id;`);
      first.store.db.pragma('user_version = 2');
      first.store.resources.put('identities', { id: 'late-1', name: 'late.one', attributes: { email: 'LATE@example.com' } });
      await first.close();
      const again = await resourceServer({ fixtures: dir, db });
      const token2 = { authorization: `Bearer ${await tokenOf(again, ADMIN_PAT)}` };
      expect((await again.api.inject({ url: '/v3/account-activities', headers: token2 })).json()).toEqual([]);
      expect((again.store.db.prepare('SELECT count(*) AS n FROM source_schemas').get() as { n: number }).n).toBe(6);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves a store written by the previous version (test/api/data/store-v2.sqlite) after migrating it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'api-store-v2-'));
    try {
      const db = join(dir, 'store.sqlite');
      copyFileSync(new URL('../data/store-v2.sqlite', import.meta.url), db);
      const old = await resourceServer({ fixtures: undefined, db });
      const token = { authorization: `Bearer ${await tokenOf(old, ADMIN_PAT)}` };
      expect(ids((await old.api.inject({ url: '/v3/account-activities', headers: token })).body)).toEqual(['fx-1']);
      expect(ids((await old.api.inject({ url: `/v3/public-identities?filters=${q('email eq "noah.andersen@example.com"')}`, headers: token })).body)).toEqual(['2c918084461c483f12bc83900e60d551']);
      expect(ids((await old.api.inject({ url: '/v3/sources/2c9180857c1c5f4a017c2d8e0f4b1a01/schemas', headers: token })).body)).toHaveLength(1);
      // The triggers of the migrated store keep the public-identity columns in step.
      old.store.resources.put('identities', { id: 'late-1', name: 'late.one', attributes: { email: 'late@example.com' } });
      const late = await old.api.inject({ url: `/v3/public-identities?filters=${q('email eq "late@example.com"')}`, headers: token });
      expect(ids(late.body)).toEqual(['late-1']);
      await old.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('OpenAPI document', () => {
  it('lists the resource routes of both layouts with unique operation ids', async () => {
    const doc = (await server.api.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { operationId: string }>> };
    for (const [path, method] of [
      ['/v3/public-identities', 'get'],
      ['/sources/v1/{id}', 'patch'],
      ['/v3/sources/{id}/schemas/{schemaId}', 'put'],
      ['/transforms/v1', 'post'],
      ['/v3/search', 'post'],
      ['/identity-profiles/v1/identity-preview', 'post'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const ids = Object.values(doc.paths).flatMap((ops) => Object.entries(ops).filter(([k]) => k !== 'servers').map(([, o]) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
