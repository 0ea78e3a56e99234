// How a search term matches a field value (docs/decisions.md B20): words in order, ignoring case;
// a prefix matches the value or one of its words.

import { describe, expect, it } from 'vitest';
import { matchesPrefix, matchesWords } from '../../../src/filter/search/index.js';

describe('word matching (docs/decisions.md "Search matching")', () => {
  it.each([
    ['John Smith', 'john', true],
    ['John Smith', 'SMITH', true],
    ['John Smith', 'john smith', true],
    ['John Smith', 'smith john', false],
    ['John Smithers', 'smith', false],
    ['fatima.schroder@example.com', 'fatima.schroder@example.com', true],
    ['fatima.schroder@example.com', 'schroder', true],
    ['Schröder', 'schröder', true],
    [null, 'x', false],
    [100001, '100001', true],
  ])('%j matches %j: %s', (value, query, expected) => {
    expect(matchesWords(value, query)).toBe(expected);
  });

  it.each([
    ['John Smith', 'jo', true],
    ['John Smith', 'sm', true],
    ['John Smith', 'mith', false],
  ])('%j has prefix %j: %s', (value, prefix, expected) => {
    expect(matchesPrefix(value, prefix)).toBe(expected);
  });
});
