import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine();
const t = (attributes: Record<string, unknown>) => ({ name: 'i', type: 'indexOf', attributes });

describe('indexOf (): the first occurrence, -1 when absent', () => {
  it.each([
    ['admin_jsmith', 'admin_', 0], // index-of#2
    ['abcabcabc', 'b', 1], // #3
    ['abc', 'z', -1],
  ])('%j / %j → %i', (input, substring, expected) => {
    expect(engine.evaluateSync(t({ substring }), { input })).toBe(expected);
  });

  it('returns the integer (the docs print it as a string)', () => {
    expect(typeof engine.evaluateSync(t({ substring: 'b' }), { input: 'abc' })).toBe('number');
  });

  it('null input gives null', () => {
    expect(engine.evaluateSync(t({ substring: 'b' }), { input: null })).toBeNull();
  });

  returnsValueOrCodedError('indexOf', ['input', 'substring']);
});
