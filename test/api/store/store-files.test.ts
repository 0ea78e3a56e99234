// The store on disk (docs/decisions.md A36–A37): the database file and its WAL are readable by
// their owner only, and the ES256 private key is not in the database but in a 0600 file beside
// it, so that a copy of the database cannot sign tokens.

import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ALICE_PAT, bearer, testServer, tokenFor } from '../helpers.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'store-files-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  // Left for the OS to clean; the files are 0600.
});

const mode = (file: string) => statSync(file).mode & 0o777;

describe('store files', () => {
  it('creates the database, its WAL and the key file readable by their owner only', async () => {
    const file = join(tempDir(), 'tenant.db');
    const s = await testServer({ db: file });
    try {
      await tokenFor(s, ALICE_PAT); // a write, so that the WAL exists
      expect(mode(file)).toBe(0o600);
      expect(existsSync(`${file}-wal`)).toBe(true);
      expect(mode(`${file}-wal`)).toBe(0o600);
      expect(mode(`${file}.signing-key.json`)).toBe(0o600);
    } finally {
      await s.close();
    }
  });

  it('narrows an existing world-readable database to 0600', async () => {
    const file = join(tempDir(), 'tenant.db');
    new Database(file).close();
    chmodSync(file, 0o644);
    const s = await testServer({ db: file });
    try {
      expect(mode(file)).toBe(0o600);
    } finally {
      await s.close();
    }
  });

  it('keeps no private key in the database: only the public key and its kid', async () => {
    const file = join(tempDir(), 'tenant.db');
    const s = await testServer({ db: file });
    const token = await tokenFor(s, ALICE_PAT);
    await s.close();
    const db = new Database(file, { readonly: true });
    const meta = JSON.parse((db.prepare("SELECT value FROM meta WHERE key = 'signing_key'").get() as { value: string }).value);
    const dump = (db.prepare("SELECT group_concat(value, ' ') AS all_values FROM meta").get() as { all_values: string }).all_values;
    db.close();
    const key = JSON.parse(readFileSync(`${file}.signing-key.json`, 'utf8'));
    expect(Object.keys(meta).sort()).toEqual(['kid', 'publicJwk']);
    expect(meta.publicJwk).not.toHaveProperty('d');
    expect(key.kid).toBe(meta.kid);
    expect(typeof key.privateJwk.d).toBe('string');
    expect(dump).not.toContain(key.privateJwk.d);
    // Restarting on the same files keeps the key: the earlier token still verifies.
    const again = await testServer({ db: file });
    try {
      expect((await again.api.inject({ url: '/v3/oauth-clients', headers: bearer(token) })).statusCode).toBe(200);
    } finally {
      await again.close();
    }
  });

  it('moves the private key of a store written by an older version out of the database', async () => {
    const file = join(tempDir(), 'tenant.db');
    const first = await testServer({ db: file });
    const token = await tokenFor(first, ALICE_PAT);
    await first.close();
    // Put the store back in the older layout: the whole pair in meta, no key file.
    const key = JSON.parse(readFileSync(`${file}.signing-key.json`, 'utf8'));
    const db = new Database(file);
    const meta = JSON.parse((db.prepare("SELECT value FROM meta WHERE key = 'signing_key'").get() as { value: string }).value);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'signing_key'").run(JSON.stringify({ ...meta, privateJwk: key.privateJwk }));
    db.close();
    writeFileSync(`${file}.signing-key.json`, '');
    const second = await testServer({ db: file });
    try {
      expect((await second.api.inject({ url: '/v3/oauth-clients', headers: bearer(token) })).statusCode).toBe(200);
      expect(JSON.parse(second.store.getMeta('signing_key')!)).not.toHaveProperty('privateJwk');
      expect(JSON.parse(readFileSync(`${file}.signing-key.json`, 'utf8')).privateJwk.d).toBe(key.privateJwk.d);
      expect(mode(`${file}.signing-key.json`)).toBe(0o600);
    } finally {
      await second.close();
    }
  });

  it('starts with a new key pair when the key file is lost (earlier tokens stop verifying)', async () => {
    const file = join(tempDir(), 'tenant.db');
    const first = await testServer({ db: file });
    const token = await tokenFor(first, ALICE_PAT);
    await first.close();
    writeFileSync(`${file}.signing-key.json`, '{}');
    const second = await testServer({ db: file });
    try {
      expect((await second.api.inject({ url: '/v3/oauth-clients', headers: bearer(token) })).statusCode).toBe(401);
      expect((await second.api.inject({ url: '/v3/oauth-clients', headers: bearer(await tokenFor(second, ALICE_PAT)) })).statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });
});
