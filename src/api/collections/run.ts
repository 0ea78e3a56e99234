// Running a collection query on the store
// (https://developer.sailpoint.com/docs/api/standard-collection-parameters): the page in the
// requested order and, with count=true, the X-Total-Count of the whole filtered collection.

import type { FastifyReply } from 'fastify';
import { prepared, type SqlDatabase } from '../../providers/sql-statements.js';
import { collectionSql, type CollectionQuery, type CollectionSpec, type SqlStatement } from './query.js';

export interface CollectionPage<T> {
  readonly items: T[];
  /** The size of the filtered collection ignoring limit and offset; null unless count=true. */
  readonly total: number | null;
}

export function runStatement(db: SqlDatabase, s: SqlStatement): unknown[] {
  return prepared(db, s.sql).all(...s.params);
}

/** The `n` of a statement's one row: a total that a planner's statement counts. */
export function runCount(db: SqlDatabase, s: SqlStatement): number {
  return (prepared(db, s.sql).get(...s.params) as { n: number }).n;
}

/** The first column of each row of a statement (no object per row). */
export function runColumn(db: SqlDatabase, s: SqlStatement): unknown[] {
  const stmt = prepared(db, s.sql);
  // The cached statement is shared by its text: it answers rows as objects again afterwards.
  stmt.pluck(true);
  try {
    return stmt.all(...s.params);
  } finally {
    stmt.pluck(false);
  }
}

/** The total of a count=true query, null without it. */
function totalOf(db: SqlDatabase, total: SqlStatement | null): number | null {
  return total === null ? null : runCount(db, total);
}

/** Run a parsed query; `map` turns a row (`select` columns) into the response item. */
export function runCollection<T>(db: SqlDatabase, spec: Pick<CollectionSpec, 'table'>, q: CollectionQuery, map: (row: Record<string, unknown>) => T, select = 'doc'): CollectionPage<T> {
  const { page, total } = collectionSql(spec, q, select);
  const rows = runStatement(db, page) as Record<string, unknown>[];
  return { items: rows.map(map), total: totalOf(db, total) };
}

/** Run a parsed query whose `select` is one column: the page is that column's values. */
export function runCollectionColumn(db: SqlDatabase, spec: Pick<CollectionSpec, 'table'>, q: CollectionQuery, select: string): CollectionPage<unknown> {
  const { page, total } = collectionSql(spec, q, select);
  return { items: runColumn(db, page), total: totalOf(db, total) };
}

/** Send a page: a JSON array (possibly empty), X-Total-Count when it was asked for. */
export function sendPage<T>(reply: FastifyReply, page: CollectionPage<T>): T[] {
  if (page.total !== null) reply.header('X-Total-Count', String(page.total));
  return page.items;
}
