// Providers over the local server's store (a better-sqlite3 database; tables sources, identities,
// accounts and transforms, each row's `doc` the stored JSON). Every answer is synchronous, so an
// evaluation over the store keeps the engine's fast path.

import { prepared, type SqlDatabase } from './sql-statements.js';
import { resolveSourceRef, type SourceLookup } from './sources.js';
import type { Account, Identity, Providers, Source, SourceRef, TransformDocument } from './types.js';

function one<T>(db: SqlDatabase, sql: string, ...params: string[]): T | null {
  const row = prepared(db, sql).get(...params) as { doc: string } | undefined;
  return row === undefined ? null : (JSON.parse(row.doc) as T);
}

function withAttributes<T extends { attributes?: unknown }>(doc: T): T & { attributes: Record<string, unknown> } {
  return { ...doc, attributes: (doc.attributes ?? {}) as Record<string, unknown> };
}

/** Synchronous providers over the store (better-sqlite3), so evaluation keeps its fast path. */
export function createSqliteProviders(db: SqlDatabase): Providers {
  const sources: SourceLookup<Source | null> = {
    byId: (id) => one<Source>(db, 'SELECT doc FROM sources WHERE id = ?', id),
    byExternalId: (externalId) => one<Source>(db, `SELECT doc FROM sources WHERE COALESCE(json_extract(doc, '$.externalId'), id) = ?`, externalId),
    byApplicationName: (applicationName) => one<Source>(db, `SELECT doc FROM sources WHERE COALESCE(json_extract(doc, '$.applicationName'), name || ' [source]') = ?`, applicationName),
    byName: (name) => one<Source>(db, 'SELECT doc FROM sources WHERE name = ? ORDER BY id LIMIT 1', name),
  };
  return {
    sources: {
      resolveSource: (ref: SourceRef): Source | null => resolveSourceRef(ref, sources),
    },
    accounts: {
      listAccounts(query): Account[] {
        const rows = (query.sourceId === undefined
          ? prepared(db, 'SELECT doc FROM accounts WHERE identity_id = ? ORDER BY created, id').all(query.identityId)
          : prepared(db, 'SELECT doc FROM accounts WHERE identity_id = ? AND source_id = ? ORDER BY created, id').all(query.identityId, query.sourceId)) as { doc: string }[];
        return rows.map((r) => withAttributes(JSON.parse(r.doc) as Account));
      },
    },
    identities: {
      getIdentity: (id) => {
        const i = one<Identity>(db, 'SELECT doc FROM identities WHERE id = ?', id);
        return i === null ? null : withAttributes(i);
      },
      findIdentityByName: (name) => {
        const i = one<Identity>(db, 'SELECT doc FROM identities WHERE name = ? ORDER BY id LIMIT 1', name);
        return i === null ? null : withAttributes(i);
      },
    },
    transforms: {
      getTransform: (name) => one<TransformDocument>(db, 'SELECT doc FROM transforms WHERE name = ?', name),
    },
    uniqueness: {
      // A candidate user name is taken when another identity already has it as its name or uid.
      isUnique: (candidate, context) =>
        prepared(db, `SELECT 1 AS taken FROM identities WHERE (name = ? COLLATE NOCASE OR json_extract(doc, '$.attributes.uid') = ?) AND id <> ? LIMIT 1`).get(
          candidate,
          candidate,
          context.identityId ?? '',
        ) === undefined,
    },
  };
}
