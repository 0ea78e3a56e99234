// The tenant client (src/providers/tenant/client.ts) against random tenant answers: statuses
// (redirects, 4xx, 429, 5xx), bodies (JSON of any shape, records whose sort value is anything,
// text, truncated JSON), headers (Content-Length, X-Total-Count, Retry-After) and network
// failures. Whatever the tenant sends, a listing or a search walk ends with its records or a
// coded TENANT_* error, after a bounded number of requests. The seed is fixed; FUZZ_RUNS (and
// FUZZ_SEED) make a run longer, e.g. `FUZZ_RUNS=5000 npx vitest run test/providers/tenant-client.fuzz.test.ts`.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTenantError, TenantClient } from '../../src/providers/tenant/client.js';
import { scriptedFetch, TOKEN, type Reply } from './scripted-fetch.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_128);
const PAGE = 3;
const MAX_RECORDS = 30;
const RETRIES = 1;

const sortValue = fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -5, max: 5 }), fc.constant(null), fc.constant(undefined), fc.double(), fc.boolean(), fc.dictionary(fc.string({ maxLength: 2 }), fc.string({ maxLength: 2 }), { maxKeys: 1 }), fc.array(fc.string({ maxLength: 2 }), { maxLength: 2 }));
const record = sortValue.map((id) => (id === undefined ? { name: 'x' } : { id, name: 'x' }));
const headers = fc.record(
  {
    'content-length': fc.oneof(fc.nat({ max: 1 << 20 }).map(String), fc.constant('99999999999'), fc.constant('x')),
    'x-total-count': fc.oneof(fc.nat({ max: 100 }).map(String), fc.constant('9007199254740993'), fc.constant('-1')),
    'retry-after': fc.oneof(fc.nat({ max: 3 }).map(String), fc.constant('Wed, 21 Oct 2015 07:28:00 GMT'), fc.constant('soon')),
    location: fc.constant('http://elsewhere.example.com/'),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.array(record, { maxLength: PAGE + 1 }),
  fc.constant(Array.from({ length: PAGE }, (_, i) => ({ id: `same-${i}` }))),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 20 }),
  fc.constant('[{"id":"a"'),
  fc.constant(undefined),
);
const reply: fc.Arbitrary<Reply> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ status: fc.constantFrom(200, 200, 200, 201, 204, 301, 302, 307, 308, 400, 401, 404, 429, 500, 503), body, headers }) },
  { weight: 1, arbitrary: fc.constantFrom<Reply>(Object.assign(new TypeError('fetch failed'), { cause: new Error('ECONNRESET') }), new TypeError('Headers.append: "a\r\nb" is an invalid header value.')) },
);
const token: fc.Arbitrary<Reply> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(TOKEN(0)) },
  { weight: 1, arbitrary: reply },
  { weight: 1, arbitrary: fc.constantFrom<Reply>({ status: 200, body: { access_token: 'a\r\nb', expires_in: 749 } }, { status: 200, body: { expires_in: 749 } }, { status: 200, body: 'token' }) },
);

async function walk(pages: AsyncIterable<unknown[]>): Promise<number> {
  let n = 0;
  for await (const page of pages) n += page.length;
  return n;
}

describe('TenantClient under random tenant answers', () => {
  it.each(['list', 'search'] as const)('%s: records or a coded TENANT_* error, after a bounded number of requests', async (kind) => {
    await fc.assert(
      fc.asyncProperty(token, fc.array(reply, { minLength: 1, maxLength: 12 }), async (tokenReply, replies) => {
        const { fetch, calls } = scriptedFetch((call, n) => (call.url.pathname === '/oauth/token' ? tokenReply : replies[n % replies.length]!));
        const client = new TenantClient({ baseUrl: 'https://acme.api.example.com', clientId: 'c', clientSecret: 's', fetch, retries: RETRIES, maxRecords: MAX_RECORDS, sleep: async () => undefined });
        try {
          const records = await walk(kind === 'list' ? client.list('/v3/accounts', {}, PAGE) : client.search('identities', '*', 'id', PAGE));
          expect(records).toBeLessThanOrEqual(MAX_RECORDS);
        } catch (error) {
          if (!isTenantError(error)) throw error;
        }
        // Pages up to maxRecords, each attempted at most 1 + retries times, each needing at most two tokens (a 401 renews once).
        expect(calls.length).toBeLessThanOrEqual((MAX_RECORDS / PAGE + 2) * (RETRIES + 1) * 3);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
