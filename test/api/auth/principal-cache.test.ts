// A token is resolved to its client, user and rights once and reused while the store's auth
// epoch holds (src/api/auth/authenticate.ts, store migration 8): every write of a user or a
// client moves the epoch, on this connection or another, so a deletion, a disabled client, a
// removed capability or a deleted user takes effect on the very next request
// (https://developer.sailpoint.com/docs/api/authentication).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ALICE, ALICE_PAT, bearer, expectPlatformError, SERVICE, testServer, tokenFor, type TestServer } from '../helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** An admin-only list (needs a user with the right) and a route any client may call. */
const ADMIN_LIST = '/oauth-clients/v1';

describe('resolved tokens', () => {
  let s: TestServer;
  beforeEach(async () => {
    s = await testServer();
  });
  afterEach(async () => {
    await s.close();
  });
  const call = async (token: string, url = ADMIN_LIST) => s.api.inject({ url, headers: bearer(token) });

  it('are reused while nothing is written: the client and the user are read once', async () => {
    const token = await tokenFor(s, ALICE_PAT);
    const getClient = vi.spyOn(s.store.identity, 'getClient');
    const getUser = vi.spyOn(s.store.identity, 'getUser');
    for (let i = 0; i < 3; i++) expect((await call(token)).statusCode).toBe(200);
    expect([getClient.mock.calls.length, getUser.mock.calls.length]).toEqual([1, 1]);
    // A token grant writes the client's last use: the next call resolves again, once.
    await tokenFor(s, SERVICE);
    getClient.mockClear();
    for (let i = 0; i < 2; i++) expect((await call(token)).statusCode).toBe(200);
    expect(getClient.mock.calls.length).toBe(1);
  });

  it('stop at once when their client is disabled', async () => {
    const token = await tokenFor(s, ALICE_PAT);
    expect((await call(token)).statusCode).toBe(200);
    s.store.db.prepare('UPDATE oauth_clients SET enabled = 0 WHERE id = ?').run(ALICE_PAT.id);
    const res = await call(token);
    expect(res.statusCode).toBe(401);
    expect(expectPlatformError(res.json()).code).toBe('API_UNAUTHORIZED');
  });

  it('lose a right at once when their user loses the capability', async () => {
    const token = await tokenFor(s, ALICE_PAT);
    expect((await call(token)).statusCode).toBe(200);
    s.store.db.prepare("UPDATE users SET capabilities = '[]' WHERE id = ?").run(ALICE.id);
    const res = await call(token);
    expect(res.statusCode).toBe(403);
    expect(expectPlatformError(res.json()).code).toBe('API_FORBIDDEN');
    s.store.db.prepare(`UPDATE users SET capabilities = '["ORG_ADMIN"]' WHERE id = ?`).run(ALICE.id);
    expect((await call(token)).statusCode).toBe(200);
  });

  it('stop at once when their user is deleted', async () => {
    const token = await tokenFor(s, ALICE_PAT);
    expect((await call(token)).statusCode).toBe(200);
    s.store.db.prepare('DELETE FROM users WHERE id = ?').run(ALICE.id);
    expect((await call(token)).statusCode).toBe(401);
  });

  it('stop at once when their client is deleted, and a client-credentials token too', async () => {
    const token = await tokenFor(s, SERVICE);
    const url = '/v3/public-identities?limit=1';
    expect((await call(token, url)).statusCode).toBe(200);
    s.store.db.prepare('DELETE FROM oauth_clients WHERE id = ?').run(SERVICE.id);
    expect((await call(token, url)).statusCode).toBe(401);
  });
});

describe('resolved tokens over a file store', () => {
  it('stop at once when another connection deletes their PAT', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'principal-cache-'));
    dirs.push(dir);
    const file = join(dir, 'store.db');
    const s = await testServer({ db: file });
    try {
      const token = await tokenFor(s, ALICE_PAT);
      expect((await s.api.inject({ url: ADMIN_LIST, headers: bearer(token) })).statusCode).toBe(200);
      // Another program on the same file: the sqlite3 shell, or another server.
      const other = new Database(file);
      other.pragma('foreign_keys = ON');
      expect(other.prepare('DELETE FROM oauth_clients WHERE id = ?').run(ALICE_PAT.id).changes).toBe(1);
      other.close();
      const res = await s.api.inject({ url: ADMIN_LIST, headers: bearer(token) });
      expect(res.statusCode).toBe(401);
      expect(expectPlatformError(res.json()).text).toMatch(/no longer exists/);
    } finally {
      await s.close();
    }
  });
});
