// Running a collection query on the store
// (https://developer.sailpoint.com/docs/api/standard-collection-parameters): the page in the
// requested order and, with count=true, the X-Total-Count of the whole filtered collection.

import type { FastifyReply } from 'fastify';
import type { SqlParam } from '../../filter/index.js';
import { collectionSql, type CollectionQuery, type CollectionSpec, type SqlStatement } from './query.js';

/** The part of a better-sqlite3 Database this module uses. */
export interface SqlDatabase {
  prepare(sql: string): { all(...params: SqlParam[]): unknown[]; get(...params: SqlParam[]): unknown };
}

export interface CollectionPage<T> {
  readonly items: T[];
  /** The size of the filtered collection ignoring limit and offset; null unless count=true. */
  readonly total: number | null;
}

const statements = new WeakMap<SqlDatabase, Map<string, ReturnType<SqlDatabase['prepare']>>>();
const CACHE_SIZE = 256;

/**
 * Prepared statements are reused per connection and SQL text. The text never holds values, so
 * it names a query shape (fields, operators, sorters, list lengths); the cache keeps the
 * CACHE_SIZE shapes used last, so that a client varying shapes cannot grow it without bound.
 */
export function prepared(db: SqlDatabase, sql: string): ReturnType<SqlDatabase['prepare']> {
  let cache = statements.get(db);
  if (cache === undefined) statements.set(db, (cache = new Map()));
  let stmt = cache.get(sql);
  if (stmt === undefined) {
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    stmt = db.prepare(sql);
  } else {
    // Map keeps insertion order: moving a hit to the end makes the first key the least recent.
    cache.delete(sql);
  }
  cache.set(sql, stmt);
  return stmt;
}

export function runStatement(db: SqlDatabase, s: SqlStatement): unknown[] {
  return prepared(db, s.sql).all(...s.params);
}

/** Run a parsed query; `map` turns a row (`select` columns) into the response item. */
export function runCollection<T>(db: SqlDatabase, spec: Pick<CollectionSpec, 'table'>, q: CollectionQuery, map: (row: Record<string, unknown>) => T, select = 'doc'): CollectionPage<T> {
  const { page, total } = collectionSql(spec, q, select);
  const rows = runStatement(db, page) as Record<string, unknown>[];
  const n = total === null ? null : (prepared(db, total.sql).get(...total.params) as { n: number }).n;
  return { items: rows.map(map), total: n };
}

/** Send a page: a JSON array (possibly empty), X-Total-Count when it was asked for. */
export function sendPage<T>(reply: FastifyReply, page: CollectionPage<T>): T[] {
  if (page.total !== null) reply.header('X-Total-Count', String(page.total));
  return page.items;
}
