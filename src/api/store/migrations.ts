// Schema migrations of the embedded store, applied in order inside one transaction each and
// tracked with SQLite's `user_version`. Append new migrations; never edit a shipped one (a file
// store written by an older version is migrated forward on open).

import type { Database } from 'better-sqlite3';

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'tenant metadata, users, OAuth clients and PATs, authorization codes, refresh tokens, legacy API keys',
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        login TEXT NOT NULL UNIQUE COLLATE NOCASE,
        name TEXT NOT NULL,
        email TEXT,
        password_hash TEXT,
        capabilities TEXT NOT NULL DEFAULT '[]',
        identity_id TEXT
      );
      -- A PAT is a client of kind PAT with an owner, so one table serves both.
      CREATE TABLE oauth_clients (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('CLIENT', 'PAT')),
        name TEXT NOT NULL,
        description TEXT,
        enabled INTEGER NOT NULL DEFAULT 1,
        created TEXT NOT NULL,
        modified TEXT NOT NULL,
        grant_types TEXT NOT NULL,
        redirect_uris TEXT NOT NULL DEFAULT '[]',
        scope TEXT,
        secret_hash TEXT NOT NULL,
        owner_user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
        access_token_validity INTEGER,
        refresh_token_validity INTEGER,
        last_used TEXT,
        extra TEXT NOT NULL DEFAULT '{}'
      );
      CREATE INDEX oauth_clients_owner ON oauth_clients (owner_user_id) WHERE kind = 'PAT';
      CREATE TABLE authorization_codes (
        code_hash TEXT PRIMARY KEY,
        client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        redirect_uri TEXT NOT NULL,
        scope TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        used_at INTEGER
      );
      CREATE TABLE refresh_tokens (
        jti TEXT PRIMARY KEY,
        family TEXT NOT NULL,
        client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        scope TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        rotated_at INTEGER,
        revoked INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX refresh_tokens_family ON refresh_tokens (family);
      CREATE TABLE nonemployee_api_keys (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        key_hash TEXT NOT NULL,
        -- The first characters of the key, so that a presented key is checked against a few
        -- hashes rather than all of them.
        lookup TEXT NOT NULL,
        created TEXT NOT NULL
      );
      CREATE INDEX nonemployee_api_keys_lookup ON nonemployee_api_keys (lookup);
    `,
  },
  {
    version: 2,
    description: 'tenant resources seeded from the fixtures (sources, identities, accounts, transforms, identity profiles)',
    // Each resource keeps its full JSON document in `doc`; the columns beside it are the fields
    // that collections filter and sort on, indexed so that the SQL back end of the filter module
    // can push predicates down.
    sql: `
      CREATE TABLE sources (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        type TEXT,
        created TEXT,
        modified TEXT,
        doc TEXT NOT NULL
      );
      CREATE INDEX sources_name ON sources (name COLLATE NOCASE);
      CREATE TABLE identities (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        manager_id TEXT,
        doc TEXT NOT NULL
      );
      CREATE INDEX identities_name ON identities (name COLLATE NOCASE);
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        identity_id TEXT NOT NULL,
        source_id TEXT NOT NULL,
        native_identity TEXT NOT NULL,
        name TEXT NOT NULL,
        created TEXT NOT NULL,
        has_entitlements INTEGER NOT NULL DEFAULT 0,
        doc TEXT NOT NULL
      );
      CREATE INDEX accounts_identity_source ON accounts (identity_id, source_id);
      CREATE TABLE transforms (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        internal INTEGER NOT NULL DEFAULT 0,
        doc TEXT NOT NULL
      );
      CREATE TABLE identity_profiles (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        doc TEXT NOT NULL
      );
    `,
  },
  {
    version: 3,
    description: "an index on accounts' modified time, for incremental copies (filters=modified ge …)",
    // The expression is the `modified` the account view shows (the document's own, else
    // `created`), so that the filter back end's text range on that column is served by it. Only
    // built-in SQL, so that any connection can write accounts.
    sql: `
      CREATE INDEX accounts_modified ON accounts (COALESCE(json_extract(doc, '$.modified'), created));
    `,
  },
];

/** Bring `db` to the latest schema version; returns the versions applied. */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  const current = db.pragma('user_version', { simple: true }) as number;
  const applied: number[] = [];
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
    applied.push(m.version);
  }
  return applied;
}
