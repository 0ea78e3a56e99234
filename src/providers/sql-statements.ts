// Prepared statements of the SQL back ends (filter/to-sql.ts, filter/search/to-sql.ts), reused per better-sqlite3
// connection and SQL text, for every caller that runs them: the collection endpoints and the
// providers over the server's store.

import type { SqlParam } from '../filter/to-sql.js';

/** The part of a better-sqlite3 Database the back ends' callers use. */
export interface SqlDatabase {
  prepare(sql: string): {
    all(...params: SqlParam[]): unknown[];
    get(...params: SqlParam[]): unknown;
    /** true: rows are their first column's value rather than objects (better-sqlite3). */
    pluck(toggle?: boolean): unknown;
  };
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
