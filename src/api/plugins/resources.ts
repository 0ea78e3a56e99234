// The resource area of the API listener (issue 8; platform-api.md §2.5–2.8, §4.4–4.8): one
// plugin registering the collections, sources and schemas, transforms, identity profiles,
// search and identity preview. It also adds what those need to the store: the SQL functions
// of the filter and search back ends, and the account-activity and source-schema tables.

import type { Database } from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codedError } from '../../errors/index.js';
import { registerSqlFunctions } from '../../filter/index.js';
import type { ApiContext } from '../context.js';
import { registerSearchFunctions } from '../search/index.js';
import { stableUuid } from '../store/seed.js';
import { accountsPlugin } from './accounts.js';
import { activitiesPlugin } from './activities.js';
import { publicIdentitiesPlugin } from './identities.js';
import { previewPlugin } from './preview.js';
import { profilesPlugin } from './profiles.js';
import { searchPlugin } from './search.js';
import { sourcesPlugin } from './sources.js';
import { transformsPlugin } from './transforms.js';

/**
 * Tables of part 2, created when missing (the store's migration list is part 1's; these
 * statements are idempotent so that a store written before them is brought forward on open).
 */
const RESOURCE_TABLES = `
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
  -- flattened into queries, so its indexes serve them) and \`modified\`, the document's own or
  -- else \`created\`, as the account view shows it. rowid stays the aggregation order.
  CREATE VIEW IF NOT EXISTS account_rows AS
    SELECT rowid AS rowid, id, identity_id, source_id, native_identity, name, created, has_entitlements, doc,
           COALESCE(json_extract(doc, '$.modified'), created) AS modified
    FROM accounts;
`;

/**
 * The public-identity fields as plain columns (platform-api.md §4.4: filters and sorters of
 * /public-identities), kept in step with the identities table by triggers. Reading them from the
 * JSON document costs a parse per row and field, which made a filtered page over 100,000
 * identities five times slower (docs/bench-api2.md). The triggers use built-in SQL functions
 * only, so any connection that writes identities keeps the columns right.
 */
const IDENTITY_COLUMNS = `
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
    INSERT OR REPLACE INTO identity_columns VALUES (${columnsOf('NEW')});
  END;
  CREATE TRIGGER IF NOT EXISTS identity_columns_update AFTER UPDATE ON identities BEGIN
    DELETE FROM identity_columns WHERE id = OLD.id;
    INSERT OR REPLACE INTO identity_columns VALUES (${columnsOf('NEW')});
  END;
  CREATE TRIGGER IF NOT EXISTS identity_columns_delete AFTER DELETE ON identities BEGIN
    DELETE FROM identity_columns WHERE id = OLD.id;
  END;
  INSERT OR IGNORE INTO identity_columns SELECT ${columnsOf('identities')} FROM identities WHERE id NOT IN (SELECT id FROM identity_columns);
  CREATE VIEW IF NOT EXISTS public_identity_rows AS
    SELECT i.id AS id, i.name AS name, i.doc AS doc, c.alias AS alias, c.email AS email, c.firstname AS firstname, c.lastname AS lastname, c.display AS display
    FROM identities i JOIN identity_columns c ON c.id = i.id;
`;

function columnsOf(row: string): string {
  const attr = (name: string) => `json_extract(${row}.doc, '$.attributes.${name}')`;
  return `${row}.id, ${row}.name, ${attr('email')}, ${attr('firstname')}, ${attr('lastname')}, COALESCE(${attr('displayName')}, ${row}.name)`;
}

function loadActivities(db: Database, fixtures: string | undefined): void {
  if (fixtures === undefined) return;
  const file = join(fixtures, 'account-activities.json');
  if (!existsSync(file)) return;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw codedError('API_STORE', `cannot read fixture ${file}: ${(cause as Error).message}`, { cause, details: { file } });
  }
  if (!Array.isArray(data) || !data.every((d) => d !== null && typeof d === 'object' && typeof (d as { id?: unknown }).id === 'string')) {
    throw codedError('API_STORE', `fixture ${file} must be an array of objects with a string id`, { details: { file } });
  }
  const insert = db.prepare('INSERT OR IGNORE INTO account_activities (id, name, type, created, modified, doc) VALUES (?, ?, ?, ?, ?, ?)');
  const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  db.transaction(() => {
    for (const a of data as Record<string, unknown>[]) insert.run(a.id, str(a.name), str(a.type), str(a.created), str(a.modified), JSON.stringify(a));
  })();
}

/** SQLite json_each type → source schema attribute type (reference §2.6: "for example STRING"). */
const JSON_TYPES: Readonly<Record<string, string>> = { true: 'BOOLEAN', false: 'BOOLEAN', integer: 'INT', real: 'LONG' };

/**
 * A source that has no schema gets an account schema derived from its accounts (a sample of
 * the first 1,000), as the platform's schema discovery would produce one.
 */
function deriveSchemas(db: Database, now: string): void {
  const sources = db.prepare('SELECT id, created FROM sources WHERE id NOT IN (SELECT source_id FROM source_schemas)').all() as { id: string; created: string | null }[];
  if (sources.length === 0) return;
  const sample = db.prepare(`SELECT j.key AS key, j.type AS type
    FROM (SELECT doc FROM accounts WHERE source_id = ? LIMIT 1000) a, json_each(a.doc, '$.attributes') j`);
  const insert = db.prepare('INSERT INTO source_schemas (id, source_id, name, created, modified, doc) VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const s of sources) {
      const attrs = new Map<string, { type: string; isMulti: boolean }>();
      for (const row of sample.all(s.id) as { key: string; type: string }[]) {
        const known = attrs.get(row.key) ?? { type: '', isMulti: false };
        if (row.type === 'array') known.isMulti = true;
        // The first non-null scalar decides the type; lists are lists of strings.
        if (known.type === '' && row.type !== 'null' && row.type !== 'array') known.type = JSON_TYPES[row.type] ?? 'STRING';
        attrs.set(row.key, known);
      }
      const names = [...attrs.keys()];
      const id = stableUuid('source-schema', s.id, 'account');
      const created = s.created ?? now;
      const doc = {
        id,
        name: 'account',
        nativeObjectType: 'User',
        identityAttribute: names[0] ?? null,
        displayAttribute: names[0] ?? null,
        hierarchyAttribute: null,
        includePermissions: false,
        features: [],
        configuration: {},
        attributes: names.map((name) => ({ name, type: attrs.get(name)!.type || 'STRING', schema: null, description: '', isMulti: attrs.get(name)!.isMulti, isEntitlement: false, isGroup: false })),
        created,
        modified: created,
      };
      insert.run(id, s.id, 'account', created, created, JSON.stringify(doc));
    }
  })();
}

/** Bring the store forward for part 2 (idempotent). */
export function prepareResourceStore(db: Database, options: { fixtures: string | undefined; now: string }): void {
  registerSqlFunctions(db);
  registerSearchFunctions(db);
  const hadActivities = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'account_activities'").get() !== undefined;
  db.exec(RESOURCE_TABLES);
  db.exec(IDENTITY_COLUMNS);
  if (!hadActivities) loadActivities(db, options.fixtures);
  deriveSchemas(db, options.now);
}

export async function resourcesPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  prepareResourceStore(ctx.store.db, { fixtures: ctx.options.fixtures, now: new Date(ctx.now()).toISOString() });
  for (const plugin of [publicIdentitiesPlugin, accountsPlugin, activitiesPlugin, sourcesPlugin, transformsPlugin, profilesPlugin, searchPlugin, previewPlugin]) {
    await app.register(plugin, { ctx });
  }
}
