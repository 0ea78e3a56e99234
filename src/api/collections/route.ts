// A list endpoint in one call
// (https://developer.sailpoint.com/docs/api/standard-collection-parameters): the querystring schema
// it documents, and a handler that parses the collection parameters, runs them on the store and
// answers a JSON array with X-Total-Count when count=true.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SqlWhere } from '../../filter/index.js';
import { checkRawEscapes, parseCollectionQuery, type CollectionSpec } from './query.js';
import type { SqlDatabase } from '../../providers/sql-statements.js';
import { runCollection, runCollectionColumn, sendPage } from './run.js';

/**
 * What each standard parameter holds, for the OpenAPI document only (plugins/openapi.ts). The
 * route schema below leaves the types out: Fastify's validator coerces typed query values
 * (`limit=1e2` would become 100 and `limit=%205` 5, while `limit=abc`, `count=1` or a repeated
 * parameter would get a schema message instead of their code), so every value reaches
 * parseCollectionQuery as written and gets its coded reason there (PARAM_INVALID,
 * PARAM_REPEATED, LIMIT_EXCEEDED; decision B10).
 */
export const COLLECTION_PARAMETER_TYPES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = Object.freeze({
  limit: { type: 'integer', minimum: 0, maximum: 250 },
  offset: { type: 'integer', minimum: 0 },
  count: { type: 'boolean' },
  filters: { type: 'string' },
  sorters: { type: 'string' },
});

/** The standard parameters of a list endpoint's querystring (untyped: see COLLECTION_PARAMETER_TYPES). */
export function collectionQuerySchema(spec: Pick<CollectionSpec, 'filters' | 'sorters'>) {
  const properties: Record<string, unknown> = {
    limit: { description: 'Page size; default 250, at most 250.' },
    offset: { description: 'Index of the first record; default 0.' },
    count: { description: 'true: X-Total-Count holds the size of the filtered collection.' },
  };
  if (spec.filters !== undefined) {
    const list = Object.entries(spec.filters).map(([f, s]) => `${f}: ${(s.operators ?? []).join(', ')}`);
    properties.filters = { description: `Filter expression. Fields and operators: ${list.join('; ')}.` };
  }
  if (spec.sorters !== undefined) {
    properties.sorters = { description: `Comma-separated fields, '-' for descending: ${Object.keys(spec.sorters).join(', ')}.` };
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
