// POST /search/v1 and /v3/search over inject()
// (https://developer.sailpoint.com/docs/api/v3/search-post): indices, query.query, sort,
// searchAfter, limit/offset/count; paging past 10,000 records with searchAfter.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PAT, USER_PAT, resourceServer, tokenOf, type ResourceServer } from '../resources-server.js';
import { expectPlatformError } from '../helpers.js';

let server: ResourceServer;
let auth: Record<string, string>;
const BULK = 10_500;

beforeAll(async () => {
  server = await resourceServer();
  auth = { authorization: `Bearer ${await tokenOf(server, ADMIN_PAT)}` };
  const insert = server.store.db.prepare('INSERT INTO identities (id, name, manager_id, doc) VALUES (?, ?, ?, ?)');
  server.store.transaction(() => {
    for (let n = 0; n < BULK; n++) {
      const id = `bulk-${String(n).padStart(6, '0')}`;
      insert.run(id, `bulk.${n}`, null, JSON.stringify({ id, name: `bulk.${n}`, attributes: { department: 'Bulk Import', displayName: `Bulk ${n % 97}` } }));
    }
  });
});
afterAll(() => server.close());

const search = (body: Record<string, unknown>, query = '', url = '/v3/search') =>
  server.api.inject({ method: 'POST', url: `${url}${query}`, headers: auth, payload: { indices: ['identities'], ...body } });

describe('search', () => {
  it('§4.7 POST /search/v1 answers identity documents, also at /v3/search', async () => {
    const body = { query: { query: 'firstName:Fatima AND lastName:"Schröder"' } };
    const [a, b] = [await search(body), await search(body, '', '/search/v1')];
    expect(a.statusCode).toBe(200);
    expect(a.body).toBe(b.body);
    const [hit] = a.json();
    expect(hit).toMatchObject({ id: '2c91808409f45f693cd6e3f3a2393ef1', name: 'fatima.schroder', _type: 'identity', displayName: 'Yuki Schröder', email: 'fatima.schroder@example.com', isManager: true });
    expect(hit.accountCount).toBeGreaterThan(0);
  });

  it('§4.7 count=true totals the matches; limit and offset page them', async () => {
    const res = await search({ query: { query: 'attributes.department:"Bulk Import"' }, sort: ['id'] }, '?limit=3&offset=2&count=true');
    expect(res.headers['x-total-count']).toBe(String(BULK));
    expect(res.json().map((d: { id: string }) => d.id)).toEqual(['bulk-000002', 'bulk-000003', 'bulk-000004']);
  });

  it('§8 the default search page is 10000 records and offset paging stops at record 10000', async () => {
    expect((await search({ query: { query: '*' } })).json()).toHaveLength(10_000);
    expect((await search({ query: { query: '*' } }, '?offset=9999&limit=50')).json()).toHaveLength(1);
    const res = await search({ query: { query: '*' } }, '?offset=10000&limit=1');
    expect(res.statusCode).toBe(400);
    expectPlatformError(res.json());
  });

  it('§4.7 searchAfter with sort pages beyond 10,000 records, as the SDK paginator does', async () => {
    const seen: string[] = [];
    let searchAfter: unknown[] | undefined;
    for (let page = 0; page < 20; page++) {
      const res = await search({ query: { query: 'attributes.department:"bulk import"' }, sort: ['-name'], ...(searchAfter ? { searchAfter } : {}) }, '?limit=2500');
      const hits = res.json() as { id: string; name: string }[];
      if (hits.length === 0) break;
      seen.push(...hits.map((h) => h.id));
      // The SDK sends the last hit's value of the (single) sort field.
      searchAfter = [hits.at(-1)!.name];
    }
    expect(seen).toHaveLength(BULK);
    expect(new Set(seen).size).toBe(BULK);
  });

  it('ties in a non-unique sort field are broken by id, so searchAfter with both values skips nothing', async () => {
    const first = (await search({ query: { query: 'displayName:"Bulk 5"' }, sort: ['displayName', 'id'] }, '?limit=2')).json();
    const next = (await search({ query: { query: 'displayName:"Bulk 5"' }, sort: ['displayName', 'id'], searchAfter: [first[1].displayName, first[1].id] }, '?limit=2')).json();
    const all = (await search({ query: { query: 'displayName:"Bulk 5"' }, sort: ['displayName', 'id'] }, '?limit=4')).json();
    expect([...first, ...next].map((d: { id: string }) => d.id)).toEqual(all.map((d: { id: string }) => d.id));
  });

  it.each([
    ['an unknown index', { indices: ['roles'] }, ''],
    ['a query that does not parse', { query: { query: 'name:(' } }, ''],
    ['an unknown field', { query: { query: 'salary:1' } }, ''],
    ['searchAfter without sort', { searchAfter: ['x'] }, ''],
    ['a sort field that is not sortable', { sort: ['phone'] }, ''],
    ['limit above 10000', {}, '?limit=10001'],
    ['no indices', { indices: undefined }, ''],
  ])('%s → 400 with the platform body', async (_name, body, query) => {
    const res = await search(body, query);
    expect(res.statusCode).toBe(400);
    expectPlatformError(res.json());
  });

  it('a syntax error names its position', async () => {
    const res = await search({ query: { query: 'name:john AND' } });
    expect(expectPlatformError(res.json()).text).toContain('position 13');
  });

  it('needs the search right', async () => {
    const token = await tokenOf(server, USER_PAT);
    const res = await server.api.inject({ method: 'POST', url: '/v3/search', headers: { authorization: `Bearer ${token}` }, payload: { indices: ['identities'] } });
    expect(res.statusCode).toBe(403);
  });
});
