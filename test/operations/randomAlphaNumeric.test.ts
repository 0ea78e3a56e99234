import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { codedErrorOf } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}
const ran = (attributes: Record<string, unknown> | null = null) => ({ name: 'r', type: 'randomAlphaNumeric', attributes });

describe('randomAlphaNumeric', () => {
  const engine = createEngine({ random: seeded(1) });
  it.each([
    [null, /^[A-Za-z0-9]{32}$/], // random-alphanumeric#2: default 32
    [{ length: '10' }, /^[A-Za-z0-9]{10}$/], // random-alphanumeric#3
    [{ length: 450 }, /^[A-Za-z0-9]{450}$/],
  ])('%j matches %s', (attributes, pattern) => {
    expect(engine.evaluateSync(ran(attributes))).toMatch(pattern);
  });

  it('is reproducible with the same injected random source', () => {
    const a = createEngine({ random: seeded(7) }).evaluateSync(ran());
    const b = createEngine({ random: seeded(7) }).evaluateSync(ran());
    expect(a).toBe(b);
    expect(createEngine({ random: () => 0 }).evaluateSync(ran({ length: 3 }))).toBe('AAA');
  });

  it.each([
    [0, 'COMPILE_INVALID_ATTRIBUTE'],
    [451, 'COMPILE_INVALID_ATTRIBUTE'],
    [-5, 'COMPILE_INVALID_ATTRIBUTE'],
    ['x', 'SCHEMA_TYPE'],
  ])('length %j is rejected at compile time: %s', (length, code) => {
    const error = codedErrorOf(() => engine.compile(ran({ length })));
    expect({ code: error.code, path: error.path }).toEqual({ code, path: '/attributes/length' });
  });

  returnsValueOrCodedError('randomAlphaNumeric', ['length']);
});
