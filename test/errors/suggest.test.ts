import { describe, expect, it } from 'vitest';
import { closestName, didYouMean, levenshtein } from '../../src/errors/suggest.js';

describe('levenshtein', () => {
  it.each([
    ['', '', 0],
    ['abc', 'abc', 0],
    ['firstvalid', 'firstValid', 1],
    ['atributeName', 'attributeName', 1],
    ['kitten', 'sitting', 3],
  ])('%s → %s is %i edits', (a, b, d) => {
    expect(levenshtein(a, b)).toBe(d);
  });
});

describe('closestName', () => {
  const types = ['firstValid', 'accountAttribute', 'static', 'concat', 'conditional'];
  it.each([
    ['firstvalid', 'firstValid'],
    ['acountAttribute', 'accountAttribute'],
    ['con', 'concat'],
    ['statik', 'static'],
  ])('%s suggests %s', (unknown, expected) => {
    expect(closestName(unknown, types)).toBe(expected);
  });

  it('suggests nothing when every name is too far to be a typo', () => {
    expect(closestName('uppercase', types)).toBeUndefined();
    expect(closestName('x', [])).toBeUndefined();
  });
});

describe('didYouMean', () => {
  it('ends a message with the suggestion as a JSON string, or with nothing', () => {
    expect(didYouMean('firstValid')).toBe('; did you mean "firstValid"?');
    expect(didYouMean(undefined)).toBe('');
  });

  it('answers a name of a megabyte at once: lengths beyond a typo are not compared', () => {
    expect(closestName('x'.repeat(1_000_000), ['firstValid'])).toBeUndefined();
  });
});
