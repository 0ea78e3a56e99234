// formatSearchQuery: printing the search query AST, parse(format(ast)) = ast, and the source
// ranges the parser records (the conventions of the filter ASTs).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { childrenOf, countNodes, stripRanges } from '../../../src/filter/index.js';
import { formatSearchQuery, parseSearchQuery, type SearchNode } from '../../../src/filter/search/index.js';
import { searchAst } from '../arbitraries.js';

const R = { start: 0, end: 0 };
const term = (value: string, property: string | null = null, extra: Partial<SearchNode> = {}): SearchNode =>
  ({ kind: 'term', property, value, phrase: false, prefix: false, range: R, ...extra }) as SearchNode;

describe('formatSearchQuery: round trip', () => {
  it('parseSearchQuery(formatSearchQuery(ast)) equals ast for random ASTs', () => {
    fc.assert(
      fc.property(searchAst, (ast) => {
        expect(stripRanges(parseSearchQuery(formatSearchQuery(ast)))).toEqual(ast);
      }),
      { numRuns: 1000 },
    );
  });

  it('a node range slices out text that parses to the same node', () => {
    fc.assert(
      fc.property(searchAst, (ast) => {
        const text = formatSearchQuery(ast);
        const stack: SearchNode[] = [parseSearchQuery(text)];
        while (stack.length > 0) {
          const node = stack.pop()!;
          expect(stripRanges(parseSearchQuery(text.slice(node.range.start, node.range.end)))).toEqual(stripRanges(node));
          stack.push(...childrenOf(node));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('formatSearchQuery: text', () => {
  it.each([
    ['*', '*'],
    ['name:john', 'name:john'],
    ['name:"John Smith"', 'name:"John Smith"'],
    ['email:*', 'email:*'],
    ['firstName:Jo*', 'firstName:Jo*'],
    ['a:1 b:2 AND c:3', 'a:1 OR (b:2 AND c:3)'],
    ['NOT (a:1 OR b:2)', 'NOT (a:1 OR b:2)'],
    ['name:a\\:b', 'name:a\\:b'],
    ['name:x\\*', 'name:x\\*'],
    ['name:"say \\"hi\\""', 'name:"say \\"hi\\""'],
    ['\\AND', '\\AND'],
    ['name:\\-x', 'name:\\-x'],
  ])('%s prints as %s', (query, printed) => {
    expect(formatSearchQuery(parseSearchQuery(query))).toBe(printed);
  });

  it('escapes what the scanner reads as syntax in a word value', () => {
    expect(formatSearchQuery(term('a b(c):d*[e]', 'name'))).toBe('name:a\\ b\\(c\\)\\:d\\*\\[e\\]');
    expect(formatSearchQuery(term('+1'))).toBe('\\+1');
    expect(formatSearchQuery(term('OR'))).toBe('\\OR');
  });

  it.each<[string, SearchNode]>([
    ['a field name that is not dotted identifiers', { kind: 'exists', property: 'a b', range: R }],
    ['an empty word', term('')],
    ['a phrase with a prefix', term('x', 'name', { phrase: true, prefix: true } as Partial<SearchNode>)],
    ['an and of one clause', { kind: 'and', children: [term('x')], range: R }],
  ])('refuses %s with FILTER_UNSUPPORTED', (_name, ast) => {
    expect(() => formatSearchQuery(ast)).toThrow(expect.objectContaining({ code: 'FILTER_UNSUPPORTED' }));
  });
});

describe('parseSearchQuery: ranges and limits', () => {
  it('records the range of every node; a parenthesised clause covers its parentheses', () => {
    const ast = parseSearchQuery('a:1 AND (b:"x y" OR NOT c*)');
    expect(ast).toMatchObject({
      kind: 'and',
      range: { start: 0, end: 27 },
      children: [
        { kind: 'term', range: { start: 0, end: 3 } },
        {
          kind: 'or',
          range: { start: 8, end: 27 },
          children: [
            { kind: 'term', range: { start: 9, end: 16 } },
            { kind: 'not', range: { start: 20, end: 26 }, operand: { kind: 'term', prefix: true, range: { start: 24, end: 26 } } },
          ],
        },
      ],
    });
  });

  it.each([
    ['maxLength', 'a:1 OR b:2', { maxLength: 9 }],
    ['maxNodes', 'a:1 OR b:2', { maxNodes: 2 }],
    ['maxDepth', 'NOT NOT a:1', { maxDepth: 1 }],
    ['maxTerms', 'a b c', { maxTerms: 2 }],
  ] as const)('enforces %s with FILTER_LIMIT, a position and a caret excerpt', (limit, query, options) => {
    expect(() => parseSearchQuery(query, options)).toThrow(
      expect.objectContaining({ code: 'FILTER_LIMIT', details: expect.objectContaining({ limit, position: expect.any(Number), excerpt: expect.stringContaining('^') }) }),
    );
  });

  it('counts nodes as the filter languages do, and accepts a query at each limit', () => {
    const query = 'a:1 OR b:2 OR NOT c:3';
    expect(countNodes(parseSearchQuery(query))).toBe(5);
    expect(() => parseSearchQuery(query, { maxLength: query.length, maxNodes: 5, maxDepth: 1, maxTerms: 3 })).not.toThrow();
  });

  it.each([[{ maxTerm: 5 }], [{ maxTerms: 0 }], [{ maxDepth: 1.5 }], ['x']])('rejects the option %j', (options) => {
    expect(() => parseSearchQuery('a:1', options as never)).toThrow(expect.objectContaining({ code: 'FILTER_OPTION_INVALID' }));
  });
});
