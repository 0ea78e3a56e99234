// Benchmark of src/api: token issuance and verification rates in process (ES256 with
// jose, against an HS256 baseline of the same claims), the token endpoint over HTTP, and an
// authenticated GET against a bare Fastify route returning the same JSON (the ratio is the
// cost of the API layer: bearer verification, client/user lookup, rights, serialization).
// Run: npx tsx bench/api.ts [--duration S] [--no-write]. Writes docs/bench-api.md.

import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import formbody from '@fastify/formbody';
import { SignJWT, jwtVerify } from 'jose';
import { hashSecret, verifySecret } from '../src/api/auth/secrets.js';
import { buildServer } from '../src/api/index.js';
import { benchArgs, count, flag } from './args.js';

const { duration: DURATION, write: WRITE } = benchArgs({ duration: count(5), write: flag(true) });
const CONNECTIONS = 10;
const FIXTURES = join(import.meta.dirname, '..', 'test', 'api', 'fixtures');
const PAT = { id: '7a7a7a7a-0000-4000-8000-00000000000a', secret: 'alice-pat-secret' };

function opsPerSecond(n: number, fn: () => Promise<unknown>): Promise<number> {
  return (async () => {
    for (let i = 0; i < 200; i++) await fn(); // warm-up
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn();
    return n / ((performance.now() - t0) / 1000);
  })();
}

async function cannon(opts: autocannon.Options): Promise<{ rps: number; p99: number; errors: number }> {
  await autocannon({ ...opts, duration: 1, connections: CONNECTIONS }); // warm-up
  const r = await autocannon({ ...opts, duration: DURATION, connections: CONNECTIONS });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.non2xx + r.errors };
}

const LOAD = loadavg()[0]!;
const server = await buildServer({ fixtures: FIXTURES, logger: false, tokenRateLimit: false, secretHashCost: 14 });
const { baseUrl } = await server.listen();
const tokenBody = new URLSearchParams({ grant_type: 'client_credentials', client_id: PAT.id, client_secret: PAT.secret }).toString();
const tokenRes = await fetch(`${baseUrl}/oauth/token`, { method: 'POST', body: tokenBody, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
const tokenJson = (await tokenRes.json()) as Record<string, unknown> & { access_token: string };
const clientsRes = await fetch(`${baseUrl}/v3/oauth-clients`, { headers: { authorization: `Bearer ${tokenJson.access_token}` } });
const clientsJson = (await clientsRes.json()) as unknown;

// In process: sign and verify with the server's own token service; HS256 as the baseline.
const tokens = server.context.tokens;
const claims = { sub: 'u', token_use: 'access' as const, client_id: PAT.id, tenant_id: server.tenantId, scope: ['sp:scopes:all'] };
const hmacKey = new TextEncoder().encode('a-256-bit-secret-for-the-baseline!!');
const hs = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(hmacKey);
const es = (await tokens.sign(claims, 3600)).token;
const N = 5000;
const signRate = await opsPerSecond(N, () => tokens.sign(claims, 749));
// Cold: every token is new, so the signature is checked; warm: the same token again (cache hit).
const fresh = await Promise.all(Array.from({ length: N + 200 }, () => tokens.sign(claims, 3600).then((t) => t.token)));
let next = 0;
const verifyRate = await opsPerSecond(N, () => tokens.verify(fresh[next++]!, 'access'));
const verifyCachedRate = await opsPerSecond(N, () => tokens.verify(es, 'access'));
const stored = hashSecret('a-secret', 14);
const scryptRate = await opsPerSecond(20, () => verifySecret('a-secret', stored));
const hsSignRate = await opsPerSecond(N, () => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(hmacKey));
const hsVerifyRate = await opsPerSecond(N, () => jwtVerify(hs, hmacKey));

// The bare baseline: plain Fastify, same JSON, no authentication.
const bare = Fastify({ logger: false });
await bare.register(formbody);
bare.get('/bare', async () => clientsJson);
bare.post('/bare-token', async () => tokenJson);
await bare.listen({ host: '127.0.0.1', port: 0 });
const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const issue = await cannon({ url: `${baseUrl}/oauth/token`, method: 'POST', body: tokenBody, headers: form });
const issueBare = await cannon({ url: `${bareUrl}/bare-token`, method: 'POST', body: tokenBody, headers: form });
const authGet = await cannon({ url: `${baseUrl}/v3/oauth-clients`, headers: { authorization: `Bearer ${tokenJson.access_token}` } });
const bareGet = await cannon({ url: `${bareUrl}/bare` });

await bare.close();
await server.close();

const f = (n: number) => Math.round(n).toLocaleString('en-US');
const ratio = (a: number, b: number) => (a / b).toFixed(2);
const report = `# API benchmark (bench/api.ts)

Measured ${new Date().toISOString().slice(0, 10)} on ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), Node ${process.version};
autocannon with ${CONNECTIONS} connections for ${DURATION} s per row after a 1 s warm-up; server and
load generator in the same process; 1-minute load average ${LOAD.toFixed(2)} when the run started
(other work on the machine makes absolute figures vary; the ratios are measured in the same run).
Run \`npx tsx bench/api.ts\`.

## Tokens in process (${f(N)} operations each)

| Operation | ops/s | Baseline: HS256, same claims (ops/s) | Our time ÷ baseline time |
| --- | ---: | ---: | ---: |
| Issue (sign ES256) | ${f(signRate)} | ${f(hsSignRate)} | ${ratio(hsSignRate, signRate)}× |
| Verify a new token (ES256 signature, issuer, expiry, use) | ${f(verifyRate)} | ${f(hsVerifyRate)} | ${ratio(hsVerifyRate, verifyRate)}× |
| Verify a token seen before (verification cache: expiry and use only) | ${f(verifyCachedRate)} | ${f(hsVerifyRate)} | ${ratio(hsVerifyRate, verifyCachedRate)}× |
| scrypt check of a secret (N=2^14, r=8), for scale | ${f(scryptRate)} | | |

ES256 is asymmetric by requirement (a key pair kept in the store); HS256 shows what a
shared-secret scheme would cost.

## Over HTTP

| Route | req/s | p99 latency (ms) | non-2xx |
| --- | ---: | ---: | ---: |
| POST /oauth/token (client_credentials, PAT, form body) | ${f(issue.rps)} | ${issue.p99} | ${issue.errors} |
| bare Fastify POST returning the same token JSON | ${f(issueBare.rps)} | ${issueBare.p99} | ${issueBare.errors} |
| GET /v3/oauth-clients with a bearer token | ${f(authGet.rps)} | ${authGet.p99} | ${authGet.errors} |
| bare Fastify GET returning the same JSON | ${f(bareGet.rps)} | ${bareGet.p99} | ${bareGet.errors} |

- Token endpoint: the bare route serves **${ratio(issueBare.rps, issue.rps)}×** as many requests per
  second (ours signs a JWT, looks the client and owner up, checks the secret and records
  \`lastUsed\` in SQLite). The PAT secret goes through scrypt once and then through the in-memory
  verification cache (src/api/auth/secrets.ts); without it every request would be bounded by
  the scrypt rate above.
- Authenticated GET: the bare route serves **${ratio(bareGet.rps, authGet.rps)}×** as many requests
  per second (ours checks the bearer token, reads the store's auth epoch and looks the client and user up again
  only when it has moved, as decision A49 says, checks the
  route's right, and serializes through the response schema).
`;

process.stdout.write(report);
if (WRITE) writeFileSync(join(import.meta.dirname, '..', 'docs', 'bench-api.md'), report);
