// Running a collection query on the store
// (https://developer.sailpoint.com/docs/api/standard-collection-parameters): the page in the
// requested order and, with count=true, the X-Total-Count of the whole filtered collection.

import type { FastifyReply } from 'fastify';
import { prepared, type SqlDatabase } from '../../filter/sql-statements.js';
import { collectionSql, type CollectionQuery, type CollectionSpec, type SqlStatement } from './query.js';

export interface CollectionPage<T> {
  readonly items: T[];
  /** The size of the filtered collection ignoring limit and offset; null unless count=true. */
  readonly total: number | null;
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
