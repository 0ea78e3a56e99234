// The embedded store: better-sqlite3, in memory by default or a file in WAL mode,
// migrated on open (migrations.ts holds every table, index, trigger and view), seeded from a fixtures directory the first time it is created. Reopening
// the same file keeps everything (the seed is not replayed over later changes).

import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, openSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { codedError } from '../../errors/index.js';
import { registerSqlFunctions } from '../../filter/index.js';
import { registerSearchFunctions } from '../../filter/search/index.js';
import { AuthRepo } from './auth-repo.js';
import { migrate } from './migrations.js';
import { ResourceRepo } from './resource-repo.js';
import { writeFileWhole } from '../../json/write-file.js';

export interface StoreOptions {
  /** SQLite file; absent or ':memory:' for an in-memory store. */
  file?: string;
}

/**
 * The store holds password and secret hashes and the tenant's data: its file is created readable
 * by its owner only (0600), and an existing file readable by others is narrowed to that. SQLite
 * gives its -wal and -shm files the database file's permissions.
 */
function ownerOnly(file: string): void {
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(f) && (statSync(f).mode & 0o077) !== 0) chmodSync(f, 0o600);
  }
}

/**
 * Write `data` to `file` readable by its owner only, atomically (a temporary file renamed over
 * it), so that a crash never leaves a half-written secret behind.
 */
export function writeOwnerOnly(file: string, data: string): void {
  writeFileWhole(file, data, 0o600);
}

export class Store {
  readonly db: Database.Database;
  readonly identity: AuthRepo;
  readonly resources: ResourceRepo;
  /** True when this open created the schema (a new store, to be seeded). */
  readonly created: boolean;

  /** The SQLite file, or undefined for an in-memory store. */
  readonly file: string | undefined;

  private constructor(db: Database.Database, created: boolean, file: string | undefined) {
    this.db = db;
    this.created = created;
    this.file = file;
    this.identity = new AuthRepo(db);
    this.resources = new ResourceRepo(db);
  }

  static open(options: StoreOptions = {}): Store {
    const file = options.file ?? ':memory:';
    let db: Database.Database;
    try {
      if (file !== ':memory:') ownerOnly(file);
      db = new Database(file);
    } catch (cause) {
      throw codedError('API_STORE', `cannot open the store ${file}: ${(cause as Error).message}`, { cause, details: { file } });
    }
    try {
      if (file !== ':memory:') db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      db.pragma('synchronous = NORMAL');
      // The schema's triggers fold non-ASCII values with the filter module's filter_fold.
      registerSqlFunctions(db);
      const before = db.pragma('user_version', { simple: true }) as number;
      migrate(db);
      // The functions the SQL back ends of the filter and search languages call.
      registerSqlFunctions(db);
      registerSearchFunctions(db);
      return new Store(db, before === 0, file === ':memory:' ? undefined : file);
    } catch (cause) {
      db.close();
      throw codedError('API_STORE', `cannot migrate the store ${file}: ${(cause as Error).message}`, { cause, details: { file } });
    }
  }

  /** Whether `file` holds a store (a migrated schema). Opened read-only: nothing is created or changed. */
  static holdsStore(file: string): boolean {
    let db: Database.Database;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true });
    } catch {
      return false;
    }
    try {
      return (db.pragma('user_version', { simple: true }) as number) > 0;
    } catch {
      return false;
    } finally {
      db.close();
    }
  }

  getMeta(key: string): string | null {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value ?? null;
  }

  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /** A random 32-byte key kept in the store under `name`, created on first use. */
  secretKey(name: string): Buffer {
    let value = this.getMeta(name);
    if (value === null) {
      value = randomBytes(32).toString('base64url');
      this.setMeta(name, value);
    }
    return Buffer.from(value, 'base64url');
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
