// The caret excerpt of a query language's syntax error (src/filter/errors.ts): one line of the
// input around the position, the caret under the character it names, and no control character of
// the input reaching a terminal.

import { describe, expect, it } from 'vitest';
import { caretExcerpt } from '../../src/filter/errors.js';

describe('caretExcerpt', () => {
  it('puts the caret under the character at the position', () => {
    expect(caretExcerpt('name eq "x" AND b', 12)).toBe('name eq "x" AND b\n            ^');
  });

  it('shows line breaks and tabs as spaces, the caret column unchanged', () => {
    expect(caretExcerpt('a\teq\n"x"', 5)).toBe('a eq "x"\n     ^');
  });

  it('shows an escape sequence as its JSON escape and keeps the caret under the same character', () => {
    expect(caretExcerpt('name eq "\u001b[2J" AND', 15)).toBe('name eq "\\u001b[2J" AND\n                    ^');
  });

  it('cuts a long input around the position with ellipses', () => {
    const text = `${'a'.repeat(100)}!${'b'.repeat(100)}`;
    expect(caretExcerpt(text, 100)).toBe(`…${'a'.repeat(40)}!${'b'.repeat(39)}…\n${' '.repeat(41)}^`);
  });
});
