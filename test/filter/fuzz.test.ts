// Fuzz: any input makes the three parsers either return an AST or throw a coded filter error, within
// a bounded time (the per-test timeout below; the parsers are linear, so no input comes near it).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TransformsError } from '../../src/errors/index.js';
import { compilePredicate, formatFilter, formatSearchQuery, parseApiFilter, parseObjectFilter, parseSearchQuery, stripRanges, type FilterNode, type SearchNode } from '../../src/filter/index.js';

const FILTER_CODES = new Set(['FILTER_SYNTAX', 'FILTER_LIMIT', 'FILTER_UNSUPPORTED', 'FILTER_VALUE']);

/** Fragments of both grammars, so that random strings get deep into the parsers. */
const fragment = fc.constantFrom(
  'a', 'b.c', ' ', '  ', '(', ')', '{', '}', ',', '"', "'", '\\', '!', '&&', '||', '==', 'i==', '!=', '<', '>=', '.',
  'startsWith(', 'in(', 'containsAll(', 'isNull()', 'join(', 'collectionCondition(', 'subquery(',
  'eq', 'ne', 'gt', 'co', 'sw', 'in', 'ca', 'pr', 'isnull', 'and', 'or', 'not', 'EQ', '1', '-2.5e3', 'true', 'null',
  '2018-12-18T23:05:55Z', '2018-13-45', '"x"', '"\\"', '😀', '\u0000', '\n',
  // the search query syntax
  ':', '*', 'name:', 'AND', 'OR', 'NOT', '\\AND', 'x*', '-', '+', '[', '~', '\\:', '\\ ',
);
const grammarish = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''));
const input = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 100 }), grammarish);

function onlyCodedErrors(run: () => unknown): void {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(TransformsError);
    expect(FILTER_CODES.has((err as TransformsError).code)).toBe(true);
  }
}

describe('fuzz', () => {
  it.each([
    ['parseObjectFilter', parseObjectFilter],
    ['parseApiFilter', parseApiFilter],
  ] as const)('%s throws nothing but coded filter errors', (_name, parse) => {
    fc.assert(
      fc.property(input, (text) => {
        onlyCodedErrors(() => {
          const ast: FilterNode = parse(text);
          // Whatever parses also compiles (or is refused with a code) and prints.
          onlyCodedErrors(() => compilePredicate(ast)({ a: 'x', b: { c: [1, 'y'] } }));
          onlyCodedErrors(() => formatFilter(ast, 'object'));
          onlyCodedErrors(() => formatFilter(ast, 'api'));
        });
      }),
      { numRuns: 3000 },
    );
  }, 20_000);

  it('parseSearchQuery throws nothing but coded filter errors, and what parses prints back to itself', () => {
    fc.assert(
      fc.property(input, (text) => {
        let ast: SearchNode | undefined;
        onlyCodedErrors(() => {
          ast = parseSearchQuery(text);
        });
        // Every query that parses prints, and the print parses to the same AST.
        if (ast !== undefined) expect(stripRanges(parseSearchQuery(formatSearchQuery(ast)))).toEqual(stripRanges(ast));
      }),
      { numRuns: 3000 },
    );
  }, 20_000);

  it('stays linear on adversarial inputs at the length limit', () => {
    const n = 10_000;
    const inputs = [
      '('.repeat(n),
      '!'.repeat(n),
      'not '.repeat(n / 4),
      'a '.repeat(n / 2),
      `a == "${'\\"'.repeat(n / 2 - 4)}`,
      'a == 1 && '.repeat(n / 10),
      'a eq 1 and '.repeat(n / 11),
      'x'.repeat(n),
    ];
    for (const text of inputs) {
      onlyCodedErrors(() => parseObjectFilter(text.slice(0, n)));
      onlyCodedErrors(() => parseApiFilter(text.slice(0, n)));
      onlyCodedErrors(() => parseSearchQuery(text.slice(0, n)));
    }
  }, 20_000);
});
