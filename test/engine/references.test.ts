// A transform's references (src/engine/references.ts): the sites within a value, what a
// definition reaches through stored transforms (with templates dynamic only when asked), a
// renamed copy, and cycles — all without recursion, so that deep input cannot overflow the stack.

import { describe, expect, it } from 'vitest';
import { findCycles, reachableFrom, reachesType, referencesIn, referencesName, renameReferences } from '../../src/engine/references.js';

const ref = (id: unknown) => ({ type: 'reference', attributes: { id } });

/** A value nested `depth` levels (each level an `upper` of the next), ending in `leaf`. */
function nested(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = { type: 'upper', attributes: { input: v } };
  return v;
}

describe('referencesIn', () => {
  it('finds every reference with the pointer of its id, wherever it sits', () => {
    const sites = referencesIn({ values: ['x', ref('A'), { type: 'trim', attributes: { input: ref('B/~') } }], odd: { 'a/b': ref('C') } });
    expect(sites.map((s) => [s.name, s.pointer]).sort()).toEqual([
      ['A', '/values/1/attributes/id'],
      ['B/~', '/values/2/attributes/input/attributes/id'],
      ['C', '/odd/a~1b/attributes/id'],
    ]);
  });

  it('ignores a reference whose id is not text', () => {
    expect(referencesIn([ref(3), ref(null), { type: 'reference', attributes: [] }])).toEqual([]);
  });

  it('walks 100,000 levels', () => {
    expect(referencesIn(nested(100_000, ref('Deep'))).map((s) => s.name)).toEqual(['Deep']);
    expect(referencesName(nested(100_000, ref('Deep')), 'Deep')).toBe(true);
    expect(referencesName(nested(10, ref('Deep')), 'Other')).toBe(false);
  });
});

describe('reachableFrom', () => {
  const stored = new Map<string, unknown>([
    ['A', { type: 'upper', attributes: { input: ref('B') } }],
    ['B', { type: 'usernameGenerator', attributes: { patterns: [] } }],
  ]);

  it('follows references through the stored transforms, each once', () => {
    const reached = reachableFrom({ values: [ref('A'), ref('A'), ref('Missing')] }, (n) => stored.get(n));
    expect([...reached.names].sort()).toEqual(['A', 'B', 'Missing']);
    expect(reached.types.has('usernameGenerator')).toBe(true);
    expect(reached.dynamic).toBe(false);
  });

  it('reads a template id as a name unless templates are dynamic', () => {
    const definition = ref('$attributes.which');
    expect([...reachableFrom(definition, () => undefined).names]).toEqual(['$attributes.which']);
    const dynamic = reachableFrom(definition, () => undefined, { templatesAreDynamic: true });
    expect(dynamic).toMatchObject({ dynamic: true });
    expect([...dynamic.names]).toEqual([]);
  });

  it('tells whether a type is reached (the refresh asks it of usernameGenerator)', () => {
    expect(reachesType(ref('A'), 'usernameGenerator', (n) => stored.get(n))).toBe(true);
    expect(reachesType(ref('B'), 'lower', (n) => stored.get(n))).toBe(false);
  });

  it('follows a cycle of references without looping', () => {
    const ring = new Map<string, unknown>([['X', ref('Y')], ['Y', ref('X')]]);
    expect([...reachableFrom(ref('X'), (n) => ring.get(n)).names].sort()).toEqual(['X', 'Y']);
  });
});

describe('renameReferences', () => {
  it('copies the value with the ids renamed, leaving the original and other members as they were', () => {
    const original = { type: 'concat', attributes: { values: ['a', ref('A'), ref('B'), { n: 1, m: [true, null] }] } };
    const copy = renameReferences(original, (n) => (n === 'A' ? '[base] A' : null));
    expect(copy).toEqual({ type: 'concat', attributes: { values: ['a', ref('[base] A'), ref('B'), { n: 1, m: [true, null] }] } });
    expect(Object.keys((copy as { attributes: object }).attributes)).toEqual(['values']);
    expect(original.attributes.values[1]).toEqual(ref('A'));
  });

  it('copies 100,000 levels', () => {
    const copy = renameReferences(nested(100_000, ref('A')), () => 'Z');
    expect(referencesIn(copy).map((s) => s.name)).toEqual(['Z']);
  });
});

describe('findCycles', () => {
  const edges = (pairs: [string, string[]][]) => new Map(pairs.map(([n, to]) => [n, to.map((name) => ({ name }))]));

  it('reports each cycle at the reference that closes it, with the path taken', () => {
    const found: string[][] = [];
    findCycles(['A'], edges([['A', ['B']], ['B', ['C']], ['C', ['A']]]), (cycle, taken) => {
      found.push(cycle);
      expect(taken.map((r) => r.name)).toEqual(['B', 'C', 'A']);
    });
    expect(found).toEqual([['A', 'B', 'C', 'A']]);
  });

  it('finds no cycle in a diamond', () => {
    let calls = 0;
    findCycles(['Top'], edges([['Top', ['L', 'R']], ['L', ['Leaf']], ['R', ['Leaf']], ['Leaf', []]]), () => void calls++);
    expect(calls).toBe(0);
  });

  it('walks a chain of 100,000 names and stops when asked', () => {
    const chain = edges(Array.from({ length: 100_000 }, (_, i) => [`n${i}`, [i + 1 < 100_000 ? `n${i + 1}` : 'n0']] as [string, string[]]));
    let length = 0;
    findCycles(['n0'], chain, (cycle) => {
      length = cycle.length;
      return true;
    });
    expect(length).toBe(100_001);
  });
});
