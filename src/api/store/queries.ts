// The statements the API's endpoints run over the store beside the generic ones of
// resource-repo.ts and the collections: each a function of the database (never of a request), so
// that the store alone knows its tables and columns. Statements are reused per connection
// (providers/sql-statements.ts).

import type { Database } from 'better-sqlite3';
import { prepared } from '../../providers/sql-statements.js';

type Row = Record<string, unknown>;

const parsed = <T = Row>(rows: unknown[]): T[] => (rows as { doc: string }[]).map((r) => JSON.parse(r.doc) as T);
const parsedOne = <T = Row>(row: unknown): T | null => (row === undefined ? null : (JSON.parse((row as { doc: string }).doc) as T));

/** The names of every stored transform. */
export function transformNames(db: Database): Set<string> {
  return new Set((prepared(db, 'SELECT name FROM transforms').all() as { name: string }[]).map((r) => r.name));
}

/** Every stored transform document. */
export function transformDocs(db: Database): Row[] {
  return parsed(prepared(db, 'SELECT doc FROM transforms').all());
}

/** Every stored identity profile document, by name. */
export function profileDocs(db: Database): Row[] {
  return parsed(prepared(db, 'SELECT doc FROM identity_profiles ORDER BY name').all());
}

export type SourceSummary = { name: string; authoritative: boolean };

/** Each source's name and whether it is authoritative, by source id. */
export function sourceSummaries(db: Database): Map<string, SourceSummary> {
  const rows = prepared(db, `SELECT id, name, json_extract(doc, '$.authoritative') AS authoritative FROM sources`).all() as { id: string; name: string; authoritative: number | null }[];
  return new Map(rows.map((r) => [r.id, { name: r.name, authoritative: r.authoritative === 1 }]));
}

/**
 * One account with the `modified` its rows show (the account_rows view: the document's own,
 * else its `created`, migrations.ts), or null when there is none.
 */
export function accountRow(db: Database, id: string): { doc: string; modified: unknown } | null {
  return (prepared(db, 'SELECT doc, modified FROM account_rows WHERE id = ?').get(id) as { doc: string; modified: unknown } | undefined) ?? null;
}

/** What the account list selects of account_rows: the document and its `modified`. */
export const ACCOUNT_SELECT = 'doc, modified';

/** The account activity `id`, or null. */
export function activityDoc(db: Database, id: string): Row | null {
  return parsedOne(prepared(db, 'SELECT doc FROM account_activities WHERE id = ?').get(id));
}

/** The schemas of a source, by name then id. */
export function sourceSchemaDocs(db: Database, sourceId: string): Row[] {
  return parsed(prepared(db, 'SELECT doc FROM source_schemas WHERE source_id = ? ORDER BY name, id').all(sourceId));
}

/** One schema of a source, or null. */
export function sourceSchemaDoc(db: Database, sourceId: string, schemaId: string): Row | null {
  return parsedOne(prepared(db, 'SELECT doc FROM source_schemas WHERE id = ? AND source_id = ?').get(schemaId, sourceId));
}

/** Whether a source other than `id` has the name `name`, in any case. */
export function sourceNameTaken(db: Database, name: string, id: string): boolean {
  return prepared(db, 'SELECT id FROM sources WHERE name = ? COLLATE NOCASE AND id <> ?').get(name, id) !== undefined;
}

/** Replace a source's schema document (its id and `modified` are the document's). */
export function updateSourceSchema(db: Database, sourceId: string, schema: Row & { modified: string }): void {
  db.prepare('UPDATE source_schemas SET doc = ?, modified = ? WHERE id = ? AND source_id = ?').run(JSON.stringify(schema), schema.modified, String(schema.id), sourceId);
}

/** The identity documents of `ids` (in no particular order). */
export function identityDocs<T = Row>(db: Database, ids: readonly string[]): T[] {
  return parsed<T>(prepared(db, 'SELECT doc FROM identities WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)));
}

export interface IdentityAccountRow {
  seq: number;
  identityId: string;
  id: string;
  name: string;
  nativeIdentity: string;
  sourceId: string;
  sourceName: string | null;
}

/**
 * The accounts of `identityIds` with their sources' names, in aggregation order. Sorted here:
 * ORDER BY rowid in the query lets SQLite walk the whole table in rowid order instead of looking
 * the identities up in the identity index.
 */
export function accountsOfIdentities(db: Database, identityIds: readonly string[]): IdentityAccountRow[] {
  const rows = prepared(
    db,
    `SELECT a.rowid AS seq, a.identity_id AS identityId, a.id AS id, a.name AS name, a.native_identity AS nativeIdentity, a.source_id AS sourceId, s.name AS sourceName
     FROM accounts a LEFT JOIN sources s ON s.id = a.source_id WHERE a.identity_id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(identityIds)) as IdentityAccountRow[];
  return rows.sort((x, y) => x.seq - y.seq);
}

/** How many accounts each of `identityIds` has (identities with none are absent). */
export function accountCounts(db: Database, identityIds: readonly string[]): Map<string, number> {
  const rows = prepared(db, 'SELECT identity_id AS id, count(*) AS n FROM accounts WHERE identity_id IN (SELECT value FROM json_each(?)) GROUP BY identity_id').all(JSON.stringify(identityIds)) as { id: string; n: number }[];
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** Which of `identityIds` manage someone. */
export function managersAmong(db: Database, identityIds: readonly string[]): Set<string> {
  const rows = prepared(db, 'SELECT DISTINCT manager_id AS id FROM identities WHERE manager_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(identityIds)) as { id: string }[];
  return new Set(rows.map((r) => r.id));
}
