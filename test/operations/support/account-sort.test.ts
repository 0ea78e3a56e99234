// Sort keys of accountSortAttribute (src/operations/support/account-sort.ts): an instant written
// the canonical way is read field by field, and gives exactly what the pattern and Date.parse
// give; any other text takes that general path.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalInstant, keyOf } from '../../../src/operations/support/account-sort.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** The key as the general path reads it (the pattern, then Date.parse). */
function general(s: string): number {
  return ISO_DATE.test(s) ? Date.parse(s) : NaN;
}

describe('canonical instants', () => {
  it.each([
    ['2015-05-02T22:04:24.000Z', Date.UTC(2015, 4, 2, 22, 4, 24)],
    ['2015-05-02T22:04:24Z', Date.UTC(2015, 4, 2, 22, 4, 24)],
    ['1969-12-31T23:59:59.999Z', -1],
    ['2015-02-30T00:00:00.000Z', Date.UTC(2015, 2, 2)],
  ])('%s is read field by field', (text, instant) => {
    expect(canonicalInstant(text)).toBe(instant);
    expect(keyOf(text)).toEqual({ kind: 'date', value: instant });
  });

  it.each([
    '0099-01-01T00:00:00.000Z',
    '2015-13-01T00:00:00.000Z',
    '2015-01-32T00:00:00.000Z',
    '2015-01-01T24:00:00.000Z',
    '2015-01-01T23:60:00.000Z',
    '2015-01-01T23:00:60.000Z',
    '2015-01-01 23:00:00.000Z',
    '2015-01-01T23:00:00.000+01:00',
    '2015-01-01',
    '+02015-01-01T00:00:00Z',
  ])('%s takes the general path', (text) => {
    expect(canonicalInstant(text)).toBeNaN();
  });

  it('gives what the pattern and Date.parse give, on any text of the canonical shape', () => {
    const digit = fc.constantFrom(...'0123456789x'.split(''));
    const field = (count: number) => fc.array(digit, { minLength: count, maxLength: count }).map((d) => d.join(''));
    const text = fc
      .tuple(field(4), field(2), field(2), field(2), field(2), field(2), fc.option(field(3)))
      .map(([y, mo, d, h, mi, s, ms]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${ms === null ? '' : '.' + ms}Z`);
    fc.assert(
      fc.property(text, (s) => {
        const fast = canonicalInstant(s);
        if (!Number.isNaN(fast)) expect(fast).toBe(general(s));
        const key = keyOf(s);
        const expected = general(s);
        if (!Number.isNaN(expected)) expect(key).toEqual({ kind: 'date', value: expected });
      }),
      { numRuns: 5000 },
    );
  });
});
