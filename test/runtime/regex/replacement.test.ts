// Java replacement strings (Matcher.appendReplacement syntax, as replace and replaceAll use them:
// https://developer.sailpoint.com/docs/extensibility/transforms/operations/replace): each row is
// what Java's String.replaceAll / replaceFirst gives for the same arguments, or the coded error
// for a replacement Java rejects.

import { describe, expect, it } from 'vitest';
import { compileJavaRegex, compileJavaReplacement } from '../../../src/runtime/regex/index.js';
import { codeOf } from './java.js';

describe('Java replacement syntax', () => {
  it.each([
    ['(\\w+)@(\\w+)', 'joe@example', '$2 at $1', 'example at joe'],
    ['(?<user>\\w+)@', 'joe@x', '${user}!', 'joe!x'],
    ['(a)', 'a', '\\$1', '$1'],
    ['(a)', 'a', '\\\\$1', '\\a'],
    ['(a)', 'a', '\\$$1\\$$0', '$a$a'],
    ['(a)', 'a', '$11', 'a1'], // one group: $11 is group 1 then "1"
    ['(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)', 'abcdefghijk', '$11$10', 'kj'],
    ['(a)|(b)', 'ab', '[$1$2]', '[a][b]'], // a group that did not take part is empty
    ['(x)?y', 'y', '<$1>', '<>'],
    ['a$', 'ba\n', '<$0>', 'b<a>\n'],
    ['(a$)', 'a\n', '[$1]', '[a]\n'],
    ['x', 'abc', '$', 'abc'], // Java reads the replacement only when something matched…
  ])('%j on %j with %j → %j', (regex, input, replacement, expected) => {
    const pattern = compileJavaRegex(regex);
    if (replacement === '$') {
      // …but compileJavaReplacement checks what does not depend on the pattern up front.
      expect(codeOf(() => compileJavaReplacement(replacement)).code).toBe('REGEX_REPLACEMENT');
      return;
    }
    expect(pattern.replaceAll(input, compileJavaReplacement(replacement))).toBe(expected);
  });

  it.each([
    ['abc\\', 3],
    ['$', 0],
    ['a$x', 1],
    ['${}', 0],
    ['${name', 0],
    ['${1a}', 0],
  ])('replacement %j is REGEX_REPLACEMENT at index %i', (replacement, index) => {
    const e = codeOf(() => compileJavaReplacement(replacement));
    expect(e.code).toBe('REGEX_REPLACEMENT');
    expect(e.details).toMatchObject({ index });
  });

  it('a group number above the group count fails when a match occurs ("No group 2")', () => {
    const p = compileJavaRegex('(a)');
    const r = compileJavaReplacement('$2');
    expect(p.replaceAll('xyz', r)).toBe('xyz');
    const e = codeOf(() => p.replaceAll('a', r));
    expect(e.code).toBe('REGEX_REPLACEMENT');
    expect(e.details).toMatchObject({ group: 2 });
  });

  it('an unknown group name fails when a match occurs', () => {
    const e = codeOf(() => compileJavaRegex('(?<a>x)').replaceAll('x', compileJavaReplacement('${b}')));
    expect(e.code).toBe('REGEX_REPLACEMENT');
  });

  it('replaceFirst replaces only the first match', () => {
    expect(compileJavaRegex('o').replaceFirst('foo', compileJavaReplacement('0'))).toBe('f0o');
    expect(compileJavaRegex('(o)(o)?').replaceFirst('fooo', compileJavaReplacement('[$2$1]'))).toBe('f[oo]o');
    expect(compileJavaRegex('o$').replaceFirst('foo\n', compileJavaReplacement('0'))).toBe('fo0\n');
  });

  it('one compiled replacement serves many patterns, each binding its own group numbers', () => {
    const r = compileJavaReplacement('<$1>');
    expect(compileJavaRegex('(b)').replaceAll('abc', r)).toBe('a<b>c');
    expect(compileJavaRegex('(?:x)(c)').replaceAll('axc', r)).toBe('a<c>');
    const e = codeOf(() => compileJavaRegex('c').replaceAll('abc', r));
    expect(e.code).toBe('REGEX_REPLACEMENT');
    expect(e.details).toMatchObject({ group: 1 });
  });
});
