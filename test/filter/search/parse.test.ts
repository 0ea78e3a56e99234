// The search query language subset (https://developer.sailpoint.com/docs/api/v3/search-post):
// parser table and coded errors with positions and limits.

import { describe, expect, it } from 'vitest';
import { isTransformsError } from '../../../src/errors/index.js';
import { parseSearchQuery, type SearchNode } from '../../../src/filter/search/index.js';

/** A compact rendering of the AST for the parser table. */
function show(n: SearchNode): string {
  switch (n.kind) {
    case 'all':
      return '*';
    case 'exists':
      return `${n.property}:*`;
    case 'term':
      return `${n.property ?? '_'}:${n.phrase ? JSON.stringify(n.value) : n.value}${n.prefix ? '*' : ''}`;
    case 'not':
      return `NOT(${show(n.operand)})`;
    default:
      return `${n.kind.toUpperCase()}(${n.children.map(show).join(' ')})`;
  }
}

function error(fn: () => unknown): { code: string; status: number; position?: unknown; reason?: unknown } {
  try {
    fn();
  } catch (err) {
    if (isTransformsError(err)) return { code: err.code, status: err.status, position: err.details?.position, reason: err.details?.reason };
    throw err;
  }
  throw new Error('expected an error');
}

describe('parseSearchQuery', () => {
  it.each([
    ['*', '*'],
    ['name:john', 'name:john'],
    ['name:"John Smith"', 'name:"John Smith"'],
    ['email:*', 'email:*'],
    ['firstName:Jo*', 'firstName:Jo*'],
    ['smith', '_:smith'],
    ['"Yuki Schröder"', '_:"Yuki Schröder"'],
    ['a:1 AND b:2 OR c:3', 'OR(AND(a:1 b:2) c:3)'],
    ['a:1 OR b:2 AND c:3', 'OR(a:1 AND(b:2 c:3))'],
    ['NOT a:1 AND b:2', 'AND(NOT(a:1) b:2)'],
    ['a:1 AND (b:2 OR c:3)', 'AND(a:1 OR(b:2 c:3))'],
    ['a:1 b:2', 'OR(a:1 b:2)'],
    ['a:1 NOT b:2', 'OR(a:1 NOT(b:2))'],
    ['attributes.department:Engineering', 'attributes.department:Engineering'],
    ['name:a\\:b', 'name:a:b'],
    ['name:x\\*', 'name:x*'],
    ['a:1 and b:2', 'OR(a:1 _:and b:2)'],
    ['name:"say \\"hi\\""', 'name:"say \\"hi\\""'],
  ])('%s → %s', (query, expected) => {
    expect(show(parseSearchQuery(query))).toBe(expected);
  });

  it('an escaped star is a literal, not a prefix', () => {
    expect(parseSearchQuery('name:x\\*')).toMatchObject({ kind: 'term', value: 'x*', prefix: false });
  });

  it.each([
    ['', 0],
    ['name:', 5],
    ['(a:1', 4],
    ['a:1)', 3],
    ['name:[a TO b]', 5],
    ['name:jo~', 7],
    ['-name:x', 0],
    ['a:1 && b:2', 4],
    ['name:"open', 5],
    ['name:j*n', 5],
    ['AND a:1', 0],
    ['a:1 AND', 7],
    ['1bad.field:x', 0],
  ])('%j → FILTER_SYNTAX at %i', (query, position) => {
    expect(error(() => parseSearchQuery(query))).toMatchObject({ code: 'FILTER_SYNTAX', status: 400, position });
  });

  it('refuses nesting beyond the depth limit', () => {
    expect(error(() => parseSearchQuery('('.repeat(80) + 'a:1' + ')'.repeat(80))).code).toBe('FILTER_LIMIT');
  });
});
