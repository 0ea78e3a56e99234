// A search request (https://developer.sailpoint.com/docs/api/v3/search-post; https://developer.sailpoint.com/docs/api/standard-collection-parameters): the body's indices, query.query, sort and
// searchAfter plus the limit/offset/count query parameters, planned into SQL. Offset paging
// reaches only the first 10000 records; searchAfter with sort pages on by keyset beyond them.

import type { ErrorCode } from '../../errors/index.js';
import type { SqlParam, SqlWhere } from '../../filter/index.js';
import { isoInstant } from '../../filter/values.js';
import { badQuery, booleanParam, integerParam, orderBy, type SortKey, type SqlStatement } from '../collections/index.js';
import { compileSearch, type SearchField, type SearchIndex } from '../../filter/search/to-sql.js';
import { DEFAULT_SEARCH_LIMITS, parseSearchQuery, type SearchLimits } from '../../filter/search/parse.js';

export const SEARCH_DEFAULT_LIMIT = 10_000;
export const SEARCH_MAX_LIMIT = 10_000;
/** Records reachable with offset paging (https://developer.sailpoint.com/docs/api/standard-collection-parameters). */
export const SEARCH_OFFSET_CAP = 10_000;

export interface SearchPlan {
  readonly index: SearchIndex;
  readonly where: SqlWhere;
  readonly order: readonly SortKey[];
  readonly limit: number;
  readonly offset: number;
  /** The statement of the page; `select` columns, in order, at most `limit` rows. */
  readonly page: SqlStatement;
  /** count=true: the number of records the query matches (ignoring paging). */
  readonly total: SqlStatement | null;
}

/** Body members of the platform's search this subset does not implement: refused, not ignored. */
const UNSUPPORTED_MEMBERS = ['queryDsl', 'textQuery', 'typeAheadQuery', 'aggregationsDsl', 'aggregations', 'aggregationType', 'aggregationsVersion', 'filters'];
/** Members of the platform's Search body this subset reads; any other member is a 400, not ignored. */
const KNOWN_MEMBERS = new Set(['indices', 'queryType', 'queryVersion', 'query', 'sort', 'searchAfter', 'includeNested', 'queryResultFilter', ...UNSUPPORTED_MEMBERS]);
const KNOWN_QUERY_MEMBERS = new Set(['query']);
const SORT = /^(-?)([A-Za-z_][\w.]*)$/;

function bodyError(code: ErrorCode, message: string): ReturnType<typeof badQuery> {
  return badQuery(code, 'body', message);
}

/** Where a date-time field without a (valid) value sorts: before every instant. */
const NO_TIME = -1e16;

/**
 * NULL sorts as '' so that keyset comparisons and ORDER BY agree on missing values. A date-time
 * field sorts by its instant (https://developer.sailpoint.com/docs/api/standard-collection-parameters: date-times compare in time order), NO_TIME when it
 * has none, so that `+05:00` and `Z` values interleave by time, not by text.
 */
function sortExpr(field: SearchField): string {
  if (field.time === true) return `COALESCE(filter_time(${field.expr}), ${NO_TIME})`;
  return field.notNull === true ? field.expr : `COALESCE(${field.expr}, '')`;
}

/**
 * A searchAfter value as its sort key compares it: for a date-time key the instant of an ISO
 * 8601 string (or epoch milliseconds, as search engines report date sort values), else text.
 */
function cursorValue(v: string | number | boolean | null, time: boolean, at: number): SqlParam {
  if (!time) return v === null ? '' : String(v);
  if (v === null) return NO_TIME;
  const ms = typeof v === 'number' ? v : typeof v === 'string' ? isoInstant(v) : undefined;
  if (ms === undefined || !Number.isFinite(ms)) {
    throw bodyError('SEARCH_AFTER_INVALID', `'searchAfter' value ${at} (${JSON.stringify(v)}) must be an ISO 8601 date-time, as its sort field is one`);
  }
  return ms;
}

function parseSort(sort: unknown, index: SearchIndex): SortKey[] {
  if (sort === undefined || sort === null) return [];
  if (!Array.isArray(sort) || !sort.every((s) => typeof s === 'string')) throw bodyError('SEARCH_SORT_INVALID', "'sort' must be an array of field names");
  const keys: SortKey[] = [];
  for (const s of sort as string[]) {
    const m = SORT.exec(s.trim());
    const field = m?.[2];
    const spec = field !== undefined && Object.prototype.hasOwnProperty.call(index.fields, field) ? index.fields[field]! : undefined;
    if (m === null || spec?.sortable !== true) {
      const sortable = Object.entries(index.fields).filter(([, f]) => f.sortable === true).map(([n]) => n);
      throw bodyError('SEARCH_SORT_FIELD', `cannot sort the ${index.name} index on ${JSON.stringify(s)} (sortable: ${sortable.join(', ')})`);
    }
    if (keys.some((k) => k.field === field)) throw bodyError('SEARCH_SORT_INVALID', `'${field}' is sorted on twice`);
    keys.push({ field: field!, descending: m[1] === '-', expr: sortExpr(spec) });
  }
  return keys;
}

/**
 * The keyset condition "after these values" for the first `values.length` sort keys. With one
 * direction it is a row-value comparison `(k1, k2) > (v1, v2)`, which SQLite serves from an
 * index on the keys; mixed directions expand to (k1 > v1) OR (k1 = v1 AND k2 < v2) ….
 */
export function keysetAfter(order: readonly SortKey[], values: readonly SqlParam[]): SqlWhere {
  const keys = order.slice(0, values.length);
  if (keys.every((k) => k.descending === keys[0]!.descending)) {
    const op = keys[0]!.descending ? '<' : '>';
    return { text: `((${keys.map((k) => k.expr).join(', ')}) ${op} (${keys.map(() => '?').join(', ')}))`, params: [...values] };
  }
  const params: SqlParam[] = [];
  const ors: string[] = [];
  for (let n = 0; n < values.length; n++) {
    const parts: string[] = [];
    for (let k = 0; k < n; k++) {
      parts.push(`${order[k]!.expr} = ?`);
      params.push(values[k]!);
    }
    parts.push(`${order[n]!.expr} ${order[n]!.descending ? '<' : '>'} ?`);
    params.push(values[n]!);
    ors.push(`(${parts.join(' AND ')})`);
  }
  return { text: `(${ors.join(' OR ')})`, params };
}

/** Plan a search. Throws 400s: a SEARCH_ or collection-parameter code, or FILTER_SYNTAX / FILTER_FIELD. */
export function planSearch(
  body: unknown,
  query: Readonly<Record<string, unknown>>,
  indexes: readonly SearchIndex[],
  select = 'doc',
  limits: Partial<SearchLimits> = DEFAULT_SEARCH_LIMITS,
): SearchPlan {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw bodyError('SEARCH_BODY_INVALID', 'the body must be a JSON object');
  const b = body as Record<string, unknown>;
  const unknownMembers = Object.keys(b).filter((k) => !KNOWN_MEMBERS.has(k));
  if (unknownMembers.length > 0) throw bodyError('SEARCH_BODY_INVALID', `unknown body member${unknownMembers.length > 1 ? 's' : ''} ${unknownMembers.map((k) => JSON.stringify(k)).join(', ')}`);
  const indices = b.indices;
  if (!Array.isArray(indices) || indices.length === 0 || !indices.every((x) => typeof x === 'string')) {
    throw bodyError('SEARCH_INDEX', "'indices' must be a non-empty array of index names");
  }
  const repeated = indices.find((x, i) => indices.indexOf(x) !== i);
  if (repeated !== undefined) throw bodyError('SEARCH_INDEX', `index ${JSON.stringify(repeated)} is listed twice in 'indices'`);
  const wanted = new Set(indices as string[]);
  const unknown = [...wanted].filter((n) => !indexes.some((i) => i.name === n));
  if (unknown.length > 0 || wanted.size !== 1) {
    throw bodyError('SEARCH_INDEX', `searchable indices: ${indexes.map((i) => i.name).join(', ')}, one per request (got ${[...wanted].join(', ')})`);
  }
  const index = indexes.find((i) => wanted.has(i.name))!;
  for (const m of UNSUPPORTED_MEMBERS) {
    if (b[m] !== undefined && b[m] !== null) throw bodyError('SEARCH_UNSUPPORTED', `'${m}' is not supported; use query.query`);
  }
  if (b.queryType !== undefined && b.queryType !== null && b.queryType !== 'SAILPOINT') {
    throw bodyError('SEARCH_UNSUPPORTED', `queryType ${JSON.stringify(b.queryType)} is not supported (only SAILPOINT)`);
  }
  if (b.queryVersion !== undefined && b.queryVersion !== null && typeof b.queryVersion !== 'string') throw bodyError('SEARCH_BODY_INVALID', "'queryVersion' must be a string");
  // includeNested: true (the platform's default) is what this server always does.
  if (b.includeNested !== undefined && b.includeNested !== null && b.includeNested !== true) {
    throw bodyError('SEARCH_UNSUPPORTED', "'includeNested' must be true (nested objects are always included)");
  }
  const q = b.query;
  if (q !== undefined && q !== null && (typeof q !== 'object' || Array.isArray(q))) throw bodyError('SEARCH_BODY_INVALID', "'query' must be an object with a 'query' string");
  const unknownQuery = q === undefined || q === null ? [] : Object.keys(q).filter((k) => !KNOWN_QUERY_MEMBERS.has(k));
  if (unknownQuery.length > 0) throw bodyError('SEARCH_UNSUPPORTED', `'query.${unknownQuery[0]}' is not supported; only 'query.query' is`);
  const text = (q as { query?: unknown } | null | undefined)?.query ?? '*';
  if (typeof text !== 'string') throw bodyError('SEARCH_BODY_INVALID', "'query.query' must be a string");
  let where = compileSearch(parseSearchQuery(text, limits), index);

  const requested = parseSort(b.sort, index);
  const idKey = sortExpr({ expr: index.idExpr, notNull: true });
  const order = requested.some((k) => k.expr === idKey) ? requested : [...requested, { field: 'id', descending: false, expr: idKey }];

  const limit = integerParam(query, 'limit', SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT);
  const offset = integerParam(query, 'offset', 0, Number.MAX_SAFE_INTEGER);
  const count = booleanParam(query, 'count');
  const filtered = where;

  const after = b.searchAfter;
  let pageLimit = limit;
  if (after !== undefined && after !== null) {
    if (requested.length === 0) throw bodyError('SEARCH_AFTER_WITHOUT_SORT', "'searchAfter' needs 'sort'");
    if (!Array.isArray(after) || after.length === 0 || after.length > order.length) {
      throw bodyError('SEARCH_AFTER_INVALID', `'searchAfter' must hold 1 to ${order.length} values, one per sort field`);
    }
    if (!after.every((v) => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) {
      throw bodyError('SEARCH_AFTER_INVALID', "'searchAfter' values must be strings, numbers, booleans or null");
    }
    if (offset !== 0) throw badQuery('SEARCH_AFTER_WITH_OFFSET', 'offset', "'offset' cannot be combined with 'searchAfter'");
    const times = order.map((k) => Object.prototype.hasOwnProperty.call(index.fields, k.field) && index.fields[k.field]!.time === true);
    const values = (after as (string | number | boolean | null)[]).map((v, i) => cursorValue(v, times[i]!, i));
    const keyset = keysetAfter(order, values);
    where = { text: `${where.text} AND ${keyset.text}`, params: [...where.params, ...keyset.params] };
  } else {
    if (offset >= SEARCH_OFFSET_CAP) {
      throw badQuery('SEARCH_OFFSET_CAP', 'offset', `offset paging reaches the first ${SEARCH_OFFSET_CAP} records only; page further with sort and searchAfter`);
    }
    // The window ends at record 10000: a page that would cross it is cut there.
    pageLimit = Math.min(limit, SEARCH_OFFSET_CAP - offset);
  }
  return {
    index,
    where,
    order,
    limit: pageLimit,
    offset,
    page: { sql: `SELECT ${select} FROM ${index.table} WHERE ${where.text} ORDER BY ${orderBy(order)} LIMIT ? OFFSET ?`, params: [...where.params, pageLimit, offset] },
    total: count ? { sql: `SELECT count(*) AS n FROM ${index.table} WHERE ${filtered.text}`, params: filtered.params } : null,
  };
}


