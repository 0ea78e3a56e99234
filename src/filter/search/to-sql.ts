// The SQLite back end of the search query AST (https://developer.sailpoint.com/docs/api/v3/search-post),
// as ../to-sql.ts is the filter AST's: one exhaustive switch over the node kinds, values always
// bound as parameters. Field names resolve through the index's declared fields (and its dynamic
// `attributes.<name>` prefix); an unknown field is FILTER_FIELD. Terms match through the functions
// of ./match.ts, registered on the connection.

import type { SourceRange } from '../ast.js';
import { FilterUnsupportedError } from '../errors.js';
import type { SqlParam, SqlWhere } from '../to-sql.js';
import type { SearchNode } from './ast.js';

export interface SearchField {
  /** Trusted SQL expression over the index's table (written in code, never from a request). */
  readonly expr: string;
  /** Whether `sort` may name it. */
  readonly sortable?: boolean;
  /** The expression is never NULL (a NOT NULL column): it sorts as is, so an index can serve it. */
  readonly notNull?: boolean;
  /** The field holds ISO 8601 date-times: `sort` and `searchAfter` order it in time order. */
  readonly time?: boolean;
  /**
   * A keyword (not analysed) field, as Elasticsearch maps ids: `field:value` matches the whole
   * value and `field:pre*` its start, with case, so that an index on the column serves them.
   */
  readonly keyword?: boolean;
}

export interface SearchIndex {
  /** The name clients put in `indices` (for example identities). */
  readonly name: string;
  readonly table: string;
  /** The unique, NOT NULL key: the last sort key of every search, so that searchAfter never skips a tie. */
  readonly idExpr: string;
  readonly fields: Readonly<Record<string, SearchField>>;
  /** `<prefix>.<name>` reads `json_extract(<column>, '$.<jsonPrefix>.<name>')` for any simple name. */
  readonly dynamic?: { readonly prefix: string; readonly column: string; readonly jsonPrefix: string };
  /** Fields a bare term (no `field:`) is matched against. */
  readonly defaultFields: readonly string[];
}

const DYNAMIC_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The SQL expression of a field, or undefined when the index has no such field. */
export function fieldExpr(index: SearchIndex, field: string): string | undefined {
  if (Object.prototype.hasOwnProperty.call(index.fields, field)) return index.fields[field]!.expr;
  const d = index.dynamic;
  if (d !== undefined && field.startsWith(d.prefix + '.')) {
    const name = field.slice(d.prefix.length + 1);
    // The name is checked against a plain-identifier pattern, so inlining it in the path is safe.
    if (DYNAMIC_NAME.test(name)) return `json_extract("${d.column}", '$.${d.jsonPrefix}.${name}')`;
  }
  return undefined;
}

export function compileSearch(ast: SearchNode, index: SearchIndex): SqlWhere {
  const params: SqlParam[] = [];
  const param = (v: SqlParam): string => {
    params.push(v);
    return '?';
  };
  const resolve = (field: string, range: SourceRange): string => {
    const expr = fieldExpr(index, field);
    if (expr === undefined) {
      throw new FilterUnsupportedError('FILTER_FIELD', `the ${index.name} index has no field '${field}'`, { property: field, start: range.start, end: range.end });
    }
    return expr;
  };
  const node = (n: SearchNode): string => {
    switch (n.kind) {
      case 'all':
        return '(1)';
      case 'exists': {
        const x = resolve(n.property, n.range);
        return `(${x} IS NOT NULL AND ${x} <> '')`;
      }
      case 'term': {
        const keyword = n.property !== null && Object.prototype.hasOwnProperty.call(index.fields, n.property) && index.fields[n.property]!.keyword === true;
        if (keyword) {
          const x = resolve(n.property!, n.range);
          return n.prefix ? `(substr(${x}, 1, ${param([...n.value].length)}) = ${param(n.value)})` : `(${x} = ${param(n.value)})`;
        }
        const exprs = n.property === null ? index.defaultFields.map((f) => resolve(f, n.range)) : [resolve(n.property, n.range)];
        const fn = n.prefix ? 'search_prefix' : 'search_match';
        return `(${exprs.map((x) => `${fn}(${x}, ${param(n.value)}) = 1`).join(' OR ')})`;
      }
      case 'and':
      case 'or':
        return `(${n.children.map(node).join(n.kind === 'and' ? ' AND ' : ' OR ')})`;
      case 'not':
        return `(NOT COALESCE(${node(n.operand)}, 0))`;
    }
  };
  return { text: node(ast), params };
}
