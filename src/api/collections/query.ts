// The standard collection parameters (https://developer.sailpoint.com/docs/api/standard-collection-parameters): limit, offset, count,
// filters and sorters of a list endpoint, read from the query string and turned into SQL over
// one table. Pure: no database here; the endpoint declares its allowlists in a CollectionSpec.

import { LRUCache } from 'lru-cache';
import { codedError, type ErrorCode, type TransformsError } from '../../errors/index.js';
import { closestName, didYouMean } from '../../errors/suggest.js';
import { compileSql, parseApiFilter, type FieldMap, type SqlParam, type SqlWhere } from '../../filter/index.js';

/** A sortable field: a trusted SQL expression over the endpoint's table (written in code). */
export interface SortSpec {
  readonly expr: string;
  /**
   * The field holds ISO 8601 date-times: it sorts in time order (https://developer.sailpoint.com/docs/api/standard-collection-parameters), through the filter_time function the filters compare with, so a
   * sorted page and a `created lt …` filter agree on every offset.
   */
  readonly time?: boolean;
}

/** A date-time sorter over a trusted SQL expression. */
export const timeSorter = (expr: string): SortSpec => ({ expr, time: true });

export interface CollectionSpec {
  /** The table the collection lists (a plain identifier, from code). */
  readonly table: string;
  /** Fields and operators `filters` may use; absent when the endpoint lists no filters. */
  readonly filters?: FieldMap;
  /** Fields `sorters` may name, with their SQL expressions. */
  readonly sorters?: Readonly<Record<string, SortSpec>>;
  /** The unique key, appended to every order so that paging is stable. */
  readonly idExpr: string;
  /** Order when no `sorters` is given (default: the id). */
  readonly defaultSort?: readonly string[];
  /** A trusted SQL expression to order by when neither `sorters` nor defaultSort is given (then the id). */
  readonly defaultOrder?: string;
  /** Extra fixed condition (for a sub-collection, e.g. schemas of one source). */
  readonly where?: SqlWhere;
  /** Page size limits: list endpoints 250 and 250 (https://developer.sailpoint.com/docs/api/standard-collection-parameters). */
  readonly defaultLimit?: number;
  readonly maxLimit?: number;
}

export interface SortKey {
  readonly field: string;
  readonly descending: boolean;
  readonly expr: string;
}

export interface CollectionQuery {
  readonly limit: number;
  readonly offset: number;
  readonly count: boolean;
  /** The WHERE expression (filters and the spec's own condition), or null. */
  readonly where: SqlWhere | null;
  /** The requested order, then the id tiebreak. */
  readonly order: readonly SortKey[];
}

export interface SqlStatement {
  readonly sql: string;
  readonly params: readonly SqlParam[];
}

export const LIST_DEFAULT_LIMIT = 250;
export const LIST_MAX_LIMIT = 250;

const SORTER = /^(-?)([A-Za-z_][\w.]*)$/;

/** 400 with the platform body: the code names the rule, `details.parameter` the parameter, `details.causes` the text. */
export function badQuery(code: ErrorCode, parameter: string, message: string, extra: Record<string, unknown> = {}): TransformsError {
  return codedError(code, message, { details: { parameter, causes: [message], ...extra } });
}

/** One scalar query value: a repeated parameter is refused rather than one copy picked. */
function single(query: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw badQuery('PARAM_REPEATED', name, `'${name}' must be given once`);
}

export function integerParam(query: Readonly<Record<string, unknown>>, name: string, fallback: number, max: number): number {
  const text = single(query, name);
  if (text === undefined) return fallback;
  if (!/^\d{1,15}$/.test(text)) throw badQuery('PARAM_INVALID', name, `'${name}' must be a non-negative integer, not ${JSON.stringify(text)}`);
  const n = Number(text);
  if (n > max) throw badQuery('LIMIT_EXCEEDED', name, `'${name}' must not exceed ${max} (got ${n})`, { maximum: max });
  return n;
}

export function booleanParam(query: Readonly<Record<string, unknown>>, name: string): boolean {
  const text = single(query, name);
  if (text === undefined) return false;
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw badQuery('PARAM_INVALID', name, `'${name}' must be true or false, not ${JSON.stringify(text)}`);
}

/**
 * Unescaped special characters of a filter value (https://developer.sailpoint.com/docs/api/standard-collection-parameters lists `#` → %23 and `%` → %25,
 * and an unescaped one is a 400): a raw `%` that starts no percent-escape, or a raw `#`, which
 * a client that does not escape sends inside the request line (RFC 3986 §3.5: it may not appear
 * there unescaped). Both are 400s rather than a silently literal percent sign or a value cut at
 * the `#`. A raw `&` cuts the value short, which then fails to parse as a filter.
 * Escapes of any parameter that do not decode to UTF-8 (RFC 3986 §2.5; `%C0%AF`, an encoded
 * lone surrogate `%ED%A0%80`, a cut sequence) are PARAM_INVALID naming the first bad byte:
 * the query parser would otherwise keep the whole value undecoded, escapes and all.
 */
export function checkRawEscapes(rawUrl: string): void {
  const q = rawUrl.indexOf('?');
  if (q < 0) return;
  for (const pair of rawUrl.slice(q + 1).split('&')) {
    const [name] = pair.split('=', 1);
    const bad = badUtf8Escape(pair);
    if (bad >= 0) {
      const eq = pair.indexOf('=');
      const inValue = eq >= 0 && bad > eq;
      const parameter = safeDecode(name!);
      const where = inValue ? `the ${parameter} value at position ${bad - eq - 1}` : `the parameter name at position ${bad}`;
      throw badQuery('PARAM_INVALID', parameter, `${where} has percent-escapes that are not UTF-8 (${pair.slice(bad, bad + 12)})`);
    }
    if (name !== 'filters') continue;
    const at = pair.search(/%(?![0-9A-Fa-f]{2})|#/);
    if (at < 0) continue;
    const c = pair[at]!;
    throw badQuery('UNESCAPED_CHARACTER', 'filters', `the filters value has an unescaped '${c}' at position ${at - 'filters='.length} (write ${c === '#' ? '%23' : '%25'})`, { character: c });
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The offset of the first `%XX` escape that starts no well-formed UTF-8 sequence (Unicode
 * Table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), or -1.
 */
function badUtf8Escape(text: string): number {
  const byteAt = (i: number): number => (text[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3)) ? parseInt(text.slice(i + 1, i + 3), 16) : -1);
  for (let i = text.indexOf('%'); i >= 0; i = text.indexOf('%', i)) {
    const lead = byteAt(i);
    if (lead < 0x80) {
      i += lead < 0 ? 1 : 3;
      continue;
    }
    let length = 0;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const b = byteAt(i + 3 * k);
      if (b < (k === 1 ? low : 0x80) || b > (k === 1 ? high : 0xbf)) return i;
    }
    i += 3 * length;
  }
  return -1;
}

/** The storage order of a table's rows (a view over one table shows its rowid), as a sort expression. */
const ROWID = 'rowid';

/** Parse `sorters` against the allowlist; every order ends with the id so that pages are stable. */
export function parseSorters(text: string | undefined, spec: Pick<CollectionSpec, 'sorters' | 'idExpr' | 'defaultSort' | 'defaultOrder'>): SortKey[] {
  const allowed = spec.sorters ?? {};
  const names = text === undefined ? [...(spec.defaultSort ?? [])] : text.split(',').map((s) => s.trim());
  const keys: SortKey[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const m = SORTER.exec(name);
    if (m === null) throw badQuery('SORTER_INVALID', 'sorters', `${JSON.stringify(name)} is not a sorter (a field name, '-' for descending)`);
    const field = m[2]!;
    const sort = Object.prototype.hasOwnProperty.call(allowed, field) ? allowed[field] : undefined;
    if (sort === undefined) {
      const list = Object.keys(allowed);
      throw badQuery('SORTER_FIELD', 'sorters', `sorting on '${field}' is not supported${didYouMean(closestName(field, list))}${list.length > 0 ? ` (supported: ${list.join(', ')})` : ''}`, { field });
    }
    if (seen.has(field)) throw badQuery('SORTER_REPEATED', 'sorters', `'${field}' is sorted on twice`, { field });
    seen.add(field);
    keys.push({ field, descending: m[1] === '-', expr: sort.time === true ? `filter_time(${sort.expr})` : sort.expr });
  }
  if (keys.length === 0 && spec.defaultOrder !== undefined) keys.push({ field: '', descending: false, expr: spec.defaultOrder });
  // The rowid is unique as well: an order by it needs no id after it (which would make SQLite
  // read every matching row to sort on both, where the rowid alone is in every index).
  if (!keys.some((k) => k.expr === spec.idExpr || k.expr === ROWID)) keys.push({ field: 'id', descending: false, expr: spec.idExpr });
  return keys;
}

/**
 * Compiled filters per field map and text: a client pages through one query with the same
 * `filters` on every request, so each text is parsed once. Bounded, so that a client varying
 * its filters cannot grow it; only filters that compile are kept (an error is thrown anew).
 */
const compiledFilters = new WeakMap<FieldMap, LRUCache<string, SqlWhere>>();
const FILTER_CACHE_SIZE = 256;

/** Compile `filters` with the endpoint's field map; FILTER_* errors are 400s. */
export function parseFilters(text: string | undefined, fields: FieldMap | undefined): SqlWhere | null {
  if (text === undefined) return null;
  if (fields === undefined) throw badQuery('FILTERS_UNSUPPORTED', 'filters', 'this endpoint does not support filters');
  let cache = compiledFilters.get(fields);
  if (cache === undefined) compiledFilters.set(fields, (cache = new LRUCache({ max: FILTER_CACHE_SIZE })));
  let where = cache.get(text);
  if (where === undefined) {
    const compiled = compileSql(parseApiFilter(text), fields);
    where = Object.freeze({ text: compiled.text, params: Object.freeze([...compiled.params]) });
    cache.set(text, where);
  }
  return where;
}

function and(a: SqlWhere | null, b: SqlWhere | undefined): SqlWhere | null {
  if (b === undefined) return a;
  if (a === null) return b;
  return { text: `(${a.text}) AND (${b.text})`, params: [...a.params, ...b.params] };
}

/**
 * Read the collection parameters of a request. Unknown parameters are ignored, as the platform
 * does for parameters an endpoint does not list; the listed ones are validated strictly.
 */
export function parseCollectionQuery(query: Readonly<Record<string, unknown>>, spec: CollectionSpec): CollectionQuery {
  const maxLimit = spec.maxLimit ?? LIST_MAX_LIMIT;
  const limit = integerParam(query, 'limit', spec.defaultLimit ?? LIST_DEFAULT_LIMIT, maxLimit);
  const offset = integerParam(query, 'offset', 0, Number.MAX_SAFE_INTEGER);
  const count = booleanParam(query, 'count');
  const where = and(parseFilters(single(query, 'filters'), spec.filters), spec.where);
  const order = parseSorters(single(query, 'sorters'), spec);
  return { limit, offset, count, where, order };
}

export function orderBy(order: readonly SortKey[]): string {
  return order.map((k) => `${k.expr}${k.descending ? ' DESC' : ' ASC'}`).join(', ');
}

/**
 * The page query and, when count=true, the total query, over `spec.table`. A page in rowid order
 * picks its rowids first (from an index, when one serves the filter) and reads only those rows'
 * `select` columns: the sort then carries rowids, not every matching row's document.
 */
export function collectionSql(spec: Pick<CollectionSpec, 'table'>, q: CollectionQuery, select = 'doc'): { page: SqlStatement; total: SqlStatement | null } {
  const where = q.where === null ? '' : ` WHERE ${q.where.text}`;
  const params = q.where?.params ?? [];
  const order = orderBy(q.order);
  const byRowid = q.order.length === 1 && q.order[0]!.expr === ROWID;
  const sql = byRowid
    ? `SELECT ${select} FROM ${spec.table} WHERE ${ROWID} IN (SELECT ${ROWID} FROM ${spec.table}${where} ORDER BY ${order} LIMIT ? OFFSET ?) ORDER BY ${order}`
    : `SELECT ${select} FROM ${spec.table}${where} ORDER BY ${order} LIMIT ? OFFSET ?`;
  return {
    page: { sql, params: [...params, q.limit, q.offset] },
    total: q.count ? { sql: `SELECT count(*) AS n FROM ${spec.table}${where}`, params } : null,
  };
}
