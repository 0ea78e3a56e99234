// Java's anchors over RE2 (docs/decisions.md X3, X12): `^` and `$` next to Java's five line
// terminators (`\n`, `\r`, `\u0085`, `\u2028`, `\u2029`, `\r\n` as one), quantified zero-width
// atoms, and COMMENTS-mode quantifiers. Each expected value is what JDK 17's String.replaceAll /
// split gives for the same arguments (checked with the differential suite's oracle).

import { describe, expect, it } from 'vitest';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';
import { codeOf, replaceAll } from './java.js';

/** The code and index of the coded error compiling `regex` raises. */
function rejection(regex: string): { code: string; index: unknown } {
  const { code, details } = codeOf(() => compileJavaRegex(regex));
  return { code, index: details?.index };
}

describe('MULTILINE `^` starting every alternative: after any Java line terminator, never at the end', () => {
  it.each([
    ['(?m)^', 'a\nb\n', 'Xa\nXb\n'],
    ['(?m)^', '', ''],
    ['(?m)^', 'a\rb\r\nc\u0085d\u2028e\u2029f', 'Xa\rXb\r\nXc\u0085Xd\u2028Xe\u2029Xf'],
    ['(?m)^', '\r\n\r\n', 'X\r\nX\r\n'],
    ['(?md)^', 'a\rb\nc\n', 'Xa\rb\nXc\n'],
    ['(?m)^ *', 'a \r\nb \n\r\u2028c\r', 'Xa \r\nXb \nX\rX\u2028Xc\r'],
    ['(?m)^a|^b', 'a\rb\r\nb\u0085a', 'X\rX\r\nX\u0085X'],
  ])('%j on %j → %j', (regex, input, expected) => {
    expect(replaceAll(regex, input)).toBe(expected);
  });

  it('splits at line starts', () => {
    expect(compileJavaRegex('(?m)^').split('a\rb\r\nb\u0085a\n')).toEqual(['a\r', 'b\r\n', 'b\u0085', 'a\n']);
  });

  it('matches() needs a non-empty input', () => {
    expect(compileJavaRegex('(?m)^').matches('')).toBe(false);
    expect(compileJavaRegex('(?m)^a').matches('a')).toBe(true);
    expect(compileJavaRegex('(?m)^a').find('b\u2028a')).toBe(true);
  });

  it.each([
    ['(?m)\\s|^', 7],
    ['(?m)a^', 5],
    ['(?m)(^a)', 5],
  ])('anywhere else it is refused: %j → REGEX_UNSUPPORTED at %i', (regex, index) => {
    expect(rejection(regex)).toEqual({ code: 'REGEX_UNSUPPORTED', index });
  });
});

describe('MULTILINE `$`: before any Java line terminator but never between `\\r` and `\\n`', () => {
  it.each([
    ['(?m) *$', 'a \r\nb \n\r\u2028c', 'aXX\r\nbXX\nX\rX\u2028cX'],
    ['(?m)$', 'a\r\nb', 'aX\r\nbX'],
    ['(?md)$', 'a\rb\r\nc\n', 'a\rb\rX\ncX\nX'],
    ['(?m)${2,}?', '9\u2028x', '9X\u2028xX'],
  ])('%j on %j → %j', (regex, input, expected) => {
    expect(replaceAll(regex, input)).toBe(expected);
  });

  it('is refused where the pattern itself may take the `\\r` (Java would backtrack into it)', () => {
    expect(rejection('(?m)\\s+$')).toEqual({ code: 'REGEX_UNSUPPORTED', index: 7 });
    expect(rejection('(?m)\\p{IsKlingon}a$').code).toBe('REGEX_SYNTAX');
  });

  it.each([
    ['(?m)^$', '\r\n\r\n\n\r', 'X\r\nX\r\nX\nX\r'],
    ['(?m)a$', 'a\r\na\n', 'X\r\nX\n'],
  ])('%j on %j → %j', (regex, input, expected) => {
    expect(replaceAll(regex, input)).toBe(expected);
  });
});

describe('`$` and `\\Z` without MULTILINE: at the end, or before a final terminator (`\\r\\n` as one)', () => {
  it.each([
    ['$', 'a\r\n', 'aX\r\nX'],
    ['\\s$', 'a\r\n', 'a\rX'],
    ['\\s+$', 'a \r\n', 'aX'],
    ['\\Z', 'a\u0085', 'aX\u0085X'],
  ])('%j on %j → %j', (regex, input, expected) => {
    expect(replaceAll(regex, input)).toBe(expected);
  });

  it.each([
    ['a$\\n', 1],
    ['$\\z', 0],
    ['\\Z+?\\z{1,3}', 0],
    ['(a$)+', 2],
  ])('followed by more of the pattern, or repeated, it is refused: %j → REGEX_UNSUPPORTED at %i', (regex, index) => {
    expect(rejection(regex)).toEqual({ code: 'REGEX_UNSUPPORTED', index });
  });
});

describe('a quantified zero-width atom holds in place: with a minimum of 0 always, otherwise once', () => {
  it.each([
    ['$*', 'ab\n', 'XaXbX\nX'],
    ['a$+', 'ab\na\n', 'ab\nX\n'],
    ['\\z+', 'ab\n', 'ab\nX'],
    ['\\b{2}', 'ab c', 'XabX XcX'],
    ['(?x)^* +|x', 'ab x', 'XaXbX XxX'], // `^*+`: possessive, as COMMENTS mode reads it
  ])('%j on %j → %j', (regex, input, expected) => {
    expect(replaceAll(regex, input)).toBe(expected);
  });
});

describe('COMMENTS mode reads quantifiers past whitespace and comments', () => {
  it.each([
    ['(?x)a* #c\n ?', 'aaa', 'XaXaXaX'],
    ['(?x)a{2 , 3 }', 'aaaa', 'Xa'],
    ['(?x)[\\s]{0,} ?\\A{2,}?', 'a b', 'Xa b'],
  ])('%j on %j → %j', (regex, input, expected) => {
    expect(replaceAll(regex, input)).toBe(expected);
  });

  it('splits with a lazy counted closure', () => {
    expect(compileJavaRegex('(?x)(?:x){2} ?').split('axxb')).toEqual(['a', 'b']);
  });
});
