// The store: embedded SQLite (memory or a WAL file), migrations, seeding from the
// fixtures, and a restart on the same file keeps everything.

import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../../src/api/store/migrations.js';
import { stableUuid } from '../../../src/api/store/seed.js';
import { Store } from '../../../src/api/store/store.js';
import { ALICE, ALICE_PAT, bearer, testServer, tokenFor } from '../helpers.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'it-api-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('migrations', () => {
  it('bring a new store to the last version and are not replayed', () => {
    const store = Store.open();
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
      expect(migrate(store.db)).toEqual([]);
      const tables = (store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
      expect(tables).toEqual(expect.arrayContaining(['users', 'oauth_clients', 'authorization_codes', 'refresh_tokens', 'nonemployee_api_keys', 'sources', 'identities', 'accounts', 'transforms', 'identity_profiles']));
    } finally {
      store.close();
    }
  });

  it('migrate an older file forward', () => {
    const file = join(tempDir(), 'old.db');
    const v1 = Store.open({ file });
    v1.db.exec('DROP VIEW public_identity_rows; DROP TABLE public_identity_columns');
    v1.db.exec('DROP TABLE sources; DROP TABLE identities; DROP TABLE accounts; DROP TABLE transforms; DROP TABLE identity_profiles');
    v1.db.pragma('user_version = 1');
    v1.close();
    const reopened = Store.open({ file });
    try {
      expect(reopened.created).toBe(false);
      expect(reopened.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
      expect(reopened.resources.count('sources')).toBe(0);
    } finally {
      reopened.close();
    }
  });

  it('bring a file written by the previous version forward, keeping its data', () => {
    const file = join(tempDir(), 'v2.db');
    copyFileSync(new URL('../data/store-v2.sqlite', import.meta.url), file);
    const store = Store.open({ file });
    try {
      expect(store.created).toBe(false);
      expect(store.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
      expect(store.resources.count('identities')).toBe(3);
      const count = (table: string) => (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      expect([count('public_identity_columns'), count('account_activities'), count('source_schemas'), count('account_rows')]).toEqual([3, 1, 2, 7]);
    } finally {
      store.close();
    }
  });

  it('fill the public-identity columns of identities stored before they existed', () => {
    const file = join(tempDir(), 'before-columns.db');
    const old = Store.open({ file });
    old.db.exec('DROP VIEW public_identity_rows; DROP TRIGGER public_identity_columns_insert; DROP TRIGGER public_identity_columns_update; DROP TRIGGER public_identity_columns_delete; DROP TABLE public_identity_columns');
    old.resources.put('identities', { id: 'i-1', name: 'ada', attributes: { email: 'ada@example.com', displayName: 'Ada L' } });
    old.db.pragma('user_version = 2');
    old.close();
    const store = Store.open({ file });
    try {
      expect(store.db.prepare('SELECT id, alias, email, display FROM public_identity_rows').all()).toEqual([{ id: 'i-1', alias: 'ada', email: 'ada@example.com', display: 'Ada L' }]);
    } finally {
      store.close();
    }
  });
});

describe('seeding', () => {
  it('loads every fixture file, hashing the fixture secrets', async () => {
    const s = await testServer();
    try {
      expect(s.seeded).toEqual({ users: 3, oauthClients: 6, personalAccessTokens: 3, nonEmployeeApiKeys: 1, sources: 2, identities: 2, accounts: 1, transforms: 1, identityProfiles: 1 });
      expect(s.store.identity.getUserByLogin('ALICE.ADMIN')!.id).toBe(ALICE.id);
      const hashes = s.store.db.prepare('SELECT password_hash AS h FROM users UNION ALL SELECT secret_hash FROM oauth_clients UNION ALL SELECT key_hash FROM nonemployee_api_keys').all() as { h: string }[];
      expect(hashes.every((r) => r.h.startsWith('scrypt$'))).toBe(true);
      expect(JSON.stringify(hashes)).not.toContain('alice-password');
      // A fixture without an id gets a stable one derived from its name.
      expect(s.store.resources.get('transforms', stableUuid('transform', 'To lower'))).toMatchObject({ name: 'To lower', type: 'lower' });
      expect(s.store.identity.getUserByLogin('carol.sources')!.id).toBe(stableUuid('user', 'carol.sources'));
    } finally {
      await s.close();
    }
  });

  it.each<[string, string, string, RegExp]>([
    ['a user without a login', 'users.json', '[{"name":"x"}]', /must have required property 'login'/],
    ['a user with both password forms', 'users.json', '[{"login":"x","name":"x","fixturePassword":"a","passwordHash":"scrypt$1"}]', /must NOT be valid/],
    ['a client with an unknown grant type', 'oauth-clients.json', '[{"id":"a-b","name":"x","grantTypes":["PASSWORD"],"fixtureSecret":"12345678"}]', /must be equal to one of the allowed values/],
    ['a PAT of an unknown owner', 'personal-access-tokens.json', '[{"name":"x","ownerLogin":"ghost","fixtureSecret":"12345678"}]', /unknown owner ghost/],
    ['a file that is not JSON', 'sources.json', '[{', /cannot read fixture/],
  ])('refuses %s with API_STORE naming the file', async (_name, file, content, message) => {
    const dir = tempDir();
    writeFileSync(join(dir, file), content);
    await expect(testServer({ fixtures: dir })).rejects.toMatchObject({ code: 'API_STORE', message: expect.stringMatching(message), details: { file: join(dir, file) } });
  });

  it('skips a byte-order mark an editor saved at the start of a fixture file (decision C4)', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'transforms'));
    writeFileSync(join(dir, 'identities.json'), '\ufeff[{"id":"i-1","name":"bom.person","attributes":{}}]');
    writeFileSync(join(dir, 'transforms', 'a.json'), `\ufeff${JSON.stringify({ id: 't-1', name: 'A', type: 'static', attributes: { value: 'x' } })}`);
    const s = await testServer({ fixtures: dir });
    try {
      expect(s.store.resources.get('identities', 'i-1')).toMatchObject({ name: 'bom.person' });
      expect(s.store.resources.get('transforms', 't-1')).toMatchObject({ name: 'A' });
    } finally {
      await s.close();
    }
  });

  it('reads transforms/ and identity-profiles/ one document per file', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'transforms'));
    writeFileSync(join(dir, 'transforms', 'a.json'), JSON.stringify({ id: 't-1', name: 'A', type: 'static', attributes: { value: 'x' } }));
    writeFileSync(join(dir, 'transforms', 'notes.txt'), 'ignored');
    const s = await testServer({ fixtures: dir });
    try {
      expect(s.store.resources.list('transforms')).toEqual([{ id: 't-1', name: 'A', type: 'static', attributes: { value: 'x' } }]);
    } finally {
      await s.close();
    }
  });
});

describe('a file store', () => {
  it('uses WAL and keeps everything across a restart, without seeding again', async () => {
    const file = join(tempDir(), 'tenant.db');
    const first = await testServer({ db: file });
    const token = await tokenFor(first, ALICE_PAT);
    const created = (await first.api.inject({ method: 'POST', url: '/v3/personal-access-tokens', headers: bearer(token), payload: { name: 'kept' } })).json() as { id: string; secret: string };
    first.store.identity.deleteClient('7b7b7b7b-0000-4000-8000-00000000000b');
    expect(first.store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    const tenantId = first.tenantId;
    await first.close();

    const second = await testServer({ db: file });
    try {
      expect(second.seeded).toBeNull();
      expect(second.tenantId).toBe(tenantId);
      // The signing key was kept: a token of the first run still verifies.
      expect((await second.api.inject({ url: '/v3/oauth-clients', headers: bearer(token) })).statusCode).toBe(200);
      expect(await tokenFor(second, created)).toMatch(/^ey/);
      // The deletion was not undone by a second seed.
      expect(second.store.identity.getClient('7b7b7b7b-0000-4000-8000-00000000000b')).toBeNull();
    } finally {
      await second.close();
    }
  });

  it('reports a store that cannot be opened', async () => {
    await expect(testServer({ db: join(tempDir(), 'missing-dir', 'x.db') })).rejects.toMatchObject({ code: 'API_STORE' });
  });
});
