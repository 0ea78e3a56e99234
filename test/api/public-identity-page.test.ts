// A /public-identities page is written from the items store migrations 6 and 7 keep beside the
// identities (src/api/plugins/identities.ts): each item shows what its document says (the
// display name when it is text, else the name; the email when it is text; the status from the
// lifecycle state, else the cloud lifecycle state) and its manager while that identity exists,
// following the manager's writes; a store written before the columns shows the same page.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/api/store/migrations.js';
import { Store } from '../../src/api/store/store.js';
import { registerSqlFunctions } from '../../src/filter/index.js';
import { ADMIN_PAT, resourceServer, tokenOf, type ResourceServer } from './resources-server.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const PEOPLE = [
  { id: 'pg-a', name: 'ada', attributes: { displayName: 'Ada L', email: 'ada@example.com', lifecycleState: 'active' }, managerId: 'pg-b' },
  { id: 'pg-b', name: 'bob', attributes: { email: 42, lifecycleState: 'terminated' } },
  { id: 'pg-c', name: 'cy', attributes: { displayName: 5, lifecycleState: 7, cloudLifecycleState: 'inactive' }, managerId: '' },
  { id: 'pg-d', name: 'dee', attributes: { cloudLifecycleState: 'active' }, managerId: 'pg-ghost' },
  { id: 'pg-e', name: 'eve', managerId: 'pg-e' },
];

const ACTIVE = { status: 'ACTIVE', identityState: 'ACTIVE' };
const INACTIVE = { status: 'INACTIVE', identityState: 'INACTIVE_LONG_TERM' };
const BOB = { type: 'IDENTITY', id: 'pg-b', name: 'bob' };
const EXPECTED = [
  { id: 'pg-a', name: 'Ada L', alias: 'ada', email: 'ada@example.com', ...ACTIVE, manager: BOB, attributes: [] },
  { id: 'pg-b', name: 'bob', alias: 'bob', email: null, ...INACTIVE, manager: null, attributes: [] },
  { id: 'pg-c', name: 'cy', alias: 'cy', email: null, ...INACTIVE, manager: null, attributes: [] },
  { id: 'pg-d', name: 'dee', alias: 'dee', email: null, ...ACTIVE, manager: null, attributes: [] },
  { id: 'pg-e', name: 'eve', alias: 'eve', email: null, ...ACTIVE, manager: { type: 'IDENTITY', id: 'pg-e', name: 'eve' }, attributes: [] },
];

async function page(server: ResourceServer, query = ''): Promise<unknown[]> {
  const token = await tokenOf(server, ADMIN_PAT);
  const filters = encodeURIComponent(`id in (${PEOPLE.map((p) => `"${p.id}"`).join(', ')})`);
  const res = await server.api.inject({ url: `/v3/public-identities?filters=${filters}&sorters=alias${query}`, headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  return res.json() as unknown[];
}

describe('GET /v3/public-identities items', () => {
  it('show what the documents say, and the manager while it exists', async () => {
    const server = await resourceServer();
    try {
      // The report first: its manager is found when the manager is written.
      for (const p of PEOPLE) server.store.resources.put('identities', p);
      expect(await page(server)).toEqual(EXPECTED);
    } finally {
      await server.close();
    }
  });

  it("follow the manager's writes: a new name, a removal, a return", async () => {
    const server = await resourceServer();
    try {
      for (const p of [...PEOPLE].reverse()) server.store.resources.put('identities', p);
      expect(await page(server)).toEqual(EXPECTED);
      server.store.resources.put('identities', { ...PEOPLE[1]!, attributes: { displayName: 'Robert' } });
      const renamed = (await page(server)) as { manager: unknown; status: string }[];
      expect(renamed[0]!.manager).toEqual({ ...BOB, name: 'Robert' });
      expect(renamed[1]!.status).toBe('ACTIVE');
      server.store.db.prepare("DELETE FROM identities WHERE id = 'pg-b'").run();
      expect(((await page(server)) as { manager: unknown }[])[0]!.manager).toBeNull();
      server.store.resources.put('identities', PEOPLE[1]!);
      expect(await page(server)).toEqual(EXPECTED);
    } finally {
      await server.close();
    }
  });

  it('are the same for a store written before the shown columns (schema version 5), once migrated', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'public-identity-page-'));
    dirs.push(dir);
    const file = join(dir, 'v5.db');
    await (await resourceServer({ db: file })).close();
    // Back to version 5: the public-identity table, triggers and view of migration 4.
    const old = new Database(file);
    registerSqlFunctions(old);
    old.exec('DROP VIEW public_identity_rows; DROP TRIGGER public_identity_columns_insert; DROP TRIGGER public_identity_columns_update; DROP TRIGGER public_identity_columns_delete; DROP TABLE public_identity_columns');
    old.exec(MIGRATIONS.find((m) => m.version === 4)!.sql);
    old.pragma('user_version = 5');
    const insert = old.prepare('INSERT INTO identities (id, name, manager_id, doc) VALUES (?, ?, ?, ?)');
    for (const p of PEOPLE) insert.run(p.id, p.name, p.managerId || null, JSON.stringify(p));
    old.close();
    const server = await resourceServer({ db: file });
    try {
      expect(server.store.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS[MIGRATIONS.length - 1]!.version);
      expect(await page(server)).toEqual(EXPECTED);
      expect(await page(server, '&limit=2&offset=1&count=true')).toEqual(EXPECTED.slice(1, 3));
    } finally {
      await server.close();
    }
    // Reopened, nothing is migrated again, and every identity has its row.
    const again = Store.open({ file });
    try {
      const count = (table: string) => (again.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      expect(count('public_identity_columns')).toBe(count('identities'));
    } finally {
      again.close();
    }
  });
});
