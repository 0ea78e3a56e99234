// dateMath expressions and dateCompare operands
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/date-math,
// https://developer.sailpoint.com/docs/extensibility/transforms/operations/date-compare).
import { describe, expect, it } from 'vitest';
import {
  compareDates, formatDateMathOutput, parseDateCompareOperand, parseDateCompareOperator, parseDateMath,
} from '../../../src/runtime/dates/index.js';
import { TransformsError } from '../../../src/errors/index.js';

const at = (iso: string): number => Date.parse(iso);
const run = (expression: string, base: string, roundUp = false): string =>
  formatDateMathOutput(parseDateMath(expression).apply(at(base), roundUp));

describe('dateMath', () => {
  // Output as java.time prints a date-time at offset Z: seconds and milliseconds only when not zero.
  it.each([
    // date-math#2 (derived): now-5d/d rounded down
    ['now-5d/d', '2020-10-28T12:34:56.000Z', false, '2020-10-23T00:00Z'],
    // date-math#3 candidate: +12h then round up to the second
    ['+12h/s', '2020-10-28T12:00:00.500Z', true, '2020-10-29T00:00:01Z'],
    ['now', '2020-10-28T12:34:56.000Z', false, '2020-10-28T12:34:56Z'],
    ['now', '2020-10-28T12:34:00.500Z', false, '2020-10-28T12:34:00.500Z'],
    ['now/h', '2020-10-28T12:34:56.000Z', false, '2020-10-28T12:00Z'],
    ['now/h', '2020-10-28T12:34:56.000Z', true, '2020-10-28T13:00Z'],
    ['now+1w', '2020-10-28T12:34:56.000Z', false, '2020-11-04T12:34:56Z'],
    ['now+1y+1M+2d-4h+1m-3s/s', '2020-01-31T12:00:00.500Z', false, '2021-03-02T08:00:57Z'],
    ['+3M', '2020-11-30T10:00:00.000Z', false, '2021-02-28T10:00Z'],
    ['+3M/h', '2020-11-30T10:20:00.000Z', true, '2021-02-28T11:00Z'],
    ['+1d', '2020-12-31T23:59:00.000Z', true, '2021-01-01T23:59Z'],
    ['+1y', '2020-02-29T00:00:00.000Z', false, '2021-02-28T00:00Z'],
    ['/d', '2020-10-28T00:00:00.000Z', true, '2020-10-29T00:00Z'],
    ['/M', '2020-12-15T08:00:00.000Z', true, '2021-01-01T00:00Z'],
    ['/y', '2020-12-15T08:00:00.000Z', false, '2020-01-01T00:00Z'],
    ['-90m/m', '2020-10-28T00:30:30.000Z', false, '2020-10-27T23:00Z'],
  ])('%s from %s (roundUp %s) = %s', (expression, base, roundUp, expected) => {
    expect(run(expression, base, roundUp)).toBe(expected);
  });

  it.each([
    ['+010000-01-01T00:00:00Z', '+10000-01-01T00:00Z'],
    ['0000-06-01T00:00:00Z', '0000-06-01T00:00Z'],
    ['-000001-06-01T00:00:05Z', '-0001-06-01T00:00:05Z'],
  ])('years as LocalDate.toString prints them: %s → %s', (base, expected) => {
    expect(run('+0d', base)).toBe(expected);
  });

  it('knows whether the expression is anchored to now (now wins over the input)', () => {
    expect(parseDateMath('now+1d').anchoredToNow).toBe(true);
    expect(parseDateMath('+1d').anchoredToNow).toBe(false);
  });

  it.each([
    ['now/w', 4, 'rounding by week'],
    ['/w', 1, 'rounding by week'],
    ['', 0, 'empty'],
    ['+d', 1, 'number'],
    ['+1q', 2, 'unit'],
    ['now+1d/', 7, 'unit'],
    ['tomorrow', 0, "unexpected 't'"],
    ['now +1d', 3, "unexpected ' '"],
    ['NOW', 0, "unexpected 'N'"],
  ])('%j is EVAL_DATE_MATH at position %i (%s)', (expression, position, message) => {
    try {
      parseDateMath(expression);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(TransformsError);
      expect((e as TransformsError).code).toBe('EVAL_DATE_MATH');
      expect((e as TransformsError).details).toMatchObject({ expression, position });
      expect((e as TransformsError).message).toContain(message);
    }
  });

  it('leaving the date range is a coded error, not an Invalid Date', () => {
    expect(() => parseDateMath('+999999999y').apply(0, false)).toThrowError(TransformsError);
    expect(() => parseDateMath('+999999999y').apply(0, false)).toThrowError(
      expect.objectContaining({ code: 'EVAL_DATE_MATH', details: { expression: '+999999999y' } }),
    );
  });
});

describe('dateCompare operands and operators', () => {
  const now = at('2023-11-07T10:00:00.000Z');
  it('reads "now" as the evaluation instant and anything else as ISO 8601', () => {
    expect(parseDateCompareOperand('now', now)).toBe(now);
    expect(parseDateCompareOperand('2023-11-01T00:00:00.000Z', now)).toBe(at('2023-11-01T00:00:00Z'));
    expect(() => parseDateCompareOperand('11/01/2023', now)).toThrowError(TransformsError);
    expect(() => parseDateCompareOperand('11/01/2023', now)).toThrowError(
      expect.objectContaining({ code: 'EVAL_DATE_PARSE', details: { input: '11/01/2023', format: 'ISO8601' } }),
    );
  });

  it.each([
    ['gt', 'GT'], ['GT', 'GT'], ['lte', 'LTE'], ['Gte', 'GTE'], ['lt', 'LT'],
  ])('decision: operator %s is %s (case-insensitive)', (text, op) => {
    expect(parseDateCompareOperator(text)).toBe(op);
  });

  it.each(['eq', 'ne', '>', ''])('operator %j is unknown', (text) => {
    expect(parseDateCompareOperator(text)).toBeUndefined();
  });

  it.each([
    [1, 'LT', 2, true], [2, 'LT', 2, false], [2, 'LTE', 2, true],
    [3, 'GT', 2, true], [2, 'GT', 2, false], [2, 'GTE', 2, true], [1, 'GTE', 2, false],
  ] as const)('%i %s %i is %s', (a, op, b, expected) => {
    expect(compareDates(a, op, b)).toBe(expected);
  });
});
