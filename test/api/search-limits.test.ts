// The cost of one search is bounded (SECURITY.md "Limits"; docs/decisions.md B32–B34): terms
// and nesting per query (400 FILTER_LIMIT), a time budget for its SQL (400 SEARCH_TIME_BUDGET),
// and a body read strictly — no coerced types, no ignored members, no repeated index.

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SEARCH_SQL_FUNCTIONS } from '../../src/filter/search/index.js';
import { expectPlatformError } from './helpers.js';
import { ADMIN_PAT, resourceServer, tokenOf, type ResourceServer } from './resources-server.js';

const BULK = 5_000;

function bulk(server: ResourceServer): void {
  const insert = server.store.db.prepare('INSERT INTO identities (id, name, manager_id, doc) VALUES (?, ?, ?, ?)');
  server.store.transaction(() => {
    for (let n = 0; n < BULK; n++) {
      const id = `load-${String(n).padStart(6, '0')}`;
      const doc = { id, name: `load.${n}`, attributes: { displayName: `Load Person ${n}`, firstname: `Load${n}`, lastname: 'Person', email: `load.${n}@example.com` } };
      insert.run(id, doc.name, null, JSON.stringify(doc));
    }
  });
}

const terms = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

describe('search limits', () => {
  let server: ResourceServer;
  let auth: Record<string, string>;
  beforeAll(async () => {
    server = await resourceServer();
    auth = { authorization: `Bearer ${await tokenOf(server, ADMIN_PAT)}` };
    bulk(server);
  });
  afterAll(() => server.close());

  const search = (body: Record<string, unknown>, s = server, headers = auth) =>
    s.api.inject({ method: 'POST', url: '/v3/search', headers, payload: { indices: ['identities'], ...body } });

  it.each([500, 1_000, 1_400])('refuses %i bare terms with 400 FILTER_LIMIT before running anything', async (n) => {
    const calls = vi.spyOn(SEARCH_SQL_FUNCTIONS, 'search_match');
    const res = await search({ query: { query: terms(n) } });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    expect(expectPlatformError(res.json()).text).toMatch(/more than 128 terms/);
    // Refused while parsing: not one comparison ran (the unbounded query took seconds).
    expect(calls).not.toHaveBeenCalled();
    calls.mockRestore();
  });

  it('refuses nesting deeper than 32 levels with 400 FILTER_LIMIT', async () => {
    const res = await search({ query: { query: '('.repeat(40) + 'name:x' + ')'.repeat(40) } });
    expect(res.statusCode).toBe(400);
    expect(expectPlatformError(res.json()).text).toMatch(/nests deeper than 32/);
  });

  it('runs a query at the term limit', async () => {
    // The bundled tenant alone (209 identities) and a generous budget: this is about the parser.
    const roomy = await resourceServer({ requestLimits: { searchTimeMs: 60_000 } });
    try {
      const headers = { authorization: `Bearer ${await tokenOf(roomy, ADMIN_PAT)}` };
      const res = await search({ query: { query: `${terms(127)} name:fatima.schroder` } }, roomy, headers);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      expect((res.json() as { name: string }[]).map((h) => h.name)).toEqual(['fatima.schroder']);
    } finally {
      await roomy.close();
    }
  });

  it('stops a search past its time budget with 400 SEARCH_TIME_BUDGET, and the next search runs', async () => {
    const tight = await resourceServer({ requestLimits: { searchTimeMs: 1 } });
    try {
      bulk(tight);
      const headers = { authorization: `Bearer ${await tokenOf(tight, ADMIN_PAT)}` };
      const res = await search({ query: { query: terms(128) } }, tight, headers);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
      const e = expectPlatformError(res.json());
      expect(e.text).toMatch(/time budget of 1 ms/);
      expect((await search({ query: { query: '*' } }, tight, headers)).statusCode).toBe(200);
    } finally {
      await tight.close();
    }
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['searchAfter as a plain string', { sort: ['name'], searchAfter: 'load.1' }, /'searchAfter' must hold/],
    ['searchAfter as a number', { sort: ['name'], searchAfter: 5 }, /'searchAfter' must hold/],
    ['searchAfter as an object', { sort: ['name'], searchAfter: { name: 'x' } }, /'searchAfter' must hold/],
    ['indices as a plain string', { indices: 'identities' }, /'indices' must be a non-empty array/],
    ['a repeated index', { indices: ['identities', 'identities'] }, /listed twice/],
    ['sort as a plain string', { sort: 'name' }, /'sort' must be an array/],
    ['a sort entry that is a number', { sort: [5] }, /'sort' must be an array/],
    ['an unknown body member', { qurey: { query: 'x' } }, /unknown body member "qurey"/],
    ['two unknown body members', { limit: 5, offset: 2 }, /unknown body members "limit", "offset"/],
    ['an unknown query member', { query: { query: '*', fields: ['name'] } }, /'query.fields' is not supported/],
    ['includeNested false', { includeNested: false }, /includeNested/],
  ])('refuses %s with 400', async (_name, body, text) => {
    const res = await search(body);
    expect(res.statusCode, res.body).toBe(400);
    expect(expectPlatformError(res.json()).text).toMatch(text);
  });

  it('accepts the documented members it implements', async () => {
    const res = await search({ queryType: 'SAILPOINT', queryVersion: '5.2', includeNested: true, query: { query: 'name:load.3' }, sort: ['name'], searchAfter: ['load.2'] });
    expect(res.statusCode, res.body).toBe(200);
  });
});
