// The queries the tenant client sends, built as ASTs and printed by the query languages'
// formatters (src/filter/format.ts, src/filter/search/format.ts), so that every value is escaped
// as its language escapes it: collection `filters`
// (https://developer.sailpoint.com/docs/api/standard-collection-parameters) and search queries
// (https://developer.sailpoint.com/docs/api/v3/search-post).

import type { CompareOp, FilterLiteral, FilterNode, SourceRange } from '../../filter/ast.js';
import { formatFilter } from '../../filter/format.js';
import { formatSearchQuery } from '../../filter/search/format.js';
import type { SearchNode } from '../../filter/search/ast.js';

/** Built nodes come from no text: their ranges are empty. */
export const BUILT: SourceRange = Object.freeze({ start: 0, end: 0 });

/** `property <op> "value"` of the collection `filters` language. */
export function apiCompare(property: string, op: CompareOp, value: string): FilterNode {
  return { kind: 'compare', op, property, value: { type: 'string', value }, ignoreCase: true, range: BUILT };
}

/** `property eq "value"` of the collection `filters` language. */
export const apiEquals = (property: string, value: string): FilterNode => apiCompare(property, 'eq', value);

/** `property in ("a", "b", …)` of the collection `filters` language. */
export function apiIn(property: string, values: readonly string[]): FilterNode {
  return { kind: 'in', property, values: values.map((value): FilterLiteral => ({ type: 'string', value })), ignoreCase: true, range: BUILT };
}

/** The conjunction of filters (and chains flattened); a single filter as it is. */
export function apiAll(filters: readonly FilterNode[]): FilterNode {
  const children = filters.flatMap((f) => (f.kind === 'and' ? f.children : [f]));
  return children.length === 1 ? children[0]! : { kind: 'and', children, range: BUILT };
}

/** The search query `*`: every document of the index. */
export const EVERY_DOCUMENT: SearchNode = Object.freeze({ kind: 'all', range: BUILT });

/** The search query `property:"value"` (a phrase: the whole value, whatever characters it holds). */
export function searchPhrase(property: string, value: string): SearchNode {
  return { kind: 'term', property, value, phrase: true, prefix: false, range: BUILT };
}

/** The search query matching any of the clauses; a single clause as it is. */
export function searchAny(clauses: readonly SearchNode[]): SearchNode {
  return clauses.length === 1 ? clauses[0]! : { kind: 'or', children: clauses, range: BUILT };
}

/** The `filters` parameter of a filter AST. */
export const filtersParam = (filter: FilterNode): string => formatFilter(filter, 'api');

/** The `query.query` member of a search query AST. */
export const searchQuery = (query: SearchNode): string => formatSearchQuery(query);
