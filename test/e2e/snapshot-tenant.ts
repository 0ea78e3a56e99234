// A generated tenant served by `serve`'s server in a process of its own, for the snapshot tests and the snapshot
// benchmark: gen:tenant's generator, the bundled users and tokens (so ADMIN_PAT signs in),
// identities and accounts stamped with created/modified as a platform tenant has them, and
// changes made the way the platform makes them (a changed record gets a new `modified`).

import { copyFileSync, createReadStream, createWriteStream, mkdtempSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { fork } from 'node:child_process';
import { Store } from '../../src/api/store/store.js';
import { writeTenant } from '../../src/testing/generator/index.js';
import { ADMIN_PAT } from '../api/resources-server.js';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
export const STAMP = '2025-01-01T00:00:00.000Z';

/** Add `created`, `modified` and `identityProfile` (identities) or `modified` (accounts) to every element line of a one-per-line array file. */
async function stamp(file: string, members: string): Promise<void> {
  const temp = `${file}.stamped`;
  const out = createWriteStream(temp);
  for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    const m = /^(\{.*)\}(,?)$/.exec(line);
    const text = m ? `${m[1]},${members}}${m[2]}\n` : `${line}\n`;
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  renameSync(temp, file);
}

export interface GeneratedTenant {
  dir: string;
  baseUrl: string;
  credentials: () => { baseUrl: string; clientId: string; clientSecret: string };
  /** Change the tenant (changeTenant) through the server's store file, as the platform changes records. */
  change(fraction: number, at: string): ChangeCounts;
  close(): Promise<void>;
}

/** Write a generated tenant `serve` can load, with the bundled users and tokens, stamped. */
export async function writeStampedTenant(dir: string, identities: number, seed = 'snapshot'): Promise<void> {
  writeTenant(dir, { identities, seed, copyFrom: FIXTURES });
  for (const f of ['users.json', 'personal-access-tokens.json', 'oauth-clients.json']) copyFileSync(join(FIXTURES, f), join(dir, f));
  // The profile that computed each identity, as the platform's identity documents name it: a
  // snapshot copies it, and --since keeps it byte for byte.
  await stamp(join(dir, 'identities.json'), `"created":"${STAMP}","modified":"${STAMP}","identityProfile":{"id":"2c9180867c1c5f4a017c2e1b2c3d4e5f","name":"Employees"}`);
  await stamp(join(dir, 'accounts.json'), `"modified":"${STAMP}"`);
}

/**
 * A generated tenant served by a process of its own (snapshot-tenant-server.ts), so that the
 * server and the snapshot client copying from it each have an event loop; loaded through tsx, as
 * bench/snapshot.ts runs `serve`.
 */
export async function generatedTenant(identities: number, seed = 'snapshot'): Promise<GeneratedTenant> {
  const dir = mkdtempSync(join(tmpdir(), 'idt-snapshot-tenant-'));
  await writeStampedTenant(dir, identities, seed);
  const db = join(dir, 'tenant.db');
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const server = fork(fileURLToPath(new URL('./snapshot-tenant-server.ts', import.meta.url)), [dir, db], {
    execArgv: ['--import', tsx],
    env: { ...process.env, IDT_TEST_SERVER_PROCESS: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(server, 'exit');
  const [{ baseUrl }] = (await Promise.race([once(server, 'message'), exited.then(([code]) => Promise.reject(new Error(`the tenant server exited (${String(code)}) before it listened`)))])) as [{ baseUrl: string }];
  return {
    dir,
    baseUrl,
    credentials: () => ({ baseUrl, clientId: ADMIN_PAT.id, clientSecret: ADMIN_PAT.secret }),
    change: (fraction, at) => {
      const store = Store.open({ file: db });
      try {
        return changeTenant({ store }, fraction, at);
      } finally {
        store.close();
      }
    },
    close: async () => {
      server.send('close');
      const [answer] = (await once(server, 'message')) as [{ error?: string }];
      await exited;
      if (answer.error !== undefined) throw new Error(answer.error);
    },
  };
}

type Doc = Record<string, unknown> & { id: string };

/** A seeded generator (mulberry32), so that a failing run can be replayed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ChangeCounts {
  identitiesChanged: number;
  identitiesDeleted: number;
  identitiesAdded: number;
  accountsChanged: number;
  accountsDeleted: number;
  accountsAdded: number;
  accountsMoved: number;
  /** Direct reports of deleted identities, given a new manager. */
  reportsChanged: number;
}

/**
 * Change a fraction of the tenant at time `at`: identity attributes patched, account attributes
 * patched, accounts moved to another identity, added and deleted, identities added and deleted
 * (with their accounts; their direct reports get a new manager and a new `modified`, as a
 * platform refresh would give them).
 */
export function changeTenant(server: { store: Store }, fraction: number, at: string, seed = 7): ChangeCounts {
  const random = prng(seed);
  const { resources, db } = server.store;
  const ids = (db.prepare('SELECT id FROM identities ORDER BY id').all() as { id: string }[]).map((r) => r.id);
  const accountIds = (db.prepare('SELECT id FROM accounts ORDER BY id').all() as { id: string }[]).map((r) => r.id);
  const sample = <T>(list: T[], n: number): T[] => {
    const out = new Set<T>();
    while (out.size < Math.min(n, list.length)) out.add(list[Math.floor(random() * list.length)]!);
    return [...out];
  };
  const counts: ChangeCounts = { identitiesChanged: 0, identitiesDeleted: 0, identitiesAdded: 0, accountsChanged: 0, accountsDeleted: 0, accountsAdded: 0, accountsMoved: 0, reportsChanged: 0 };
  const n = Math.max(1, Math.round(ids.length * fraction));
  const m = Math.max(1, Math.round(accountIds.length * fraction));
  const deletedIdentities = new Set(sample(ids, Math.max(1, Math.round(n / 5))));
  const touchedAccounts = new Set<string>();
  db.transaction(() => {
    for (const id of sample(ids, n)) {
      if (deletedIdentities.has(id)) continue;
      const doc = resources.get('identities', id)! as Doc & { attributes: Record<string, unknown> };
      doc.attributes = { ...doc.attributes, title: `Changed ${counts.identitiesChanged}`, department: 'Snapshot Tests' };
      resources.put('identities', { ...doc, modified: at });
      counts.identitiesChanged++;
    }
    for (const id of sample(accountIds, m)) {
      const doc = resources.get('accounts', id) as (Doc & { identityId: string; attributes: Record<string, unknown> }) | null;
      if (doc === null || deletedIdentities.has(doc.identityId)) continue;
      touchedAccounts.add(id);
      if (counts.accountsChanged % 5 === 4) {
        const to = ids[Math.floor(random() * ids.length)]!;
        if (deletedIdentities.has(to)) continue;
        resources.put('accounts', { ...doc, identityId: to, modified: at });
        counts.accountsMoved++;
      } else {
        resources.put('accounts', { ...doc, attributes: { ...doc.attributes, snapshotTest: `v${counts.accountsChanged}` }, modified: at });
      }
      counts.accountsChanged++;
    }
    for (const id of sample(accountIds, Math.max(1, Math.round(m / 5)))) {
      if (touchedAccounts.has(id)) continue;
      if (resources.delete('accounts', id)) counts.accountsDeleted++;
    }
    for (const id of deletedIdentities) {
      db.prepare('DELETE FROM accounts WHERE identity_id = ?').run(id);
      for (const report of db.prepare('SELECT id FROM identities WHERE manager_id = ?').all(id) as { id: string }[]) {
        resources.put('identities', { ...resources.get('identities', report.id)!, managerId: null, modified: at });
        counts.reportsChanged++;
      }
      resources.delete('identities', id);
      counts.identitiesDeleted++;
    }
    const owner = ids.find((id) => !deletedIdentities.has(id))!;
    const source = (db.prepare('SELECT id FROM sources ORDER BY id LIMIT 1').get() as { id: string }).id;
    for (let k = 0; k < 3; k++) {
      const identityId = `ffffffff00000000000000000000000${k}`;
      resources.put('identities', { id: identityId, name: `new.person${k}`, attributes: { uid: `new.person${k}`, firstname: 'New', lastname: `Person${k}` }, managerId: owner, created: at, modified: at });
      counts.identitiesAdded++;
      for (const holder of [identityId, owner]) {
        resources.put('accounts', {
          id: `acct-new-${k}-${holder.slice(0, 8)}`, identityId: holder, sourceId: source, nativeIdentity: `new${k}`, name: `New Person${k}`,
          created: at, modified: at, hasEntitlements: false, attributes: { EMPLOYEE_ID: `new${k}` },
        });
        counts.accountsAdded++;
      }
    }
  })();
  return counts;
}
