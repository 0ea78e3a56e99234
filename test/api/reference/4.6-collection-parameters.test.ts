// §4.2, §4.6, §4.7 and §4.8 of the statement table in docs/api.md
// (https://developer.sailpoint.com/docs/api/standard-collection-parameters) through HTTP (inject), in memory and with a store
// file (--db): date-times sort in time order wherever they filter in time order, unescaped
// special characters are 400s, and the published per-endpoint filter tables of the OAuth-client
// and PAT lists (lastUsed: le, isnull) hold, with limit/count, and no parameter is ignored.

import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectPlatformError } from '../helpers.js';
import { USER_PAT, type ResourceServer } from '../resources-server.js';
import { describeEachStore, withResourceServer } from '../suites.js';

// The issue's three instants: by text they order 2023-12-31…, 2024-01-01T06…, 2024-01-01T10…+05:00;
// by time 10:00+05:00 (05:00Z) < 06:00Z < 23:30-08:00 (07:30Z).
const TIMES = { early: '2024-01-01T10:00:00+05:00', middle: '2024-01-01T06:00:00Z', late: '2023-12-31T23:30:00-08:00' };
const TIME_ORDER = ['early', 'middle', 'late'];
const q = encodeURIComponent;
describeEachStore((db) => {
  const session = withResourceServer({ db });
  let server: ResourceServer;
  let admin: Record<string, string>;
  let user: Record<string, string>;

  beforeAll(async () => {
    ({ server, auth: admin } = session);
    user = await session.bearer(USER_PAT);
    const s = server.store.db;
    const activity = s.prepare('INSERT INTO account_activities (id, name, type, created, modified, doc) VALUES (?, ?, ?, ?, ?, ?)');
    const source = s.prepare('INSERT INTO sources (id, name, type, created, modified, doc) VALUES (?, ?, ?, ?, ?, ?)');
    for (const [id, t] of Object.entries(TIMES)) {
      activity.run(`dt-${id}`, id, 'DTSORT', t, t, JSON.stringify({ id: `dt-${id}`, name: id, type: 'DTSORT', created: t, modified: t }));
      source.run(`dt-${id}`, `dtsort ${id}`, 'DTSORT', t, t, JSON.stringify({ id: `dt-${id}`, name: `dtsort ${id}`, type: 'DTSORT', connector: 'delimited-file', created: t, modified: t, owner: { type: 'IDENTITY', id: 'x', name: 'x' } }));
      server.store.resources.put('identities', { id: `dt-${id}`, name: `dt.${id}`, created: t, modified: t, attributes: { department: 'DtSort' } });
    }
    // Clients and PATs: lastUsed of the issue's instants on three of them, none on the rest.
    const touch = s.prepare('UPDATE oauth_clients SET last_used = ?, created = ? WHERE id = ?');
    touch.run(TIMES.late, TIMES.late, 'b7e5a1c0-3d2f-4e8a-9b6c-1f0e2d3c4b5a');
    touch.run(TIMES.early, TIMES.early, 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f');
  });

  const get = (url: string, headers = admin) => server.api.inject({ url, headers });
  const names = (body: string) => (JSON.parse(body) as { name: string }[]).map((r) => r.name);

  describe('§4.8 date-times are compared in time order — in sorters as in filters', () => {
    it('§4.8 GET /account-activities/v1?sorters=created orders date-times by time, not by text', async () => {
      const res = await get(`/account-activities/v1?filters=${q('type eq "DTSORT"')}&sorters=created`);
      expect(res.statusCode).toBe(200);
      expect(names(res.body)).toEqual(TIME_ORDER);
      expect(names((await get(`/account-activities/v1?filters=${q('type eq "DTSORT"')}&sorters=-modified`)).body)).toEqual([...TIME_ORDER].reverse());
    });

    it('§4.8 sorting and filtering agree: `created lt X` is the prefix of the time-sorted list before X', async () => {
      const sorted = names((await get(`/account-activities/v1?filters=${q('type eq "DTSORT"')}&sorters=created`)).body);
      const before = names((await get(`/account-activities/v1?filters=${q(`type eq "DTSORT" and created lt "${TIMES.late}"`)}&sorters=created`)).body);
      expect(before).toEqual(sorted.slice(0, 2));
    });

    it('§4.8 GET /sources/v1 with sorters=created and sorters=-modified orders date-times by time', async () => {
      const res = await get(`/sources/v1?filters=${q('type eq "DTSORT"')}&sorters=created`);
      expect(names(res.body)).toEqual(TIME_ORDER.map((n) => `dtsort ${n}`));
      expect(names((await get(`/v3/sources?filters=${q('type eq "DTSORT"')}&sorters=-modified`)).body)).toEqual(TIME_ORDER.map((n) => `dtsort ${n}`).reverse());
    });

    it('§4.7 search `sort` on a date-time orders by time, and searchAfter continues in time order', async () => {
      const search = (body: Record<string, unknown>) =>
        server.api.inject({ method: 'POST', url: '/v3/search', headers: admin, payload: { indices: ['identities'], query: { query: 'attributes.department:DtSort' }, ...body } });
      const all = await search({ sort: ['created'] });
      expect(all.statusCode).toBe(200);
      const hits = all.json() as { name: string; created: string }[];
      expect(hits.map((h) => h.name)).toEqual(TIME_ORDER.map((n) => `dt.${n}`));
      // The last hit's sort value, as the SDK's paginator sends it: the ISO string of the document.
      const next = await search({ sort: ['created'], searchAfter: [hits[0]!.created] });
      expect((next.json() as { name: string }[]).map((h) => h.name)).toEqual(['dt.middle', 'dt.late']);
      const back = await search({ sort: ['-created'], searchAfter: [TIMES.late] });
      expect((back.json() as { name: string }[]).map((h) => h.name)).toEqual(['dt.middle', 'dt.early']);
      const bad = await search({ sort: ['created'], searchAfter: ['not a date'] });
      expect(bad.statusCode).toBe(400);
      expect(expectPlatformError(bad.json()).text).toMatch(/ISO 8601/);
    });

    it('§4.2 GET /oauth-clients/v1 lists clients in creation-time order', async () => {
      const list = names((await get('/oauth-clients/v1')).body);
      expect(list.indexOf('Reporting job')).toBeLessThan(list.indexOf('Local web app'));
    });
  });

  describe('§4.8 characters to escape in a filter value', () => {
    it('§4.8 an unescaped # in a filter value is a 400 (write %23), sent raw on the request line', async () => {
      // A client that does not escape puts the # on the request line itself (inject() would
      // drop it as a URL fragment), so this one goes over a socket as such a client sends it.
      const base = new URL(await server.listen());
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(base.port), base.hostname);
        let text = '';
        socket.on('data', (d) => (text += String(d)));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
        socket.write(`GET /sources/v1?filters=name%20eq%20%22Ok#ta%22 HTTP/1.1\r\nHost: ${base.host}\r\nAuthorization: ${admin.authorization}\r\nConnection: close\r\n\r\n`);
      });
      expect(raw).toMatch(/^HTTP\/1\.1 400 /);
      const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as unknown;
      expect(expectPlatformError(body).text).toMatch(/unescaped '#'.*%23/);
    });

    it('§4.8 a # that a client library dropped as a fragment leaves a cut value: still a 400, never a match', async () => {
      const res = await get('/sources/v1?filters=name%20eq%20%22Ok#ta%22');
      expect(res.statusCode).toBe(400);
      expectPlatformError(res.json());
    });

    it('§4.8 an escaped %23 is the character # in the value', async () => {
      const res = await get(`/sources/v1?filters=${q('name eq "Ok#ta"')}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    });

    it('§4.8 an unescaped % in a filter value is a 400 (write %25)', async () => {
      const res = await get('/sources/v1?filters=name%20sw%20%22100%%22');
      expect(res.statusCode).toBe(400);
      expect(expectPlatformError(res.json()).text).toMatch(/unescaped '%'/);
    });
  });

  describe('§4.6 limit, offset and count are read as written (decision B10)', () => {
    // The route schema must not turn `1e2` into 100 or ` 5` into 5 before the coded checks run.
    it.each([
      ['limit=1e2', 'PARAM_INVALID'],
      ['limit=0x10', 'PARAM_INVALID'],
      ['limit=5.0', 'PARAM_INVALID'],
      ['limit=%205', 'PARAM_INVALID'],
      ['limit=abc', 'PARAM_INVALID'],
      ['limit=', 'PARAM_INVALID'],
      ['offset=1e1', 'PARAM_INVALID'],
      ['count=1', 'PARAM_INVALID'],
      ['limit=1&limit=2', 'PARAM_REPEATED'],
      ['count=true&count=true', 'PARAM_REPEATED'],
    ])('§4.6 GET /sources/v1?%s → 400 %s', async (query, code) => {
      const res = await get(`/sources/v1?${query}`);
      expect(res.statusCode).toBe(400);
      expect(expectPlatformError(res.json()).code).toBe(code);
    });

    it('§4.6 a decimal limit with leading zeros is that number', async () => {
      const res = await get('/sources/v1?limit=002');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toHaveLength(2);
    });
  });

  describe('§4.8 a filter value that does not percent-decode to UTF-8', () => {
    it.each(['name%20eq%20%22%C0%AF%22', 'name%20eq%20%22%ED%A0%80%22', 'name%20eq%20%22%E2%82%22'])('§4.8 filters=%s → 400 naming the escape', async (raw) => {
      const res = await get(`/sources/v1?filters=${raw}`);
      expect(res.statusCode).toBe(400);
      const err = expectPlatformError(res.json());
      expect(err.code).toBe('PARAM_INVALID');
      expect(err.text).toMatch(/^the filters value at position 15 has percent-escapes that are not UTF-8/);
    });
  });

  describe('§4.8 each endpoint filters on its published fields and operators — OAuth clients and PATs (lastUsed: le, isnull)', () => {
    it('§4.8 GET /oauth-clients/v1?filters=lastUsed le … returns the clients last used at or before the instant', async () => {
      const res = await get(`/oauth-clients/v1?filters=${q(`lastUsed le "${TIMES.middle}"`)}`);
      expect(res.statusCode).toBe(200);
      expect(names(res.body)).toEqual(['Reporting job']);
    });

    it('§4.8 GET /oauth-clients/v1?filters=lastUsed isnull returns the clients never used', async () => {
      const res = await get(`/v3/oauth-clients?filters=${q('lastUsed isnull')}`);
      expect(res.statusCode).toBe(200);
      expect(names(res.body)).not.toContain('Reporting job');
      expect(names(res.body)).not.toContain('Local web app');
      expect(names(res.body).length).toBeGreaterThan(0);
    });

    it('§4.8 an operator the endpoint does not list (lastUsed ge, pr lastUsed) or a field it does not list (name) is a 400', async () => {
      for (const f of [`lastUsed ge "${TIMES.middle}"`, 'pr lastUsed', 'name eq "Reporting job"']) {
        const res = await get(`/oauth-clients/v1?filters=${q(f)}`);
        expect(res.statusCode, f).toBe(400);
        expectPlatformError(res.json());
      }
    });

    it('§4.6 GET /oauth-clients/v1 honours limit, offset and count (x-total-count)', async () => {
      const all = names((await get('/oauth-clients/v1')).body);
      const res = await get('/oauth-clients/v1?limit=1&offset=1&count=true');
      expect(res.statusCode).toBe(200);
      expect(names(res.body)).toEqual([all[1]]);
      expect(res.headers['x-total-count']).toBe(String(all.length));
    });

    it('§4.8 GET /personal-access-tokens/v1?filters=lastUsed isnull / le filters the PATs', async () => {
      server.store.db.prepare('UPDATE oauth_clients SET last_used = ? WHERE id = ?').run(TIMES.early, USER_PAT.id);
      const used = await get(`/personal-access-tokens/v1?filters=${q(`lastUsed le "${TIMES.middle}"`)}`);
      expect(used.statusCode).toBe(200);
      expect((used.json() as { id: string }[]).map((p) => p.id)).toEqual([USER_PAT.id]);
      const mine = await get(`/personal-access-tokens/v1?owner-id=me&filters=${q('lastUsed isnull')}`, user);
      expect(mine.statusCode).toBe(200);
      expect(mine.json()).toEqual([]);
    });

    it('§4.6 GET /personal-access-tokens/v1 honours limit and count (x-total-count)', async () => {
      const res = await get('/personal-access-tokens/v1?limit=1&count=true');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toHaveLength(1);
      expect(Number(res.headers['x-total-count'])).toBeGreaterThanOrEqual(2);
    });
  });

  describe('§4.6 filters and sorters only on endpoints that list them: an unsupported parameter is a 400, never ignored', () => {
    it.each([
      ['/oauth-clients/v1?sorters=name', 'sorters'],
      ['/personal-access-tokens/v1?sorters=-created', 'sorters'],
      ['/sources/v1?filter=name%20eq%20%22x%22', 'filter'],
      ['/v3/public-identities?sort=name', 'sort'],
      ['/oauth-clients/v1/b7e5a1c0-3d2f-4e8a-9b6c-1f0e2d3c4b5a?limit=1', 'limit'],
    ])('§4.6 GET %s → 400 naming %s', async (url, parameter) => {
      const res = await get(url);
      expect(res.statusCode).toBe(400);
      const err = expectPlatformError(res.json());
      expect(err.text).toContain(`'${parameter}'`);
    });
  });
});
