// The AST of the search query language (https://developer.sailpoint.com/docs/api/v3/search-post):
// plain data with the conventions of the filter AST (../ast.ts) — a `kind`, the source range of
// the text every node was parsed from, `and`/`or` chains of two or more children and `not` with
// one operand — so that walk, collect, countNodes and stripRanges serve all three languages.

import type { AndNode as FilterAnd, Located, NotNode as FilterNot, OrNode as FilterOr } from '../ast.js';

/** `*`: every document. */
export interface AllNode extends Located {
  readonly kind: 'all';
}

/**
 * `field:value`, `field:"phrase"`, `field:prefix*`, and bare terms (`property` null: matched
 * against the index's default fields). `phrase` and `prefix` are never both true; a word term's
 * value is never empty.
 */
export interface TermNode extends Located {
  readonly kind: 'term';
  readonly property: string | null;
  readonly value: string;
  readonly phrase: boolean;
  readonly prefix: boolean;
}

/** `field:*`: the field has a non-empty value. */
export interface ExistsNode extends Located {
  readonly kind: 'exists';
  readonly property: string;
}

export interface SearchAndNode extends Omit<FilterAnd, 'children'> {
  readonly children: readonly SearchNode[];
}
export interface SearchOrNode extends Omit<FilterOr, 'children'> {
  readonly children: readonly SearchNode[];
}
export interface SearchNotNode extends Omit<FilterNot, 'operand'> {
  readonly operand: SearchNode;
}

export type SearchNode = AllNode | TermNode | ExistsNode | SearchAndNode | SearchOrNode | SearchNotNode;
export type SearchLeaf = AllNode | TermNode | ExistsNode;
