// Schema migrations of the embedded store, applied in order inside one transaction each and
// tracked with SQLite's `user_version`. Append new migrations; never edit a shipped one (a file
// store written by an older version is migrated forward on open).

import type { Database } from 'better-sqlite3';
import { foldedKey, publicIdentityItem, rowOf, ROW_COLUMNS, SHOWN, VALUE_COLUMNS, valuesOf } from './public-identity-sql.js';

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

/** Every row's page item from its shown values and its manager's (migration 7, and a bulk load's fill). */
const WRITE_ITEMS = `UPDATE public_identity_columns SET item = ${publicIdentityItem('public_identity_columns', { id: 'public_identity_columns.manager_ref', name: 'public_identity_columns.manager_name' })};`;

/**
 * Fill an empty public_identity_columns from the identities table, as migrations 6 and 7 do: what the
 * insert trigger does row by row, in three statements (a bulk load sets the trigger aside).
 */
export const PUBLIC_IDENTITY_COLUMNS_FILL = `
  INSERT INTO public_identity_columns (${ROW_COLUMNS}) ${rowOf('identities')};
  UPDATE public_identity_columns SET (manager_ref, manager_name) = (SELECT m.id, m.shown_name FROM public_identity_columns m WHERE m.id = public_identity_columns.manager_id);
  ${WRITE_ITEMS}
`;

/** An identity document's `created` or `modified` when it is text, else NULL: the search plugin selects exactly this (migration 9). */
export const IDENTITY_TIME = (member: 'created' | 'modified'): string => `CASE json_type("doc", '$.${member}') WHEN 'text' THEN json_extract("doc", '$.${member}') END`;

/**
 * An account's `modified`: the document's own, else its `created` column. The one place the rule
 * is written: the account_rows view shows it (and the API's account view reads it from there),
 * and the index of migration 5 is on this very expression so that SQLite matches the two.
 */
export const ACCOUNT_MODIFIED = "COALESCE(json_extract(doc, '$.modified'), created)";

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
    description: 'account activities, source schemas, the account and public-identity views, and the public-identity columns kept by triggers',
    // Stores written before this migration existed got these objects at server start, with the
    // store still at version 2: every statement is IF NOT EXISTS so that such a store upgrades.
    // identity_columns holds the public-identity fields as plain columns (the filters and
    // sorters of GET /v3/public-identities): reading them from the JSON document costs a parse per
    // row and field, which made a filtered page over 100,000 identities five times slower
    // (docs/bench-api-collections.md). Its triggers use built-in SQL functions only, so any connection that
    // writes identities keeps the columns right.
    sql: `
      CREATE TABLE IF NOT EXISTS account_activities (
        id TEXT PRIMARY KEY,
        name TEXT,
        type TEXT,
        created TEXT,
        modified TEXT,
        doc TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS account_activities_created ON account_activities (created);
      CREATE TABLE IF NOT EXISTS source_schemas (
        id TEXT PRIMARY KEY,
        source_id TEXT NOT NULL,
        name TEXT NOT NULL,
        created TEXT,
        modified TEXT,
        doc TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS source_schemas_source ON source_schemas (source_id, name);
      CREATE INDEX IF NOT EXISTS identities_manager ON identities (manager_id);
      -- Search sorts by name then id in binary order: this index serves the order and the
      -- searchAfter keyset, so that a deep page costs what the first one does.
      CREATE INDEX IF NOT EXISTS identities_name_id ON identities (name, id);
      -- Accounts as the collection filters and sorts them: the table's columns (the view is
      -- flattened into queries, so its indexes serve them) and modified, the document's own or
      -- else created, as the account view shows it. rowid stays the aggregation order.
      CREATE VIEW IF NOT EXISTS account_rows AS
        SELECT rowid AS rowid, id, identity_id, source_id, native_identity, name, created, has_entitlements, doc,
               ${ACCOUNT_MODIFIED} AS modified
        FROM accounts;
      CREATE TABLE IF NOT EXISTS identity_columns (
        id TEXT PRIMARY KEY,
        alias TEXT,
        email TEXT,
        firstname TEXT,
        lastname TEXT,
        display TEXT
      );
      -- Covering: a filtered, name-sorted page walks this index alone and reads only the matches.
      CREATE INDEX IF NOT EXISTS identity_columns_display ON identity_columns (display, id, alias, email, firstname, lastname);
      CREATE TRIGGER IF NOT EXISTS identity_columns_insert AFTER INSERT ON identities BEGIN
        INSERT OR REPLACE INTO identity_columns VALUES (NEW.id, NEW.name, json_extract(NEW.doc, '$.attributes.email'), json_extract(NEW.doc, '$.attributes.firstname'), json_extract(NEW.doc, '$.attributes.lastname'), COALESCE(json_extract(NEW.doc, '$.attributes.displayName'), NEW.name));
      END;
      CREATE TRIGGER IF NOT EXISTS identity_columns_update AFTER UPDATE ON identities BEGIN
        DELETE FROM identity_columns WHERE id = OLD.id;
        INSERT OR REPLACE INTO identity_columns VALUES (NEW.id, NEW.name, json_extract(NEW.doc, '$.attributes.email'), json_extract(NEW.doc, '$.attributes.firstname'), json_extract(NEW.doc, '$.attributes.lastname'), COALESCE(json_extract(NEW.doc, '$.attributes.displayName'), NEW.name));
      END;
      CREATE TRIGGER IF NOT EXISTS identity_columns_delete AFTER DELETE ON identities BEGIN
        DELETE FROM identity_columns WHERE id = OLD.id;
      END;
      INSERT OR IGNORE INTO identity_columns
        SELECT id, name, json_extract(doc, '$.attributes.email'), json_extract(doc, '$.attributes.firstname'), json_extract(doc, '$.attributes.lastname'), COALESCE(json_extract(doc, '$.attributes.displayName'), name)
        FROM identities WHERE id NOT IN (SELECT id FROM identity_columns);
      CREATE VIEW IF NOT EXISTS public_identity_rows AS
        SELECT i.id AS id, i.name AS name, i.doc AS doc, c.alias AS alias, c.email AS email, c.firstname AS firstname, c.lastname AS lastname, c.display AS display
        FROM identities i JOIN identity_columns c ON c.id = i.id;
    `,
  },
  {
    version: 4,
    description: 'public-identity fields as plain columns with case-folded keys, kept in step with identities by triggers',
    // The fields /public-identities filters and sorts on (src/api/plugins/identities.ts), read
    // once per write instead of out of the JSON document per row read. Each filterable field has
    // a key for the case-ignoring operators: the value when it is ASCII, else its fold, declared
    // COLLATE NOCASE (src/filter/to-sql.ts explains why that compares like the fold), so the
    // filters compare in SQLite and an index per field serves a filtered page in name order
    // (docs/bench-api-collections.md). The fold of non-ASCII values runs `filter_fold`, which Store.open
    // registers on its connection before migrating. This replaces the `identity_columns` table of
    // migration 3, which has no keys.
    sql: `
      DROP VIEW IF EXISTS public_identity_rows;
      DROP TRIGGER IF EXISTS identity_columns_insert;
      DROP TRIGGER IF EXISTS identity_columns_update;
      DROP TRIGGER IF EXISTS identity_columns_delete;
      DROP TABLE IF EXISTS identity_columns;
      CREATE TABLE public_identity_columns (
        id TEXT PRIMARY KEY,
        alias TEXT,
        email TEXT,
        firstname TEXT,
        lastname TEXT,
        display TEXT,
        alias_key TEXT COLLATE NOCASE GENERATED ALWAYS AS (${foldedKey('alias')}) STORED,
        email_key TEXT COLLATE NOCASE GENERATED ALWAYS AS (${foldedKey('email')}) STORED,
        firstname_key TEXT COLLATE NOCASE GENERATED ALWAYS AS (${foldedKey('firstname')}) STORED,
        lastname_key TEXT COLLATE NOCASE GENERATED ALWAYS AS (${foldedKey('lastname')}) STORED
      );
      -- Covering: a name-sorted page, filtered or not, walks this index and reads only the matches.
      CREATE INDEX public_identity_columns_display ON public_identity_columns (display, id, alias_key, email_key, firstname_key, lastname_key);
      -- An eq or sw filter on a field seeks its key. First and last names repeat, so their keys
      -- are indexed in name order, both ways (a descending name order keeps the ascending id
      -- tiebreak, which one index cannot give both ways without a sort), with the other name's
      -- key, so that a filter on both reads the index alone: the matches come already sorted,
      -- and a name-sorted page stops at its end. Aliases and emails are about unique: their few
      -- matches are sorted as found.
      CREATE INDEX public_identity_columns_alias ON public_identity_columns (alias_key);
      CREATE INDEX public_identity_columns_email ON public_identity_columns (email_key);
      CREATE INDEX public_identity_columns_firstname ON public_identity_columns (firstname_key, display, id, lastname_key);
      CREATE INDEX public_identity_columns_firstname_desc ON public_identity_columns (firstname_key, display DESC, id, lastname_key);
      CREATE INDEX public_identity_columns_lastname ON public_identity_columns (lastname_key, display, id, firstname_key);
      CREATE INDEX public_identity_columns_lastname_desc ON public_identity_columns (lastname_key, display DESC, id, firstname_key);
      CREATE TRIGGER public_identity_columns_insert AFTER INSERT ON identities BEGIN
        INSERT OR REPLACE INTO public_identity_columns (${VALUE_COLUMNS}) VALUES (${valuesOf('NEW')});
      END;
      CREATE TRIGGER public_identity_columns_update AFTER UPDATE ON identities BEGIN
        -- Deleted first: an upsert's conflict policy overrides the OR REPLACE below.
        DELETE FROM public_identity_columns WHERE id = OLD.id;
        INSERT OR REPLACE INTO public_identity_columns (${VALUE_COLUMNS}) VALUES (${valuesOf('NEW')});
      END;
      CREATE TRIGGER public_identity_columns_delete AFTER DELETE ON identities BEGIN
        DELETE FROM public_identity_columns WHERE id = OLD.id;
      END;
      INSERT INTO public_identity_columns (${VALUE_COLUMNS}) SELECT ${valuesOf('identities')} FROM identities;
      -- The id is the columns table's, so that its indexes serve the id tiebreak of every order.
      CREATE VIEW public_identity_rows AS
        SELECT c.id AS id, i.name AS name, i.doc AS doc, c.alias AS alias, c.email AS email, c.firstname AS firstname,
               c.lastname AS lastname, c.display AS display, c.alias_key AS alias_key, c.email_key AS email_key,
               c.firstname_key AS firstname_key, c.lastname_key AS lastname_key
        FROM identities i JOIN public_identity_columns c ON c.id = i.id;
    `,
  },
  {
    version: 5,
    description: "an index on accounts' modified time, for incremental copies (filters=modified ge …)",
    // The expression is the `modified` the account view shows (the document's own, else
    // `created`), so that the filter back end's text range on that column is served by it. Only
    // built-in SQL, so that any connection can write accounts.
    sql: `
      CREATE INDEX IF NOT EXISTS accounts_modified ON accounts (${ACCOUNT_MODIFIED});
    `,
  },
  {
    version: 6,
    description: 'public identities as the list shows them (name, email, status, manager) in their columns and in the name-ordered indexes, so that a page reads one index',
    // GET /v3/public-identities answers id, name, alias, email, status and manager
    // (src/api/plugins/identities.ts). Reading those from each identity's document and its
    // manager's cost several times what finding the page did; with them here, and in the indexes
    // that serve a name-ordered page, a page is one walk of one index (docs/bench-api-collections.md). The
    // values are the documents' own as the list shows them: the display name when it is text,
    // else the name; the email when it is text; whether the lifecycle state (else the cloud
    // lifecycle state) is absent or 'active'; the manager's id when it is non-empty text, and,
    // while that identity exists, its id and shown name. The folded keys are plain columns that
    // the triggers fill (generated columns in a WHERE clause keep SQLite from reading an index
    // alone). The table holds nothing but what the documents give, so it is rebuilt from them.
    sql: `
      DROP VIEW IF EXISTS public_identity_rows;
      DROP TRIGGER IF EXISTS public_identity_columns_insert;
      DROP TRIGGER IF EXISTS public_identity_columns_update;
      DROP TRIGGER IF EXISTS public_identity_columns_delete;
      DROP TABLE IF EXISTS public_identity_columns;
      CREATE TABLE public_identity_columns (
        id TEXT PRIMARY KEY,
        alias TEXT,
        email TEXT,
        firstname TEXT,
        lastname TEXT,
        display TEXT,
        alias_key TEXT COLLATE NOCASE,
        email_key TEXT COLLATE NOCASE,
        firstname_key TEXT COLLATE NOCASE,
        lastname_key TEXT COLLATE NOCASE,
        shown_name TEXT,
        shown_email TEXT,
        active INTEGER,
        manager_id TEXT,
        manager_ref TEXT,
        manager_name TEXT
      );
      INSERT INTO public_identity_columns (${ROW_COLUMNS}) ${rowOf('identities')};
      UPDATE public_identity_columns SET (manager_ref, manager_name) = (SELECT m.id, m.shown_name FROM public_identity_columns m WHERE m.id = public_identity_columns.manager_id);
      -- The indexes of migration 4, with what a page shows after their keys.
      CREATE INDEX public_identity_columns_display ON public_identity_columns (display, id, alias_key, email_key, firstname_key, lastname_key, ${SHOWN});
      CREATE INDEX public_identity_columns_alias ON public_identity_columns (alias_key);
      CREATE INDEX public_identity_columns_email ON public_identity_columns (email_key);
      CREATE INDEX public_identity_columns_firstname ON public_identity_columns (firstname_key, display, id, lastname_key, ${SHOWN});
      CREATE INDEX public_identity_columns_firstname_desc ON public_identity_columns (firstname_key, display DESC, id, lastname_key, ${SHOWN});
      CREATE INDEX public_identity_columns_lastname ON public_identity_columns (lastname_key, display, id, firstname_key, ${SHOWN});
      CREATE INDEX public_identity_columns_lastname_desc ON public_identity_columns (lastname_key, display DESC, id, firstname_key, ${SHOWN});
      -- A manager's reports, whose manager columns follow it.
      CREATE INDEX public_identity_columns_manager ON public_identity_columns (manager_id);
      CREATE TRIGGER public_identity_columns_insert AFTER INSERT ON identities BEGIN
        INSERT OR REPLACE INTO public_identity_columns (${ROW_COLUMNS}, manager_ref, manager_name)
          SELECT r.*, m.id, m.shown_name FROM (${rowOf('NEW')}) r LEFT JOIN public_identity_columns m ON m.id = r.manager_id;
        UPDATE public_identity_columns SET (manager_ref, manager_name) = (SELECT id, shown_name FROM public_identity_columns WHERE id = NEW.id) WHERE manager_id = NEW.id;
      END;
      CREATE TRIGGER public_identity_columns_update AFTER UPDATE ON identities BEGIN
        -- Deleted first: an upsert's conflict policy overrides the OR REPLACE below.
        DELETE FROM public_identity_columns WHERE id = OLD.id;
        INSERT OR REPLACE INTO public_identity_columns (${ROW_COLUMNS}, manager_ref, manager_name)
          SELECT r.*, m.id, m.shown_name FROM (${rowOf('NEW')}) r LEFT JOIN public_identity_columns m ON m.id = r.manager_id;
        UPDATE public_identity_columns SET manager_ref = NULL, manager_name = NULL WHERE manager_id = OLD.id;
        UPDATE public_identity_columns SET (manager_ref, manager_name) = (SELECT id, shown_name FROM public_identity_columns WHERE id = NEW.id) WHERE manager_id = NEW.id;
      END;
      CREATE TRIGGER public_identity_columns_delete AFTER DELETE ON identities BEGIN
        DELETE FROM public_identity_columns WHERE id = OLD.id;
        UPDATE public_identity_columns SET manager_ref = NULL, manager_name = NULL WHERE manager_id = OLD.id;
      END;
      -- The identities row is joined only for its document, by its key (a LEFT JOIN that a
      -- query reading no document leaves out).
      CREATE VIEW public_identity_rows AS
        SELECT c.id AS id, c.alias AS alias, c.email AS email, c.firstname AS firstname, c.lastname AS lastname,
               c.display AS display, c.alias_key AS alias_key, c.email_key AS email_key,
               c.firstname_key AS firstname_key, c.lastname_key AS lastname_key,
               ${SHOWN.split(', ').map((n) => `c.${n} AS ${n}`).join(', ')}, i.name AS name, i.doc AS doc
        FROM public_identity_columns c
        LEFT JOIN identities i ON i.id = c.id;
    `,
  },
  {
    version: 7,
    description: 'each public identity as its page item, JSON text kept by the triggers, in the name-ordered indexes in place of the shown values',
    // Writing 250 items with json_object on every request cost more than walking the index to
    // find them (docs/bench-api-collections.md). The item is written once per write of the identity or of
    // its manager instead, by the statements that already write the shown values, and a page
    // concatenates the stored texts. It is a plain column: SQLite does not read a generated
    // column out of an index, so an index holding one is no longer covering. The shown values
    // stay in the table, for the reports' manager names.
    sql: `
      DROP VIEW IF EXISTS public_identity_rows;
      DROP TRIGGER IF EXISTS public_identity_columns_insert;
      DROP TRIGGER IF EXISTS public_identity_columns_update;
      DROP TRIGGER IF EXISTS public_identity_columns_delete;
      DROP INDEX IF EXISTS public_identity_columns_display;
      DROP INDEX IF EXISTS public_identity_columns_firstname;
      DROP INDEX IF EXISTS public_identity_columns_firstname_desc;
      DROP INDEX IF EXISTS public_identity_columns_lastname;
      DROP INDEX IF EXISTS public_identity_columns_lastname_desc;
      ALTER TABLE public_identity_columns ADD COLUMN item TEXT;
      ${WRITE_ITEMS}
      CREATE INDEX public_identity_columns_display ON public_identity_columns (display, id, alias_key, email_key, firstname_key, lastname_key, item);
      CREATE INDEX public_identity_columns_firstname ON public_identity_columns (firstname_key, display, id, lastname_key, item);
      CREATE INDEX public_identity_columns_firstname_desc ON public_identity_columns (firstname_key, display DESC, id, lastname_key, item);
      CREATE INDEX public_identity_columns_lastname ON public_identity_columns (lastname_key, display, id, firstname_key, item);
      CREATE INDEX public_identity_columns_lastname_desc ON public_identity_columns (lastname_key, display DESC, id, firstname_key, item);
      CREATE TRIGGER public_identity_columns_insert AFTER INSERT ON identities BEGIN
        ${writeRow('NEW')}
        ${followManager('NEW.id')}
      END;
      CREATE TRIGGER public_identity_columns_update AFTER UPDATE ON identities BEGIN
        -- Deleted first: an upsert's conflict policy overrides the OR REPLACE below.
        DELETE FROM public_identity_columns WHERE id = OLD.id;
        ${writeRow('NEW')}
        ${loseManager('OLD.id')}
        ${followManager('NEW.id')}
      END;
      CREATE TRIGGER public_identity_columns_delete AFTER DELETE ON identities BEGIN
        DELETE FROM public_identity_columns WHERE id = OLD.id;
        ${loseManager('OLD.id')}
      END;
      CREATE VIEW public_identity_rows AS
        SELECT c.id AS id, c.alias AS alias, c.email AS email, c.firstname AS firstname, c.lastname AS lastname,
               c.display AS display, c.alias_key AS alias_key, c.email_key AS email_key,
               c.firstname_key AS firstname_key, c.lastname_key AS lastname_key,
               ${SHOWN.split(', ').map((n) => `c.${n} AS ${n}`).join(', ')}, c.item AS item, i.name AS name, i.doc AS doc
        FROM public_identity_columns c
        LEFT JOIN identities i ON i.id = c.id;
    `,
  },
  {
    version: 8,
    description: 'an epoch of the users and OAuth clients, raised by every write of them, so that a resolved token can be reused while it is current',
    // Every API call resolves its token to a client, a user and rights (src/api/auth/
    // authenticate.ts); the server keeps what it resolved with the epoch it read first, and
    // resolves again once the epoch has moved. The triggers run on every connection that writes
    // these tables (another server on the same file, the sqlite3 shell), so a deletion, a
    // disabled client or a changed capability takes effect on the next request wherever it was
    // written. Any write counts, a client's last use included: tokens are granted far less often
    // than they are used, and a list of the columns that matter would have to follow the schema.
    // IF NOT EXISTS, as in migration 3: a store whose version was set back runs this again.
    sql: `
      CREATE TABLE IF NOT EXISTS auth_epoch (n INTEGER NOT NULL);
      INSERT INTO auth_epoch (n) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM auth_epoch);
${['users', 'oauth_clients'].flatMap((table) => ['INSERT', 'UPDATE', 'DELETE'].map((op) => `      CREATE TRIGGER IF NOT EXISTS auth_epoch_${table}_${op.toLowerCase()} AFTER ${op} ON ${table} BEGIN UPDATE auth_epoch SET n = n + 1; END;`)).join('\n')}
    `,
  },
  {
    version: 9,
    description: "an index of identities' ids with their documents' created and modified times, so that a search page asking for no more reads it alone",
    // The expressions are the ones the search plugin selects for a hit's `created` and
    // `modified` (text values only, src/api/plugins/search.ts): SQLite matches them to the index
    // and reads a page of id-ordered hits from it without parsing a document.
    sql: `
      CREATE INDEX IF NOT EXISTS identities_times ON identities (id, ${IDENTITY_TIME('modified')}, ${IDENTITY_TIME('created')});
    `,
  },
];

/** Migration 7: write the row of an identities row (`NEW`), its manager (when it exists) and its item. */
function writeRow(row: string): string {
  return `INSERT OR REPLACE INTO public_identity_columns (${ROW_COLUMNS}, manager_ref, manager_name, item)
          SELECT r.*, m.id, m.shown_name, ${publicIdentityItem('r', { id: 'm.id', name: 'm.shown_name' })}
          FROM (${rowOf(row)}) r LEFT JOIN public_identity_columns m ON m.id = r.manager_id;`;
}

/** Migration 7: the reports of the identity `id` show it as their manager, in their items too. */
function followManager(id: string): string {
  const report = 'public_identity_columns';
  return `UPDATE ${report} SET (manager_ref, manager_name, item) =
          (SELECT m.id, m.shown_name, ${publicIdentityItem(report, { id: 'm.id', name: 'm.shown_name' })} FROM public_identity_columns m WHERE m.id = ${id})
          WHERE manager_id = ${id};`;
}

/** Migration 7: the reports of the identity `id`, which is gone, show no manager. */
function loseManager(id: string): string {
  return `UPDATE public_identity_columns SET manager_ref = NULL, manager_name = NULL, item = ${publicIdentityItem('public_identity_columns', null)}
          WHERE manager_id = ${id};`;
}

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
