// The embedded store (issue 7): better-sqlite3, in memory by default or a file in WAL mode,
// migrated on open, seeded from a fixtures directory the first time it is created. Reopening
// the same file keeps everything (the seed is not replayed over later changes).

import Database from 'better-sqlite3';
import { codedError } from '../../errors.js';
import { IdentityRepo } from './identity-repo.js';
import { migrate } from './migrations.js';
import { ResourceRepo } from './resource-repo.js';

export interface StoreOptions {
  /** SQLite file; absent or ':memory:' for an in-memory store. */
  file?: string;
}

export class Store {
  readonly db: Database.Database;
  readonly identity: IdentityRepo;
  readonly resources: ResourceRepo;
  /** True when this open created the schema (a new store, to be seeded). */
  readonly created: boolean;

  private constructor(db: Database.Database, created: boolean) {
    this.db = db;
    this.created = created;
    this.identity = new IdentityRepo(db);
    this.resources = new ResourceRepo(db);
  }

  static open(options: StoreOptions = {}): Store {
    const file = options.file ?? ':memory:';
    let db: Database.Database;
    try {
      db = new Database(file);
    } catch (cause) {
      throw codedError('API_STORE', `cannot open the store ${file}: ${(cause as Error).message}`, { cause, details: { file } });
    }
    try {
      if (file !== ':memory:') db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      db.pragma('synchronous = NORMAL');
      const before = db.pragma('user_version', { simple: true }) as number;
      migrate(db);
      return new Store(db, before === 0);
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

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
