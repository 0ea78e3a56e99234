// End to end: the tenant-backed providers against our own `serve` (a real listener over
// the bundled fixtures) give exactly the results of the in-memory providers on the same
// fixtures — every fixture transform for a sample of identities, the whole profile through
// refresh(), and the CLI's `evaluate --tenant` and `refresh --tenant`; plus the token renewed
// against the real token endpoint and a real 429 retried.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { isTransformsError } from '../../src/errors/index.js';
import { createMemoryProviders } from '../../src/providers/memory.js';
import { loadFixtures, type Fixtures } from '../../src/providers/fixtures.js';
import { createTenantProviders, type TenantProviderOptions } from '../../src/providers/tenant/index.js';
import { refresh, type IdentityRefreshResult } from '../../src/refresh/index.js';
import { contractProxy } from '../api/contract-http.js';
import { built, CLI } from '../e2e/install.js';
import { ADMIN_PAT, resourceServer, TENANT, type ResourceServer } from '../api/resources-server.js';

const NOW = new Date('2024-01-15T12:00:00Z');
let server: ResourceServer;
let baseUrl: string;
let fixtures: Fixtures;
const credentials = () => ({ baseUrl, clientId: ADMIN_PAT.id, clientSecret: ADMIN_PAT.secret });
const tmp = mkdtempSync(join(tmpdir(), 'idt-tenant-'));

beforeAll(async () => {
  // The command line's child processes run this checkout's build (test/e2e/install.ts).
  await built();
  server = await resourceServer();
  baseUrl = await server.listen();
  fixtures = loadFixtures(TENANT);
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A seeded generator both engines share, reset before each evaluation, so random* and uuid agree. */
function seeded() {
  let state = 1;
  return {
    reset: () => void (state = 2026),
    random: () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32;
    },
  };
}

async function outcome(engine: Engine, transform: unknown, identity: { id: string }) {
  try {
    return { value: await engine.evaluate(transform, { identity: identity.id }) };
  } catch (error) {
    if (!isTransformsError(error)) throw error;
    return { code: error.code, path: error.path };
  }
}

async function readResults(job: AsyncIterable<IdentityRefreshResult>) {
  const out = new Map<string, IdentityRefreshResult>();
  for await (const r of job) out.set(r.identityId, r);
  return out;
}

describe('tenant-backed providers against serve', () => {
  it('evaluate every fixture transform exactly as the in-memory providers do', async () => {
    const rng = seeded();
    const memory = createEngine({ providers: createMemoryProviders(fixtures), clock: () => NOW, random: rng.random });
    const tenant = createTenantProviders(credentials());
    const remote = createEngine({ providers: tenant, clock: () => NOW, random: rng.random });
    const sample = fixtures.identities.filter((_, i) => i % 7 === 0);
    expect(fixtures.transforms.length).toBeGreaterThanOrEqual(60);
    let compared = 0;
    let values = 0;
    for (const transform of fixtures.transforms) {
      for (const identity of sample) {
        rng.reset();
        const expected = await outcome(memory, transform, identity);
        rng.reset();
        const actual = await outcome(remote, transform, identity);
        expect(actual, `${String(transform.name)} for ${identity.name}`).toEqual(expected);
        compared++;
        if ('value' in expected && expected.value !== null) values++;
      }
    }
    expect(compared).toBe(fixtures.transforms.length * sample.length);
    // Most evaluations give a value: the comparison is not between two lists of errors.
    expect(values).toBeGreaterThan(compared / 2);
    expect(tenant.stats().retries).toBe(0);
    expect(tenant.stats().tokens).toBe(1);
  });

  it('refresh({ tenant }) gives the same line for every identity as refresh({ fixtures })', async () => {
    const local = await readResults(refresh({ fixtures: TENANT, workers: 0, now: NOW }));
    const job = refresh({ tenant: credentials(), now: NOW, batchSize: 64 });
    const remote = await readResults(job);
    expect([...remote.keys()]).toEqual([...local.keys()].sort());
    for (const [id, line] of local) expect(remote.get(id), id).toEqual(line);
    const summary = job.summary();
    expect(summary).toMatchObject({ complete: true, identities: fixtures.identities.length, tenantIdentities: fixtures.identities.length, accounts: fixtures.accounts.length, accountsIndex: 'api', workers: 0 });
    // Accounts come in bulk per batch, not per identity.
    expect(summary.api!.requests).toBeLessThan(fixtures.identities.length / 4);
  });

  it('refreshes one shard of the tenant: the same identities as the fixtures shard', async () => {
    const local = await readResults(refresh({ fixtures: TENANT, workers: 0, now: NOW, shard: '1/3' }));
    const remote = await readResults(refresh({ tenant: credentials(), now: NOW, shard: '1/3' }));
    expect([...remote.keys()].sort()).toEqual([...local.keys()].sort());
    expect(local.size).toBeGreaterThan(0);
  });

  it('pushes accountFilter down to the accounts collection and still filters exactly', async () => {
    const requests: URL[] = [];
    const tenant = createTenantProviders({ ...credentials(), fetch: (input, init) => (requests.push(new URL(String(input))), fetch(input, init)) });
    const memory = createMemoryProviders(fixtures);
    const transform = JSON.parse(readFileSync(join(TENANT, 'transforms', 'admin-account-name.json'), 'utf8')) as { attributes: { accountFilter: string } };
    expect(transform.attributes.accountFilter).toContain('nativeIdentity.startsWith("adm-")');
    const remote = createEngine({ providers: tenant, clock: () => NOW });
    const local = createEngine({ providers: memory, clock: () => NOW });
    let admins = 0;
    for (const identity of fixtures.identities.slice(0, 60)) {
      const value = await remote.evaluate(transform, { identity: identity.id });
      expect(value).toEqual(await local.evaluate(transform, { identity: identity.id }));
      if (value !== null) admins++;
    }
    expect(admins).toBeGreaterThan(0);
    const filters = requests.filter((u) => u.pathname === '/v3/accounts').map((u) => u.searchParams.get('filters'));
    expect(filters.length).toBeGreaterThan(0);
    // The pushed-down conjuncts follow the identity and source conditions, printed by the API
    // filter formatter (no redundant parentheses).
    expect(filters.filter((f) => !f!.endsWith(' and nativeIdentity sw "adm-" and hasEntitlements eq true'))).toEqual([]);
  });

  it('renews the token before it expires, judged from expires_in', async () => {
    let now = Date.now();
    const tenant = createTenantProviders({ ...credentials(), now: () => now, cache: false });
    expect(await tenant.identities.getIdentity(fixtures.identities[0]!.id)).toMatchObject({ id: fixtures.identities[0]!.id });
    now += 600_000; // 10 of the token's 12.5 minutes: still the first token
    await tenant.sources.resolveSource({ sourceName: 'Workday' });
    expect(tenant.stats().tokens).toBe(1);
    now += 90_000; // less than 60 s left: a new token first
    await tenant.sources.resolveSource({ sourceName: 'Workday' });
    expect(tenant.stats().tokens).toBe(2);
  });

  it('waits the Retry-After of the token endpoint\'s 429, then retries once and gets its token', async () => {
    // The server's rate limit counts on the system clock: it is faked (Date only; timers and
    // sockets stay real), and the client's sleep moves it on by what the client waits, so the
    // window has passed exactly when the retry is sent, however loaded the machine.
    vi.useFakeTimers({ toFake: ['Date'] });
    const limited = await resourceServer({ tokenRateLimit: { max: 1, timeWindowMs: 20_000 } });
    try {
      const url = await limited.listen();
      const first = createTenantProviders({ baseUrl: url, clientId: ADMIN_PAT.id, clientSecret: ADMIN_PAT.secret });
      const slept: number[] = [];
      const sleep = async (ms: number) => {
        slept.push(ms);
        vi.setSystemTime(Date.now() + ms);
      };
      const second = createTenantProviders({ baseUrl: url, clientId: ADMIN_PAT.id, clientSecret: ADMIN_PAT.secret, sleep });
      await first.client.accessToken();
      await second.client.accessToken();
      expect(slept).toEqual([20_000]);
      expect(second.stats()).toMatchObject({ tokens: 1, retries: 1 });
    } finally {
      vi.useRealTimers();
      await limited.close();
    }
  });

  it('reports wrong credentials as TENANT_AUTH', async () => {
    const tenant = createTenantProviders({ ...credentials(), clientSecret: 'wrong' });
    await expect(tenant.identities.getIdentity('x')).rejects.toMatchObject({ code: 'TENANT_AUTH' });
  });
});

async function cli(argv: string[], env: Record<string, string | undefined>) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  let out = '';
  let err = '';
  try {
    const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
    return { code, out, err };
  } finally {
    process.env = saved;
  }
}

describe('the CLI with --tenant', () => {
  const env = () => ({ IDT_CLIENT_ID: ADMIN_PAT.id, IDT_CLIENT_SECRET: ADMIN_PAT.secret });
  const files = () => readdirSync(join(TENANT, 'transforms')).filter((f) => f.endsWith('.json')).slice(0, 12);

  it('evaluate --tenant prints what evaluate --fixtures prints', async () => {
    const identity = fixtures.identities[3]!;
    for (const file of files()) {
      const path = join(TENANT, 'transforms', file);
      const local = await cli(['evaluate', path, '--fixtures', TENANT, '--identity', identity.name, '--now', NOW.toISOString()], {});
      const remote = await cli(['evaluate', path, '--tenant', baseUrl, '--identity', identity.name, '--now', NOW.toISOString()], env());
      expect({ code: remote.code, out: remote.out, err: remote.err }, file).toEqual({ code: local.code, out: local.out, err: local.err });
    }
  });

  it('refresh --tenant --out writes the lines of refresh --fixtures, in id order', async () => {
    const out = join(tmp, 'tenant.ndjson');
    const r = await cli(['refresh', '--tenant', baseUrl, '--out', out, '--now', NOW.toISOString(), '--no-progress'], env());
    expect(r.code).toBe(0);
    expect(r.err).toContain(`Identity refresh of ${baseUrl} with profile "Employees"`);
    expect(r.err).toMatch(/API +\d+ requests, 0 retries, 1 token/);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as IdentityRefreshResult);
    const ids = lines.map((l) => l.identityId);
    expect(ids).toEqual([...ids].sort());
    const local = await readResults(refresh({ fixtures: TENANT, workers: 0, now: NOW }));
    for (const line of lines) expect(line).toEqual(local.get(line.identityId));
  });

  it.each([
    [['evaluate', join(TENANT, 'transforms', 'ad-username.json'), '--tenant', 'http://127.0.0.1:9', '--identity', 'a'], { IDT_CLIENT_ID: undefined, IDT_CLIENT_SECRET: undefined }, 'IDT_CLIENT_ID'],
    [['refresh', '--tenant', 'not a url'], { IDT_CLIENT_ID: 'a', IDT_CLIENT_SECRET: 'b' }, 'baseUrl'],
    [['refresh', '--tenant', 'http://127.0.0.1:9', '--fixtures', 'fixtures'], { IDT_CLIENT_ID: 'a', IDT_CLIENT_SECRET: 'b' }, 'not both'],
    [['refresh', '--tenant', 'http://127.0.0.1:9', '--workers', '2'], { IDT_CLIENT_ID: 'a', IDT_CLIENT_SECRET: 'b' }, '--workers'],
  ])('%j is a usage error (exit 2)', async (argv, environment, text) => {
    const r = await cli(argv, environment);
    expect(r.code).toBe(2);
    expect(r.err).toContain('CLI_USAGE');
    expect(r.err).toContain(text);
  });

  it('wrong credentials exit 1 with TENANT_AUTH', async () => {
    const r = await cli(['refresh', '--tenant', baseUrl, '--summary'], { IDT_CLIENT_ID: ADMIN_PAT.id, IDT_CLIENT_SECRET: 'wrong' });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^TENANT_AUTH /);
  });

  it('an unreachable tenant exits 1 with TENANT_NETWORK after the retries', async () => {
    const options: TenantProviderOptions = { baseUrl: 'http://127.0.0.1:9', clientId: 'a', clientSecret: 'b', retries: 1, retryDelayMs: 1 };
    await expect(createTenantProviders(options).findIdentity('a')).rejects.toMatchObject({ code: 'TENANT_NETWORK' });
  });
});

/** Run the CLI in a child process, as a user would; resolves when it exits. */
function child(args: string[], env: Record<string, string> = {}) {
  const root = join(TENANT, '..');
  const proc = spawn(process.execPath, [CLI, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += String(d)));
  proc.stderr!.on('data', (d) => (err += String(d)));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, out: () => out, err: () => err, exited };
}

describe('refresh --tenant against `identity-transforms serve`', () => {
  it('a refresh of the served fixtures prints the lines of a refresh of the fixtures directory', async () => {
    const server = child(['serve', '--fixtures', TENANT, '--port', '0']);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        server.proc.stdout!.on('data', () => {
          const m = /^listening (\{.*\})\n/.exec(server.out());
          if (m) resolve((JSON.parse(m[1]!) as { baseUrl: string }).baseUrl);
        });
        server.proc.once('exit', (code) => reject(new Error(`serve exited ${code}: ${server.err()}`)));
      });
      // The refresh reaches serve through a proxy that checks every answer against its /openapi.json.
      const proxy = await contractProxy(url);
      const run = child(['refresh', '--tenant', proxy.url, '--now', NOW.toISOString(), '--no-progress'], { IDT_CLIENT_ID: ADMIN_PAT.id, IDT_CLIENT_SECRET: ADMIN_PAT.secret });
      try {
        expect(await run.exited, run.err()).toBe(0);
      } finally {
        await proxy.close();
      }
      const lines = run.out().trimEnd().split('\n').map((l) => JSON.parse(l) as IdentityRefreshResult);
      const local = await readResults(refresh({ fixtures: TENANT, workers: 0, now: NOW }));
      expect(lines).toHaveLength(local.size);
      for (const line of lines) expect(line).toEqual(local.get(line.identityId));
    } finally {
      server.proc.kill('SIGTERM');
      await server.exited;
    }
  });
});
