// HTTP fuzzing (SECURITY.md "Testing"): random and mutated requests at every route of the three
// listeners — the route list is the server's own, so a new route is fuzzed without a change
// here — through fastify inject(). Every answer must be below 500; every 4xx must carry the
// platform error body with a detail code and no stack trace; a refused request must leave the
// store exactly as it was (a dump of every table, compared before and after).
//
// CI runs a fixed seed and a small count; FUZZ_RUNS=<n> (and FUZZ_SEED=<n>) run longer, e.g.
// nightly: FUZZ_RUNS=20000 npx vitest run test/api/fuzz-http.test.ts

import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../../src/api/index.js';
import { MAX_PREVIEW_RESPONSE } from '../../src/api/plugins/preview.js';
import { ALICE_PAT, BOB_PAT, NE_KEY, WEB_APP, expectPlatformError, testServer, tokenFor, type TestServer } from './helpers.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_401);

/** Every table of the store, row by row: equal digests mean an unchanged store. */
function storeDigest(s: TestServer): string {
  const hash = createHash('sha256');
  const tables = s.store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[];
  for (const { name } of tables) {
    hash.update(`\0${name}\0`);
    for (const row of s.store.db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).raw().all()) hash.update(JSON.stringify(row));
  }
  return hash.digest('hex');
}

// ---- arbitraries ---------------------------------------------------------------------------

// Not the admin PAT's own id: a fuzzed DELETE of it would make every later request a 401.
const KNOWN_IDS = ['src-ad', 'src-ne', 'acc-1', 'id-alice', 'id-bob', BOB_PAT.id, WEB_APP.id, '00000000-0000-4000-8000-000000000000'];
const nasty = fc.constantFrom('', ' ', '%', '%zz', '%E0%A4%A', '..', '../..', '%2e%2e%2f', '__proto__', 'constructor', '\u0000', '\u202E', '😀', "' OR 1=1 --", '"', '\\', 'a'.repeat(3000));
const word = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 10 }), nasty, fc.constantFrom(...KNOWN_IDS));
const segment = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...KNOWN_IDS) }, { weight: 1, arbitrary: word.map((w) => encodeURIComponent(w)) }, { weight: 1, arbitrary: nasty });

const filterish = fc.oneof(
  fc.constantFrom('name eq "x"', 'name sw "A"', 'id in ("a","b")', 'description sw "S"', 'healthy eq true', 'created gt 2020-01-01T00:00:00Z', 'features ca ("ENABLE")', 'name eq', '((((', 'x co "', 'name eq "a" and (id eq "b" or not type eq "c")'),
  word,
);
const queryValue = fc.oneof(fc.integer({ min: -5, max: 20_000 }).map(String), fc.constantFrom('true', 'false', 'me', '-name', 'name,-id', 'client_credentials'), filterish, word);
const QUERY_NAMES = ['limit', 'offset', 'count', 'filters', 'sorters', 'name', 'owner-id', 'grant_type', 'client_id', 'client_secret', 'scope', 'response_type', 'redirect_uri', 'state', 'code'];
// Values are sent escaped, or raw (so that `%`, `&`, `#` and spaces reach the server as typed).
const query = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_NAMES), word), queryValue, fc.boolean()), { maxLength: 5 })
  .map((pairs) => (pairs.length === 0 ? '' : '?' + pairs.map(([k, v, escape]) => `${encodeURIComponent(k)}=${escape ? encodeURIComponent(v) : v}`).join('&')));

/** Valid bodies of the routes that take one, as seeds for mutation. */
const SEEDS: unknown[] = [
  { name: 'fuzz transform', type: 'lower', attributes: { input: { type: 'static', attributes: { value: 'X' } } } },
  { name: 'fuzz ref', type: 'reference', attributes: { id: 'To lower' } },
  [{ op: 'replace', path: '/description', value: 'fuzzed' }],
  [{ op: 'add', path: '/features/-', value: 'X' }, { op: 'test', path: '/name', value: 'Active Directory' }],
  [{ op: 'copy', from: '/name', path: '/description' }],
  { indices: ['identities'], query: { query: 'name:alice*' }, sort: ['name'], searchAfter: ['a'] },
  { identityId: 'id-alice', identityAttributeConfig: { attributeTransforms: [{ identityAttributeName: 'x', transformDefinition: { type: 'upper', attributes: { input: { type: 'identityAttribute', attributes: { name: 'firstname' } } } } }] } },
  { name: 'fuzz pat', scope: ['idn:sources:read'], accessTokenValiditySeconds: 60 },
  { attributes: [{ name: 'a', type: 'STRING', isMulti: false }] },
];

/** Replace, drop or deepen one member of a JSON value. */
function mutate(value: unknown, path: readonly number[], replacement: unknown, mode: number): unknown {
  if (value === null || typeof value !== 'object' || path.length === 0) {
    return mode === 0 ? replacement : mode === 1 ? [value] : mode === 2 ? { value } : replacement;
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  if (entries.length === 0) return replacement;
  const at = path[0]! % entries.length;
  const out = entries.map(([k, v], i) => [k, i === at ? mutate(v, path.slice(1), replacement, mode) : v] as const);
  if (mode === 3 && path.length === 1) out.splice(at, 1);
  return Array.isArray(value) ? out.map(([, v]) => v) : Object.fromEntries(out);
}

const json = fc.jsonValue({ maxDepth: 4 });
const mutated = fc.tuple(fc.constantFrom(...SEEDS), fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), json, fc.nat({ max: 3 })).map(([seed, path, rep, mode]) => mutate(seed, path, rep, mode));
const deep = fc.integer({ min: 200, max: 3000 }).map((n) => '['.repeat(n) + '1' + ']'.repeat(n));
type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string };
const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: 'none' } as Body) },
  { weight: 4, arbitrary: mutated.map((value) => ({ kind: 'json', value }) as Body) },
  { weight: 2, arbitrary: json.map((value) => ({ kind: 'json', value }) as Body) },
  { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 200 }), deep, fc.constantFrom('{"__proto__": {"x": 1}}', '{"a": 1, "a": 2}', '[', '{"constructor": {"prototype": {}}}', 'grant_type=client_credentials&client_id=x&client_id=y')).map((text) => ({ kind: 'raw', text }) as Body) },
);
const contentType = fc.constantFrom(undefined, 'application/json', 'application/json-patch+json', 'application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', '*/*', '');

type Auth = 'admin' | 'none' | 'garbage' | 'basic' | 'apikey';
const auth = fc.oneof({ weight: 12, arbitrary: fc.constant<Auth>('admin') }, { weight: 1, arbitrary: fc.constantFrom<Auth>('none', 'garbage', 'basic', 'apikey') });
const extraHeaders = fc.dictionary(fc.constantFrom('scope', 'accept', 'x-forwarded-for', 'accept-version', 'content-encoding', 'transfer-encoding'), word.filter((w) => /^[\x20-\x7e]*$/.test(w)), { maxKeys: 2 });

interface FuzzRequest {
  route: number;
  params: string[];
  query: string;
  body: Body;
  contentType: string | undefined;
  auth: Auth;
  headers: Record<string, string>;
  method: string | null;
}

describe('HTTP fuzzing', () => {
  let s: TestServer;
  let routes: readonly RegisteredRoute[];
  let adminToken: string;
  beforeAll(async () => {
    s = await testServer({ tokenRateLimit: false, loginRateLimit: false, nonEmployeeRateLimit: false });
    routes = s.routes;
    adminToken = await tokenFor(s, ALICE_PAT);
  });
  afterAll(async () => {
    await s.close();
  });

  it(`answers ${RUNS} random and mutated requests without a 5xx, uncoded error or change after a refusal`, async () => {
    const request: fc.Arbitrary<FuzzRequest> = fc.record({
      route: fc.nat({ max: 1_000 }),
      params: fc.array(segment, { minLength: 3, maxLength: 3 }),
      query,
      body,
      contentType,
      auth,
      headers: extraHeaders,
      // Sometimes a method the route does not serve (405/404 paths).
      method: fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') }),
    });
    let tried = 0;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        tried++;
        const route = routes[r.route % routes.length]!;
        const app = route.listener === 'api' ? s.api : route.listener === 'login' ? s.login : s.nonEmployee;
        let p = 0;
        const url = route.url.replace(/:\w+/g, () => r.params[p++ % r.params.length]!) + r.query;
        const headers: Record<string, string> = { ...r.headers };
        if (r.contentType !== undefined) headers['content-type'] = r.contentType;
        if (r.auth === 'admin') headers.authorization = `Bearer ${adminToken}`;
        if (r.auth === 'garbage') headers.authorization = 'Bearer ' + 'x.y.z';
        if (r.auth === 'basic') headers.authorization = `Basic ${Buffer.from(`${WEB_APP.id}:%zz`).toString('base64')}`;
        if (r.auth === 'apikey') headers.authorization = `Bearer ${NE_KEY}`;
        const payload = r.body.kind === 'none' ? undefined : r.body.kind === 'raw' ? r.body.text : JSON.stringify(r.body.value);
        if (payload !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
        const before = storeDigest(s);
        const res = await app.inject({ method: (r.method ?? route.method) as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const what = `${r.method ?? route.method} ${url} (${route.listener}) → ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, what).toBeLessThan(500);
        expect(res.body, what).not.toMatch(/\n\s+at .+:\d+:\d+/);
        if (res.statusCode >= 400) {
          // The login listener shows a person an HTML error page (one that names the tracking id)
          // unless the request asked for JSON only; everything else answers the platform error body.
          const asksJsonOnly = /application\/json/.test(String(headers.accept ?? '')) && !/text\/html/.test(String(headers.accept ?? ''));
          if (route.listener === 'login' && !asksJsonOnly && String(res.headers['content-type']).startsWith('text/html')) {
            expect(res.body, what).toMatch(/^<!doctype html>/i);
          } else {
            expect(res.headers['content-type'], what).toMatch(/^application\/json/);
            expectPlatformError(res.json());
          }
          expect(storeDigest(s), `the store changed after ${what}`).toBe(before);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    console.log(`HTTP fuzzing: ${tried} requests (seed ${SEED}); statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
    expect(tried).toBe(RUNS);
  }, 120_000);

  it('answers random identity previews (many mappings, repeated names, long templates) with 200 or a coded 400, and a bounded answer', async () => {
    const template = fc.tuple(fc.constantFrom('$a ', 'x', '#set($x = 1)', '${a}', '$a.length() ', '#if($a)y#end'), fc.integer({ min: 1, max: 6_000 })).map(([unit, n]) => unit.repeat(n));
    const mapping = fc.record({
      identityAttributeName: fc.constantFrom('a', 'b', 'c', 'displayName', 'email'),
      transformDefinition: template.map((value) => ({ type: 'static', attributes: { value, a: 'x' } })),
    });
    const previewBody = fc.tuple(fc.array(mapping, { maxLength: 8 }), fc.nat({ max: 600 }), fc.boolean()).map(([mappings, copies, rename]) => ({
      identityId: 'id-alice',
      identityAttributeConfig: {
        attributeTransforms: Array.from({ length: Math.max(mappings.length, copies) }, (_, i) => {
          const m = mappings[i % Math.max(mappings.length, 1)] ?? { identityAttributeName: 'a', transformDefinition: { type: 'static', attributes: { value: 'v' } } };
          return rename ? { ...m, identityAttributeName: `${m.identityAttributeName}${i}` } : m;
        }),
      },
    }));
    await fc.assert(
      fc.asyncProperty(previewBody, async (body) => {
        const res = await s.api.inject({ method: 'POST', url: '/v3/identity-profiles/identity-preview', headers: { authorization: `Bearer ${adminToken}` }, payload: body });
        expect([200, 400, 404, 413]).toContain(res.statusCode);
        expect(res.body.length).toBeLessThan(MAX_PREVIEW_RESPONSE + 200_000);
        if (res.statusCode !== 200) expectPlatformError(res.json());
      }),
      { seed: SEED, numRuns: Math.min(RUNS, 25), endOnFailure: true },
    );
  }, 300_000);
});
