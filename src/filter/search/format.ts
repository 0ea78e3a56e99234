// Print a search query AST as query text that parses back to the same AST (ranges aside), as
// ../format.ts prints the filter languages. Composite operands are always parenthesised, so the
// parser rebuilds exactly the same n-ary tree; word values escape with a backslash every
// character the scanner would read as syntax, and a keyword's first letter.

import { FilterUnsupportedError } from '../errors.js';
import type { SearchNode, TermNode } from './ast.js';
import { SEARCH_FIELD, SEARCH_KEYWORDS, UNSUPPORTED_CHARACTERS } from './parse.js';

/**
 * The query text of `ast`. Throws FILTER_UNSUPPORTED for what the language cannot write: a
 * field name that is not dotted identifiers, an empty word value, a phrase with a prefix, an
 * `and`/`or` of fewer than two children.
 */
export function formatSearchQuery(ast: SearchNode): string {
  switch (ast.kind) {
    case 'all':
      return '*';
    case 'exists':
      return `${field(ast, ast.property)}:*`;
    case 'term':
      return term(ast);
    case 'and':
    case 'or':
      if (ast.children.length < 2) throw cannot(ast, `an '${ast.kind}' of ${ast.children.length} clause${ast.children.length === 1 ? '' : 's'}`);
      return ast.children.map(operand).join(ast.kind === 'and' ? ' AND ' : ' OR ');
    case 'not':
      return `NOT ${operand(ast.operand)}`;
  }
}

function operand(node: SearchNode): string {
  return node.kind === 'and' || node.kind === 'or' ? `(${formatSearchQuery(node)})` : formatSearchQuery(node);
}

function term(node: TermNode): string {
  const head = node.property === null ? '' : `${field(node, node.property)}:`;
  if (node.phrase) {
    if (node.prefix) throw cannot(node, 'a phrase with a prefix');
    return `${head}"${node.value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  }
  if (node.value === '') throw cannot(node, 'an empty word');
  return `${head}${word(node.value)}${node.prefix ? '*' : ''}`;
}

/** A word value with every character the scanner would read as syntax escaped. */
function word(value: string): string {
  let out = '';
  for (const c of value) {
    const special = /[\s():"\\*]/.test(c) || UNSUPPORTED_CHARACTERS.has(c) || (out === '' && (c === '+' || c === '-'));
    out += special ? `\\${c}` : c;
  }
  // AND, OR and NOT are operators only when written plainly.
  return SEARCH_KEYWORDS.has(out) ? `\\${out}` : out;
}

function field(node: SearchNode, name: string): string {
  if (!SEARCH_FIELD.test(name)) throw cannot(node, `the field name '${name}'`);
  return name;
}

function cannot(node: SearchNode, what: string): FilterUnsupportedError {
  return new FilterUnsupportedError('FILTER_UNSUPPORTED', `the search query language has no form for ${what}`, {
    ...('property' in node && node.property !== null ? { property: node.property } : {}),
    start: node.range.start,
    end: node.range.end,
  });
}
