// Latency of a control request (GET /v3/sources?limit=1) sent while each attack of SECURITY.md's
// second round is in flight against the server: how long one hostile request holds the event
// loop. The attacks are answered with coded refusals (test/e2e/hostile-input.test.ts); this
// measures what the limits cost the other clients. Figures go to SECURITY.md with the machine's
// load, which they depend on.
// Run: npx tsx bench/hostile.ts [--rounds N]

import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { buildServer } from '../src/api/index.js';
import { benchArgs, count } from './args.js';

const { rounds: ROUNDS } = benchArgs({ rounds: count(7) });
const FIXTURES = join(import.meta.dirname, '..', 'test', 'api', 'fixtures');
const PAT = { id: '7a7a7a7a-0000-4000-8000-00000000000a', secret: 'alice-pat-secret' };

const server = await buildServer({ fixtures: FIXTURES, logger: false, tokenRateLimit: false });
const { baseUrl } = await server.listen();
const token = await fetch(`${baseUrl}/oauth/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ grant_type: 'client_credentials', client_id: PAT.id, client_secret: PAT.secret }),
});
const auth = { authorization: `Bearer ${((await token.json()) as { access_token: string }).access_token}` };
const [identity] = (await (await fetch(`${baseUrl}/v3/public-identities?limit=1`, { headers: auth })).json()) as { id: string }[];

const post = (path: string, body: string) => fetch(`${baseUrl}${path}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body });
const preview = (mappings: unknown[]) => post('/v3/identity-profiles/identity-preview', JSON.stringify({ identityId: identity!.id, identityAttributeConfig: { attributeTransforms: mappings } }));
const staticMapping = (name: string, value: string) => ({ identityAttributeName: name, transformDefinition: { type: 'static', attributes: { value, a: 'x' } } });

const ATTACKS: Array<[string, (() => Promise<Response>) | undefined]> = [
  ['none (baseline)', undefined],
  ['preview, 2,000 mappings of one name (~200 KB)', () => preview(Array(2_000).fill(staticMapping('same', '$a $a')))],
  ['preview, 500 distinct mappings of 2 KB templates (~1 MB)', () => preview(Array.from({ length: 500 }, (_, i) => staticMapping(`a${i}`, '$a '.repeat(650))))],
  ['preview, 500 mappings each looping for the evaluation budget (~40 KB)', () => preview(Array.from({ length: 500 }, (_, i) => ({ identityAttributeName: `loop${i}`, transformDefinition: { type: 'static', attributes: { value: '#foreach($i in [1..300])#foreach($j in [1..300])#end#end' } } })))],
  ['preview, one 50 KB template of references', () => preview([staticMapping('long', '$a '.repeat(17_000))])],
  ['POST /v3/transforms, 40 KB template', () => post('/v3/transforms', JSON.stringify({ name: `Long ${Math.random()}`, type: 'static', attributes: { value: '$a '.repeat(13_000), a: 'x' } }))],
  ['GET /v3/accounts, 500 or-ed comparisons', () => fetch(`${baseUrl}/v3/accounts?filters=${encodeURIComponent(Array.from({ length: 500 }, (_, i) => `id eq "n${i}"`).join(' or '))}`, { headers: auth })],
  ['body nested 10,000 levels', () => post('/v3/transforms', `{"name":"deep","type":"static","attributes":{"value":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`)],
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log(`control latency under attack, ${ROUNDS} rounds; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`);
console.log('| Attack | Attack status | Control median (ms) | Control max (ms) |');
console.log('| --- | --- | --- | --- |');
for (const [name, attack] of ATTACKS) {
  const latencies: number[] = [];
  let status = '—';
  for (let round = 0; round < ROUNDS; round++) {
    const pending = attack?.();
    const started = performance.now();
    const answer = await fetch(`${baseUrl}/v3/sources?limit=1`, { headers: auth });
    await answer.arrayBuffer();
    latencies.push(performance.now() - started);
    if (pending) {
      const response = await pending;
      const body = await response.text();
      status = `${response.status} ${/"code":"([A-Z_]+)"/.exec(body)?.[1] ?? ''}`.trim();
    }
  }
  console.log(`| ${name} | ${status} | ${median(latencies).toFixed(1)} | ${Math.max(...latencies).toFixed(1)} |`);
}
await server.close();
