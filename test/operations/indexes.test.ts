// indexOf and lastIndexOf (src/operations/indexOf.ts, src/operations/lastIndexOf.ts): Java
// String.indexOf / lastIndexOf, one table for both — each row is a statement of the spec and the
// index each side gives.

import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine();
const INDEXES = ['indexOf', 'lastIndexOf'] as const;
type Index = (typeof INDEXES)[number];
const t = (type: Index, attributes: Record<string, unknown>) => ({ name: 'i', type, attributes });

/** [statement, input, substring, indexOf gives, lastIndexOf gives] */
const VALUES: [string, string, string, number, number][] = [
  ['index-of#2 / last-index-of#2: a prefix that occurs once is at 0 either way', 'admin_jsmith', 'admin_', 0, 0],
  ['index-of#3 / last-index-of#3: indexOf finds the first occurrence, lastIndexOf the last', 'abcabcabc', 'b', 1, 7],
  ['an absent substring gives -1', 'abc', 'z', -1, -1],
];

const ROWS = VALUES.flatMap(([statement, input, substring, first, last]) => [
  { type: 'indexOf' as Index, statement, input, substring, expected: first },
  { type: 'lastIndexOf' as Index, statement, input, substring, expected: last },
]);

describe('indexOf and lastIndexOf: the first or last occurrence, -1 when absent', () => {
  it.each(ROWS)('$type: $statement ($input / $substring → $expected)', ({ type, input, substring, expected }) => {
    expect(engine.evaluateSync(t(type, { substring }), { input })).toBe(expected);
  });

  it.each(INDEXES)('%s returns the integer (the docs print it as a string)', (type) => {
    expect(typeof engine.evaluateSync(t(type, { substring: 'b' }), { input: 'abc' })).toBe('number');
  });

  it.each(INDEXES)('%s: a null input gives null', (type) => {
    expect(engine.evaluateSync(t(type, { substring: 'b' }), { input: null })).toBeNull();
  });

  for (const type of INDEXES) returnsValueOrCodedError(type, ['input', 'substring']);
});
