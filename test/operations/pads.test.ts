// leftPad and rightPad (src/operations/leftPad.ts, src/operations/rightPad.ts): Apache Commons
// StringUtils.leftPad / rightPad, one table for both — each row is a statement of the spec and the
// value each side gives.

import { describe, expect, it } from 'vitest';
import { IDENTITIES, codedErrorOf, tenantEngine } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = tenantEngine();
const PADS = ['leftPad', 'rightPad'] as const;
type Pad = (typeof PADS)[number];
const pad = (type: Pad, attributes: Record<string, unknown>) => ({ name: 'p', type, attributes });

/** [statement, attributes, input, leftPad gives, rightPad gives] */
const VALUES: [string, Record<string, unknown>, string, string, string][] = [
  ['left-pad#2 / right-pad#2: padding "0" to length "8"', { padding: '0', length: '8' }, '1234', '00001234', '12340000'],
  ['left-pad#3 / right-pad#3: padding "x" to length "7"', { padding: 'x', length: '7' }, '1234', 'xxx1234', '1234xxx'],
  ['a padding of several characters repeats and is cut', { padding: 'ab', length: 9 }, '1234', 'ababa1234', '1234ababa'],
  ['the default padding is one space (length 8.0 is an integer)', { length: 8.0 }, '1234', '    1234', '1234    '],
  ['an empty padding means a space', { padding: '', length: '8' }, '1234', '    1234', '1234    '],
  ['an input longer than length is unchanged', { padding: '0', length: 2 }, '1234', '1234', '1234'],
  ['the empty string padded to length 0 stays empty', { padding: '0', length: 0 }, '', '', ''],
];

const VALUE_ROWS = VALUES.flatMap(([statement, attributes, input, left, right]) => [
  { type: 'leftPad' as Pad, statement, attributes, input, expected: left },
  { type: 'rightPad' as Pad, statement, attributes, input, expected: right },
]);

/**
 * [statement, attributes, code, path]: the same for both. The schema rejects what is not an
 * integer and a missing length; a negative integer passes the schema and is refused by the
 * operation's own range check.
 */
const REJECTED: [string, Record<string, unknown>, string, string][] = [
  ['a negative length is out of range', { length: -1 }, 'COMPILE_INVALID_ATTRIBUTE', '/attributes/length'],
  ['a length that is not a number is not an integer', { length: 'eight' }, 'SCHEMA_TYPE', '/attributes/length'],
  ['a fractional length is not an integer', { length: 2.5 }, 'SCHEMA_TYPE', '/attributes/length'],
  ['length is required', {}, 'SCHEMA_REQUIRED', '/attributes/length'],
];

const REJECTED_ROWS = REJECTED.flatMap(([statement, attributes, code, path]) =>
  PADS.map((type) => ({ type, statement, attributes, code, path })),
);

describe('leftPad and rightPad (Apache Commons StringUtils.leftPad / rightPad)', () => {
  it.each(VALUE_ROWS)('$type: $statement ($attributes on $input → $expected)', ({ type, attributes, input, expected }) => {
    expect(engine.evaluateSync(pad(type, attributes), { input })).toBe(expected);
  });

  it.each(PADS)('%s: a null input gives null (documented)', (type) => {
    expect(engine.evaluateSync(pad(type, { length: 8 }), { input: null })).toBeNull();
  });

  it.each(PADS)('%s: pads an explicit input from an account (the #3 examples\' shape)', (type) => {
    const input = { type: 'accountAttribute', attributes: { sourceName: 'HR Source', attributeName: 'FirstName' } };
    expect(engine.evaluateSync(pad(type, { padding: '.', length: 6, input }), { identity: IDENTITIES[0]! })).toHaveLength(6);
  });

  it.each(REJECTED_ROWS)('$type: $statement — $code at $path, at compile time', ({ type, attributes, code, path }) => {
    const error = codedErrorOf(() => engine.compile(pad(type, attributes)));
    expect(error.code).toBe(code);
    expect(error.path).toBe(path);
  });

  for (const type of PADS) returnsValueOrCodedError(type, ['input', 'length', 'padding']);
});
