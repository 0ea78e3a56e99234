// The AST helpers (walk, collect, filterProperties, countNodes) and the parse limits.

import { describe, expect, it } from 'vitest';
import {
  caretExcerpt, collect, countNodes, DEFAULT_FILTER_LIMITS, filterProperties, isLeaf, parseApiFilter, parseObjectFilter, UNSUPPORTED_KINDS, walk,
  type FilterNode,
} from '../../src/filter/index.js';

describe('AST helpers', () => {
  const ast = parseObjectFilter('(a == 1 || !(b.c.isNull())) && a.in({"x"}) && links.join(Link.id)');

  it('filterProperties lists every property once, in order of first use', () => {
    expect(filterProperties(ast)).toEqual(['a', 'b.c', 'links']);
  });

  it('walk visits in pre-order with depths, and skips children when told', () => {
    const seen: string[] = [];
    walk(ast, (n, depth) => {
      seen.push(`${depth}:${n.kind}`);
    });
    expect(seen).toEqual(['0:and', '1:or', '2:compare', '2:not', '3:isNull', '1:in', '1:join']);
    const shallow: string[] = [];
    walk(ast, (n) => {
      shallow.push(n.kind);
      return n.kind !== 'or';
    });
    expect(shallow).toEqual(['and', 'or', 'in', 'join']);
  });

  it('collect finds nodes by a test; countNodes counts them all', () => {
    expect(collect(ast, (n) => UNSUPPORTED_KINDS.has(n.kind)).map((n) => n.kind)).toEqual(['join']);
    expect(collect(ast, isLeaf)).toHaveLength(4);
    expect(countNodes(ast)).toBe(7);
  });

  it('walks a very deep hand-built tree without overflowing the stack', () => {
    let node: FilterNode = { kind: 'isNull', property: 'a', range: { start: 0, end: 0 } };
    for (let i = 0; i < 100_000; i++) node = { kind: 'not', operand: node, range: { start: 0, end: 0 } };
    expect(countNodes(node)).toBe(100_001);
  });
});

describe('limits', () => {
  it.each([
    ['parseObjectFilter', parseObjectFilter, 'a == 1', 'a == 1 && b == 2 && c == 3', '!(!(!(a == 1)))'],
    ['parseApiFilter', parseApiFilter, 'a eq 1', 'a eq 1 and b eq 2 and c eq 3', 'not (not (not a eq 1))'],
  ] as const)('%s enforces maxLength, maxNodes and maxDepth with FILTER_LIMIT', (_name, parse, short, wide, deep) => {
    expect(() => parse(short, { maxLength: short.length })).not.toThrow();
    expect(() => parse(short, { maxLength: short.length - 1 })).toThrow(expect.objectContaining({ code: 'FILTER_LIMIT', details: expect.objectContaining({ limit: 'maxLength' }) }));
    expect(() => parse(wide, { maxNodes: 4 })).not.toThrow();
    expect(() => parse(wide, { maxNodes: 3 })).toThrow(expect.objectContaining({ code: 'FILTER_LIMIT', details: expect.objectContaining({ limit: 'maxNodes' }) }));
    expect(() => parse(deep, { maxDepth: 6 })).not.toThrow();
    expect(() => parse(deep, { maxDepth: 3 })).toThrow(expect.objectContaining({ code: 'FILTER_LIMIT', details: expect.objectContaining({ limit: 'maxDepth' }) }));
  });

  it('defaults to 10,000 characters, 1,000 nodes, depth 64 and 128 comparisons (collection filters count them)', () => {
    expect(DEFAULT_FILTER_LIMITS).toEqual({ maxLength: 10_000, maxNodes: 1_000, maxDepth: 64, maxTerms: 128 });
    expect(() => parseObjectFilter('('.repeat(65) + 'a == 1' + ')'.repeat(65))).toThrow(expect.objectContaining({ code: 'FILTER_LIMIT' }));
    expect(() => parseObjectFilter('('.repeat(64) + 'a == 1' + ')'.repeat(64))).not.toThrow();
  });

  it('turns a stack overflow under a raised maxDepth into FILTER_LIMIT', () => {
    const deep = '('.repeat(100_000) + 'a == 1' + ')'.repeat(100_000);
    expect(() => parseObjectFilter(deep, { maxDepth: 1_000_000, maxLength: 1_000_000 })).toThrow(expect.objectContaining({ code: 'FILTER_LIMIT' }));
  });

  it.each([[{ maxLenght: 5 }], [{ maxDepth: 0 }], [{ maxNodes: 1.5 }], [{ maxLength: '10' }], ['x']])('rejects the option %j', (options) => {
    expect(() => parseObjectFilter('a == 1', options as never)).toThrow(expect.objectContaining({ code: 'FILTER_OPTION_INVALID' }));
  });
});

describe('caretExcerpt', () => {
  it('clips long input around the position and keeps the caret under it', () => {
    const text = 'x'.repeat(100) + '#' + 'y'.repeat(100);
    const [line, caret] = caretExcerpt(text, 100).split('\n') as [string, string];
    expect(line[caret.length - 1]).toBe('#');
    expect(line.startsWith('…') && line.endsWith('…')).toBe(true);
  });

  it('shows newlines and tabs as spaces so the caret column holds', () => {
    expect(caretExcerpt('a\n\tb', 3)).toBe('a  b\n   ^');
  });
});
