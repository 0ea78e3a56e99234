// Existence must not leak through timing (docs/decisions.md A6, A29, A35): an unknown client id,
// login or API key costs the same key derivation as a known one with a wrong secret. Held two
// ways: every path calls the same KDF with the same cost (deterministic), and medians of
// interleaved measurements at the production cost agree within a generous factor. They measure
// the process's CPU time (the KDF runs on libuv's pool, which counts), not the wall clock: what a
// missing key derivation saves is CPU, and other processes on a busy machine add none of it.

import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashSecret } from '../../../src/api/auth/secrets.js';
import { ALICE, ALICE_PAT, NE_KEY, SERVICE, WEB_APP, bearer, expectPlatformError, form, testServer, type TestServer } from '../helpers.js';

const NE_URL = '/api/v2025/non-employee-sources';
/** scrypt parameters of a stored hash: `scrypt$<logN>$<r>$<p>$…`. */
const cost = (hash: string) => hash.split('$').slice(0, 4).join('$');

function tokenRequest(s: TestServer, id: string, secret: string) {
  return s.api.inject({ method: 'POST', url: '/oauth/token', ...form({ grant_type: 'client_credentials', client_id: id, client_secret: secret }) });
}

function loginRequest(s: TestServer, username: string, password: string) {
  const params = { client_id: WEB_APP.id, response_type: 'code', redirect_uri: WEB_APP.redirectUri, username, password };
  return s.login.inject({ method: 'POST', url: '/oauth/authorize', ...form(params) });
}

/** A key that shares the first 8 characters of the fixture key (the old clear lookup prefix). */
const SAME_PREFIX = NE_KEY.slice(0, 8) + 'x'.repeat(NE_KEY.length - 8);
const UNRELATED = 'zz-unknown-key-000000000000000000';

describe('the same KDF on the known and the unknown path', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await testServer({ tokenRateLimit: false, loginRateLimit: false, nonEmployeeRateLimit: false });
  });
  afterAll(async () => {
    await s.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** The hashes the KDF was run against while `fn` ran. */
  async function kdfCalls(fn: () => Promise<unknown>): Promise<string[]> {
    const verify = vi.spyOn(s.context.secrets, 'verify');
    const password = vi.spyOn(s.context.secrets, 'verifyPassword');
    await fn();
    const hashes = [...verify.mock.calls, ...password.mock.calls].map((c) => c[1]);
    verify.mockRestore();
    password.mockRestore();
    return hashes;
  }

  it('runs one scrypt for an unknown client id, as for a known one with a wrong secret', async () => {
    const known = await kdfCalls(async () => expect((await tokenRequest(s, SERVICE.id, 'wrong')).statusCode).toBe(401));
    const unknown = await kdfCalls(async () => expect((await tokenRequest(s, randomUUID(), 'wrong')).statusCode).toBe(401));
    expect(known).toHaveLength(1);
    expect(unknown).toHaveLength(1);
    expect(cost(unknown[0]!)).toBe(cost(known[0]!));
  });

  it.each([
    ['a client', SERVICE],
    ['a PAT', ALICE_PAT],
  ])('runs one scrypt for a wrong secret of %s that has logged in since start, as for an unknown id (the cache answers only the right secret)', async (_name, client) => {
    const kdf = async (fn: () => Promise<unknown>) => {
      const spy = vi.spyOn(s.context.secrets, 'kdf');
      await fn();
      const hashes = spy.mock.calls.map((c) => c[1]);
      spy.mockRestore();
      return hashes;
    };
    // Logged in: the next right secret is answered from the cache, without scrypt.
    expect((await tokenRequest(s, client.id, client.secret)).statusCode).toBe(200);
    expect(await kdf(async () => expect((await tokenRequest(s, client.id, client.secret)).statusCode).toBe(200))).toEqual([]);
    const known = await kdf(async () => expect((await tokenRequest(s, client.id, 'wrong')).statusCode).toBe(401));
    const unknown = await kdf(async () => expect((await tokenRequest(s, randomUUID(), 'wrong')).statusCode).toBe(401));
    expect(known).toHaveLength(1);
    expect(unknown).toEqual([s.context.secrets.unknownHash]);
    expect(cost(known[0]!)).toBe(cost(unknown[0]!));
  });

  it('runs one scrypt for an unknown login, as for a known one with a wrong password', async () => {
    const known = await kdfCalls(async () => expect((await loginRequest(s, ALICE.login, 'wrong')).body).toContain('Invalid username or password'));
    const unknown = await kdfCalls(async () => expect((await loginRequest(s, 'nobody.here', 'wrong')).body).toContain('Invalid username or password'));
    expect(known).toHaveLength(1);
    expect(unknown).toHaveLength(1);
    expect(cost(unknown[0]!)).toBe(cost(known[0]!));
  });

  it('runs one scrypt for any wrong API key, whether or not it shares a prefix with a real one', async () => {
    const samePrefix = await kdfCalls(async () => expect((await s.nonEmployee.inject({ url: NE_URL, headers: bearer(SAME_PREFIX) })).statusCode).toBe(401));
    const unrelated = await kdfCalls(async () => expect((await s.nonEmployee.inject({ url: NE_URL, headers: bearer(UNRELATED) })).statusCode).toBe(401));
    const right = await kdfCalls(async () => expect((await s.nonEmployee.inject({ url: NE_URL, headers: bearer(NE_KEY) })).statusCode).toBe(200));
    expect(samePrefix).toHaveLength(1);
    expect(unrelated).toHaveLength(1);
    expect(right).toHaveLength(1);
    expect(cost(samePrefix[0]!)).toBe(cost(right[0]!));
  });

  it('keeps no part of an API key in clear: keys are found by a keyed hash', () => {
    const rows = s.store.db.prepare('SELECT lookup FROM nonemployee_api_keys').all() as { lookup: string }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.lookup).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(r.lookup).not.toContain(NE_KEY.slice(0, 8));
    }
  });

  it('still finds a key stored by an older version under its clear prefix, and re-keys it', async () => {
    const key = 'older-store-key-0123456789abcdef';
    s.store.identity.insertApiKey({ id: 'older-key', name: 'older', keyHash: hashSecret(key, 10), created: '2024-01-01T00:00:00Z' }, key.slice(0, 8));
    expect((await s.nonEmployee.inject({ url: NE_URL, headers: bearer(key) })).statusCode).toBe(200);
    const row = s.store.db.prepare("SELECT lookup FROM nonemployee_api_keys WHERE id = 'older-key'").get() as { lookup: string };
    expect(row.lookup).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await s.nonEmployee.inject({ url: NE_URL, headers: bearer(key) })).statusCode).toBe(200);
  });
});

describe('cost at the production cost parameters (medians of CPU time, generous factor)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await testServer({ secretHashCost: 14, tokenRateLimit: false, loginRateLimit: false, nonEmployeeRateLimit: false });
  }, 60_000);
  afterAll(async () => {
    await s.close();
  });

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  /** Interleaved samples of the CPU time (user + system, all threads) each request costs. */
  async function medians(a: () => Promise<unknown>, b: () => Promise<unknown>, n = 7): Promise<[number, number]> {
    const ta: number[] = [];
    const tb: number[] = [];
    for (let i = 0; i < n; i++) {
      for (const [fn, out] of [[a, ta], [b, tb]] as const) {
        const c0 = process.cpuUsage();
        await fn();
        const c = process.cpuUsage(c0);
        out.push(c.user + c.system);
      }
    }
    return [median(ta), median(tb)];
  }

  // Before the dummy scrypt the unknown paths answered ~15× faster; equal work gives a ratio near 1.
  it.each<[string, (s: TestServer) => [() => Promise<unknown>, () => Promise<unknown>]]>([
    ['client ids', (s) => [() => tokenRequest(s, SERVICE.id, 'wrong'), () => tokenRequest(s, randomUUID(), 'wrong')]],
    ['logins', (s) => [() => loginRequest(s, ALICE.login, 'wrong'), () => loginRequest(s, `nobody-${randomUUID()}`, 'wrong')]],
    ['API keys', (s) => [() => s.nonEmployee.inject({ url: NE_URL, headers: bearer(SAME_PREFIX) }), () => s.nonEmployee.inject({ url: NE_URL, headers: bearer(UNRELATED) })]],
  ])('answers unknown %s no faster than known ones with a wrong secret', async (_name, paths) => {
    const [known, unknown] = await medians(...paths(s));
    expect(unknown).toBeGreaterThan(known * 0.4);
  }, 60_000);
});

describe('the non-employee listener is rate limited like the token endpoint and the login form', () => {
  it('answers 429 in the platform body once the limit is reached, before checking the credential', async () => {
    const s = await testServer({ nonEmployeeRateLimit: { max: 3, timeWindowMs: 60_000 } });
    try {
      for (let i = 0; i < 3; i++) expect((await s.nonEmployee.inject({ url: NE_URL, headers: bearer(UNRELATED) })).statusCode).toBe(401);
      const verify = vi.spyOn(s.context.secrets, 'verify');
      const res = await s.nonEmployee.inject({ url: NE_URL, headers: bearer(NE_KEY) });
      expect(res.statusCode).toBe(429);
      expect(expectPlatformError(res.json()).detailCode).toBe('429 Too Many Requests');
      expect(verify).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
      await s.close();
    }
  });

  it('has a default limit', async () => {
    const s = await testServer();
    try {
      expect(s.context.options.nonEmployeeRateLimit).toEqual({ max: 60, timeWindowMs: 60_000 });
    } finally {
      await s.close();
    }
  });
});
