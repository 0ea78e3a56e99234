// Java java.util.regex semantics over RE2, where RE2's model differs from Java's
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/replace): loops whose
// body can match the empty string, and Java strings holding lone surrogates. Every expected value
// is what JDK 17's String.replaceAll / split / matches gives; what RE2 cannot reproduce is a coded
// error at compile time (docs/decisions.md X12) or, for an input, when it is matched (X9).

import { describe, expect, it } from 'vitest';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';
import { codeOf, replaceAll } from './java.js';

describe('a repeated group that can match the empty string', () => {
  it.each([
    // Java ends the loop with an empty iteration whose group is "" ((\s*)*. on "é Ñ" gives group 1 ""
    // at the space, RE2 would keep " "), or stops before a later, longer path of the body.
    ['(\\s*)*.', 0],
    ['(a|)*', 0],
    ['(?:(a?)|b)*', 0],
    ['(?:a??)*', 0],
    ['x(?:|a)+', 1],
    ['(?:\\s*)*?.', 0],
    ['x(b?){2,}', 1],
  ])('%s is refused at compile time (REGEX_UNSUPPORTED at the group)', (regex, index) => {
    expect(codeOf(() => compileJavaRegex(regex))).toEqual({ code: 'REGEX_UNSUPPORTED', details: { index } });
  });

  it.each([
    // No group, no alternation, no lazy quantifier in the body: its empty path is its last choice.
    ['(?:\\s*)*.', 'a b', '<$0>', '<a>< b>'],
    ['(?:a?b?)*', 'abba', '[$0]', '[abba][]'],
    // A group that cannot match the empty string, and a bounded count, run as Java runs them.
    ['(a+)*', 'aa', '[$1]', '[aa][]'],
    ['(a?){2,3}', 'aa', '[$1]', '[][]'],
  ])('%s on %j with %j gives %j', (regex, input, replacement, expected) => {
    expect(replaceAll(regex, input, replacement)).toBe(expected);
  });
});

describe('lone surrogates in the input are never altered', () => {
  it.each([
    ['b', 'a\uD800b', 'x', 'a\uD800x'],
    ['.', 'a\uD800b', 'x', 'xxx'],
    ['[^a]', 'a\uD800b', 'x', 'axx'],
    ['\\P{L}', 'a\uD800b', 'x', 'axb'],
    ['(.)b', 'a\uDC00b', '<$1>', 'a<\uDC00>'],
    // A surrogate pair is one code point, matched as such.
    ['.', '\uD83D\uDE00', 'x', 'x'],
  ])('%s on %j with %j gives %j', (regex, input, replacement, expected) => {
    expect(replaceAll(regex, input, replacement)).toBe(expected);
  });

  it('a lone surrogate in the replacement is kept', () => {
    expect(replaceAll('b', 'abc', '\uD800')).toBe('a\uD800c');
  });

  it('split, matches and find see the surrogate as one char', () => {
    expect(compileJavaRegex('b').split('a\uD800b\uD800c')).toEqual(['a\uD800', '\uD800c']);
    expect(compileJavaRegex('a.b').matches('a\uDBFFb')).toBe(true);
    expect(compileJavaRegex('\\p{L}').find('\uDC00')).toBe(false);
  });

  it('a pattern that tells surrogates apart, or an input that also holds U+E000–U+E7FF, is a coded error', () => {
    expect(codeOf(() => replaceAll('\\p{Cs}', 'a\uD800b', 'x'))).toEqual({ code: 'REGEX_UNSUPPORTED', details: { index: 0, input: 1 } });
    expect(codeOf(() => replaceAll('[\\uE000]', 'a\uD800', 'x'))).toEqual({ code: 'REGEX_UNSUPPORTED', details: { index: 0, input: 1 } });
    expect(codeOf(() => replaceAll('b', '\uE000\uD800b', 'x'))).toEqual({ code: 'REGEX_UNSUPPORTED', details: { index: 0, input: 1 } });
    // Without a lone surrogate in the input, the same patterns run.
    expect(replaceAll('\\p{Cs}', 'ab', 'x')).toBe('ab');
  });
});
