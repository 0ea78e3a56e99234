// randomAlphaNumeric and randomNumeric (src/operations/randomAlphaNumeric.ts,
// src/operations/randomNumeric.ts): random strings of a given length over an alphabet, one table for
// both — each row is a statement of the spec and what each side gives.

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
const RANDOMS = ['randomAlphaNumeric', 'randomNumeric'] as const;
type Random = (typeof RANDOMS)[number];
const ran = (type: Random, attributes: Record<string, unknown> | null = null) => ({ name: 'r', type, attributes });

type Case = [attributes: Record<string, unknown> | null, matches: RegExp];
/** [statement, randomAlphaNumeric case, randomNumeric case] */
const VALUES: [string, Case, Case][] = [
  // random-numeric#2: default 10, as https://developer.sailpoint.com/docs/extensibility/transforms/operations/random-numeric
  // says (the OpenAPI description says 32).
  ['random-alphanumeric#2 / random-numeric#2: the default length is 32 / 10', [null, /^[A-Za-z0-9]{32}$/], [null, /^[0-9]{10}$/]],
  ['random-alphanumeric#3 / random-numeric#3: a length given as a string', [{ length: '10' }, /^[A-Za-z0-9]{10}$/], [{ length: '6' }, /^[0-9]{6}$/]],
  ['the documented maximum length 450 is allowed', [{ length: 450 }, /^[A-Za-z0-9]{450}$/], [{ length: 450 }, /^[0-9]{450}$/]],
];
const VALUE_ROWS = VALUES.flatMap(([statement, [alphaAttributes, alpha], [numericAttributes, numeric]]) => [
  { type: 'randomAlphaNumeric' as Random, statement, attributes: alphaAttributes, pattern: alpha },
  { type: 'randomNumeric' as Random, statement, attributes: numericAttributes, pattern: numeric },
]);

/** [statement, length, code, path]: the same for both (the documented range is 1 to 450). */
const REJECTED: [string, unknown, string, string][] = [
  ['length 0 is below the range', 0, 'COMPILE_INVALID_ATTRIBUTE', '/attributes/length'],
  ['length 451 is above the documented maximum 450', 451, 'COMPILE_INVALID_ATTRIBUTE', '/attributes/length'],
  ['a negative length is below the range', -5, 'COMPILE_INVALID_ATTRIBUTE', '/attributes/length'],
  ['a length that is not a number is not an integer', 'x', 'SCHEMA_TYPE', '/attributes/length'],
];
const REJECTED_ROWS = REJECTED.flatMap(([statement, length, code, path]) => RANDOMS.map((type) => ({ type, statement, length, code, path })));

/** What an injected random source of constant 0 gives: the first character of the alphabet. */
const FIRST: Record<Random, string> = { randomAlphaNumeric: 'AAA', randomNumeric: '000' };

describe('randomAlphaNumeric and randomNumeric', () => {
  const engine = createEngine({ random: seeded(1) });

  it.each(VALUE_ROWS)('$type: $statement ($attributes matches $pattern)', ({ type, attributes, pattern }) => {
    expect(engine.evaluateSync(ran(type, attributes))).toMatch(pattern);
  });

  it.each(RANDOMS)('%s is reproducible with the same injected random source', (type) => {
    const a = createEngine({ random: seeded(7) }).evaluateSync(ran(type));
    const b = createEngine({ random: seeded(7) }).evaluateSync(ran(type));
    expect(a).toBe(b);
    expect(createEngine({ random: () => 0 }).evaluateSync(ran(type, { length: 3 }))).toBe(FIRST[type]);
  });

  it.each(REJECTED_ROWS)('$type: $statement — $code at $path, at compile time', ({ type, length, code, path }) => {
    const error = codedErrorOf(() => engine.compile(ran(type, { length })));
    expect(error.code).toBe(code);
    expect(error.path).toBe(path);
  });

  for (const type of RANDOMS) returnsValueOrCodedError(type, ['length']);
});
