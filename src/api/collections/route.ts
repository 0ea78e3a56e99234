// A list endpoint in one call
// (https://developer.sailpoint.com/docs/api/standard-collection-parameters): the querystring schema
// it documents, and a handler that parses the collection parameters, runs them on the store and
// answers a JSON array with X-Total-Count when count=true.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SqlWhere } from '../../filter/index.js';
import { checkRawEscapes, parseCollectionQuery, type CollectionSpec } from './query.js';
import type { SqlDatabase } from '../../filter/sql-statements.js';
import { runCollection, runCollectionColumn, sendPage } from './run.js';

/**
 * The standard parameters for the OpenAPI document and type coercion. Bounds are enforced by
 * parseCollectionQuery, so that a bad value gets its coded reason rather than a schema message.
 */
export function collectionQuerySchema(spec: Pick<CollectionSpec, 'filters' | 'sorters'>) {
  const properties: Record<string, unknown> = {
    limit: { type: 'integer', description: 'Page size; default 250, at most 250.' },
    offset: { type: 'integer', description: 'Index of the first record; default 0.' },
    count: { type: 'boolean', description: 'true: X-Total-Count holds the size of the filtered collection.' },
  };
  if (spec.filters !== undefined) {
    const list = Object.entries(spec.filters).map(([f, s]) => `${f}: ${(s.operators ?? []).join(', ')}`);
    properties.filters = { type: 'string', description: `Filter expression. Fields and operators: ${list.join('; ')}.` };
  }
  if (spec.sorters !== undefined) {
    properties.sorters = { type: 'string', description: `Comma-separated fields, '-' for descending: ${Object.keys(spec.sorters).join(', ')}.` };
  }
  return { type: 'object', properties };
}

/**
 * The handler of a list endpoint. `map` turns the page's rows into response items (a whole
 * page at once, so that related records can be fetched in one query).
 */
export function listHandler<T>(
  db: SqlDatabase,
  spec: CollectionSpec,
  map: (rows: Record<string, unknown>[]) => T[],
  options: { select?: string; where?: (query: Readonly<Record<string, unknown>>) => SqlWhere | undefined } = {},
) {
  const select = options.select ?? 'doc';
  return async (request: FastifyRequest, reply: FastifyReply): Promise<T[]> => {
    checkRawEscapes(request.raw.url ?? request.url);
    const query = request.query as Record<string, unknown>;
    // An endpoint's own parameter (transforms' `name`) narrows the collection like spec.where.
    const extra = options.where?.(query);
    const own = extra === undefined ? spec : { ...spec, where: spec.where === undefined ? extra : { text: `(${spec.where.text}) AND (${extra.text})`, params: [...spec.where.params, ...extra.params] } };
    const q = parseCollectionQuery(query, own);
    const page = runCollection(db, spec, q, (row) => row, select);
    return sendPage(reply, { items: map(page.items), total: page.total });
  };
}

/**
 * The handler of a list endpoint whose items SQLite holds or writes: `item` is a trusted SQL
 * expression over the spec's table that gives one item's JSON text (a stored column, or
 * json_object), and the page is the JSON array of them, sent as it is, so that no row object is
 * built nor serialized in JavaScript.
 */
export function jsonListHandler(db: SqlDatabase, spec: CollectionSpec, item: string) {
  const select = `${item} AS item`;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    checkRawEscapes(request.raw.url ?? request.url);
    const q = parseCollectionQuery(request.query as Record<string, unknown>, spec);
    const page = runCollectionColumn(db, spec, q, select);
    sendPage(reply, page);
    return reply.type('application/json; charset=utf-8').send(`[${page.items.join(',')}]`);
  };
}

/** Parse the stored JSON documents of rows selected as `doc`. */
export function docs<T = Record<string, unknown>>(rows: Record<string, unknown>[]): T[] {
  return rows.map((r) => JSON.parse(r.doc as string) as T);
}
