// formatFilter: printing the AST in either language, and parse(format(ast)) = ast.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFilter, parseApiFilter, parseObjectFilter, stripRanges, type FilterNode } from '../../src/filter/index.js';
import { apiAst, objectAst } from './arbitraries.js';

describe('formatFilter: round trip', () => {
  it('parseObjectFilter(formatFilter(ast, "object")) equals ast for random ASTs', () => {
    fc.assert(
      fc.property(objectAst, (ast) => {
        expect(stripRanges(parseObjectFilter(formatFilter(ast, 'object')))).toEqual(ast);
      }),
      { numRuns: 1000 },
    );
  });

  it('parseApiFilter(formatFilter(ast, "api")) equals ast for random ASTs', () => {
    fc.assert(
      fc.property(apiAst, (ast) => {
        expect(stripRanges(parseApiFilter(formatFilter(ast, 'api')))).toEqual(ast);
      }),
      { numRuns: 1000 },
    );
  });

  it('a leaf range slices out text that parses to the same leaf', () => {
    fc.assert(
      fc.property(objectAst, (ast) => {
        const text = formatFilter(ast, 'object');
        const parsed = parseObjectFilter(text);
        const leaves: FilterNode[] = [];
        const visit = (n: FilterNode): void => {
          if (n.kind === 'and' || n.kind === 'or') n.children.forEach(visit);
          else if (n.kind === 'not') visit(n.operand);
          else leaves.push(n);
        };
        visit(parsed);
        for (const leaf of leaves) {
          expect(stripRanges(parseObjectFilter(text.slice(leaf.range.start, leaf.range.end)))).toEqual(stripRanges(leaf));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('formatFilter: translating between the languages', () => {
  it.each([
    ['(DEPARTMENT == "Engineering")', 'DEPARTMENT == "Engineering"', 'DEPARTMENT eq "Engineering"'],
    ['!(a.startsWith("x")) && (b == 1 || c.isNull())', '!(a.startsWith("x")) && (b == 1 || c.isNull())', 'not (a sw "x") and (b eq 1 or c isnull)'],
    ['g.containsAllIgnoreCase({"a", \'b\'})', 'g.containsAllIgnoreCase({"a", "b"})', 'g ca ("a","b")'],
    ['a.notNull()', 'a.notNull()', 'pr a'],
    ['x == "say \\"hi\\" \\\\"', 'x == "say \\"hi\\" \\\\"', 'x eq "say \\"hi\\" \\\\"'],
  ])('%s', (source, object, api) => {
    const ast = parseObjectFilter(source);
    expect(formatFilter(ast, 'object')).toBe(object);
    expect(formatFilter(ast, 'api')).toBe(api);
  });

  it('prints API filters in the object language with the IgnoreCase forms they imply', () => {
    expect(formatFilter(parseApiFilter('name sw "J" and created gt 2020-01-01T00:00:00Z or pr x'), 'object')).toBe(
      '(name.startsWithIgnoreCase("J") && created i> "2020-01-01T00:00:00Z") || x.notNull()',
    );
  });

  it.each([
    ['a.isEmpty()', /isEmpty/],
    ['a.endsWith("x")', /endsWith/],
    ['a.join(B.c)', /join/],
    ['a.in({})', /empty list/],
    ['Employee Number == 1', /property name/],
  ])('the API language cannot express %s', (source, message) => {
    expect(() => formatFilter(parseObjectFilter(source), 'api')).toThrow(expect.objectContaining({ code: 'FILTER_UNSUPPORTED', message: expect.stringMatching(message) }));
  });

  it('refuses a property name the object language cannot read back', () => {
    const ast: FilterNode = { kind: 'isNull', property: 'a == b', range: { start: 0, end: 0 } };
    expect(() => formatFilter(ast, 'object')).toThrow(expect.objectContaining({ code: 'FILTER_UNSUPPORTED' }));
  });

  it('refuses an unknown language', () => {
    expect(() => formatFilter(parseObjectFilter('a == 1'), 'scim' as never)).toThrow(expect.objectContaining({ code: 'FILTER_UNSUPPORTED' }));
  });
});
