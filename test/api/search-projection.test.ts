// What a tenant snapshot reads from the server: search hits with the identity's timestamps and
// accounts, trimmed by queryResultFilter (https://developer.sailpoint.com/docs/api/v3/search-post),
// and accounts filtered and sorted on `modified`.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PAT, resourceServer, tokenOf, type ResourceServer } from './resources-server.js';
import { expectPlatformError } from './helpers.js';

let server: ResourceServer;
let auth: Record<string, string>;
const FATIMA = '2c91808409f45f693cd6e3f3a2393ef1';

beforeAll(async () => {
  server = await resourceServer();
  auth = { authorization: `Bearer ${await tokenOf(server, ADMIN_PAT)}` };
});
afterAll(() => server.close());

const search = (body: Record<string, unknown>) =>
  server.api.inject({ method: 'POST', url: '/v3/search', headers: auth, payload: { indices: ['identities'], query: { query: `id:"${FATIMA}"` }, ...body } });

describe('search hits', () => {
  it("carry the identity's accounts in aggregation order, and created/modified", async () => {
    const [hit] = (await search({})).json();
    const stored = server.store.db.prepare('SELECT id, name, native_identity AS nativeIdentity, source_id AS sourceId FROM accounts WHERE identity_id = ? ORDER BY rowid').all(FATIMA) as { id: string; name: string; nativeIdentity: string; sourceId: string }[];
    expect(hit.accounts.map((a: { id: string }) => a.id)).toEqual(stored.map((a) => a.id));
    expect(hit.accounts[0]).toEqual({ id: stored[0]!.id, name: stored[0]!.name, accountId: stored[0]!.nativeIdentity, source: { id: stored[0]!.sourceId, name: 'Workday' } });
    expect(hit.accountCount).toBe(stored.length);
    expect(hit).toMatchObject({ created: null, modified: null });
    server.store.resources.put('identities', { ...server.store.resources.get('identities', FATIMA)!, created: '2024-01-01T00:00:00Z', modified: '2025-02-03T04:05:06Z' });
    expect((await search({})).json()[0]).toMatchObject({ created: '2024-01-01T00:00:00Z', modified: '2025-02-03T04:05:06Z' });
  });

  it('keep only the included members, through arrays, and drop the excluded ones', async () => {
    const [slim] = (await search({ queryResultFilter: { includes: ['id', 'modified', 'accounts.id'] } })).json();
    expect(Object.keys(slim).sort()).toEqual(['accounts', 'id', 'modified']);
    expect(slim.accounts.every((a: object) => Object.keys(a).join() === 'id')).toBe(true);
    const [rest] = (await search({ queryResultFilter: { excludes: ['accounts', 'attributes'] } })).json();
    expect(rest).not.toHaveProperty('accounts');
    expect(rest).not.toHaveProperty('attributes');
    expect(rest).toMatchObject({ id: FATIMA, name: 'fatima.schroder' });
  });

  it('are the same members whether or not the costly ones are looked up, and the stored document read', async () => {
    const [full] = (await search({})).json();
    const { accounts, manager, accountCount, isManager, ...rest } = full;
    expect(rest.modified).toBe('2025-02-03T04:05:06Z');
    const lean = ['id', 'name', 'created', 'modified', '_index', 'type', '_type', 'accounts.id', 'isManager', 'accountCount'];
    for (const includes of [['id', 'modified', 'accountCount'], ['id', 'isManager'], ['manager.id', 'name'], ['accounts.id'], lean, Object.keys(rest)]) {
      const [hit] = (await search({ queryResultFilter: { includes } })).json();
      const expected = Object.fromEntries(Object.entries({ ...rest, accounts, manager, accountCount, isManager }).filter(([k]) => includes.some((p) => p.split('.')[0] === k)));
      // A path through null keeps nothing (as Elasticsearch's source filtering).
      if (includes.includes('manager.id')) {
        if (manager === null) delete expected.manager;
        else expected.manager = { id: manager.id };
      }
      if (includes.includes('accounts.id')) expected.accounts = accounts.map((a: { id: string }) => ({ id: a.id }));
      expect(hit).toEqual(expected);
    }
    expect(accountCount).toBeGreaterThan(0);
  });

  it('built from columns alone are the hits the whole document gives, for every identity and every such member', async () => {
    // A member excluded that no hit has makes the server build and project whole documents.
    const columns = ['modified', 'accountCount', 'id', 'isManager', 'created', '_index', 'name', 'type', '_type'];
    const someone = server.store.db.prepare('SELECT id FROM identities WHERE id <> ? ORDER BY id LIMIT 2').all(FATIMA) as { id: string }[];
    server.store.resources.put('identities', { ...server.store.resources.get('identities', someone[0]!.id)!, created: '2024-05-06T07:08:09Z' });
    server.store.resources.put('identities', { ...server.store.resources.get('identities', someone[1]!.id)!, created: 7, modified: ['not', 'text'] });
    const all = (queryResultFilter: object) =>
      server.api.inject({ method: 'POST', url: '/v3/search?limit=10000', headers: auth, payload: { indices: ['identities'], query: { query: '*' }, sort: ['id'], queryResultFilter } });
    for (const includes of [columns, ['id', 'modified', 'accountCount'], ['name', 'name'], []]) {
      const fromColumns = await all({ includes });
      const fromDocuments = await all({ includes, excludes: ['noSuchMember'] });
      expect(fromColumns.statusCode).toBe(200);
      expect(fromColumns.body).toBe(fromDocuments.body);
    }
    const hits = (await all({ includes: ['id', 'created', 'modified'] })).json() as { id: string; created: unknown; modified: unknown }[];
    expect(hits.find((h) => h.id === someone[0]!.id)).toEqual({ id: someone[0]!.id, created: '2024-05-06T07:08:09Z', modified: '2024-05-06T07:08:09Z' });
    expect(hits.find((h) => h.id === someone[1]!.id)).toEqual({ id: someone[1]!.id, created: null, modified: null });
  });

  it.each([
    [{ includes: ['id', ''] }],
    [{ includes: ['id', 'bad path'] }],
    [{ fields: ['id'] }],
    [['id']],
  ])('answer 400 SEARCH_RESULT_FILTER to queryResultFilter %j', async (filter) => {
    const res = await search({ queryResultFilter: filter });
    expect(res.statusCode).toBe(400);
    expectPlatformError(res.json());
  });
});

describe('accounts', () => {
  it("filter and sort on modified: the account's own, else its created", async () => {
    const [first] = server.store.db.prepare('SELECT id FROM accounts ORDER BY rowid LIMIT 1').all() as { id: string }[];
    const doc = server.store.resources.get('accounts', first!.id)!;
    server.store.resources.put('accounts', { ...doc, modified: '2031-01-01T00:00:00.000Z' });
    const list = (filters: string) =>
      server.api.inject({ method: 'GET', url: `/v3/accounts?filters=${encodeURIComponent(filters)}&sorters=-modified&limit=250`, headers: auth });
    const changed = await list('modified ge "2030-01-01T00:00:00Z"');
    expect(changed.statusCode).toBe(200);
    expect(changed.json().map((a: { id: string }) => a.id)).toEqual([first!.id]);
    expect(changed.json()[0].modified).toBe('2031-01-01T00:00:00.000Z');
    const old = (await list('modified lt "1990-01-01T00:00:00Z"')).json() as { created: string; modified: string }[];
    expect(old.length).toBeGreaterThan(0);
    for (const a of old) expect(a.modified).toBe(a.created);
  });
});
