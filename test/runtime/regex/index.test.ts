// Java java.util.regex semantics over RE2
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/replace): the
// java.lang.String API of a compiled pattern. Each row is what Java's String.replaceAll / split /
// matches gives for the same arguments; the pattern syntax is translate.test.ts, the replacement
// syntax replacement.test.ts.

import { describe, expect, it } from 'vitest';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';
import { codeOf, replaceAll } from './java.js';

describe('documented replace examples (the replace operation page)', () => {
  it.each([
    ['IIQ', 'Working with IIQ is fun', 'Identity Security Cloud', 'Working with Identity Security Cloud is fun'],
    ['[^a-zA-Z]', 'The quick brown fox jumped over 10 lazy dogs', '', 'Thequickbrownfoxjumpedoverlazydogs'],
    ['[.]', 'ad512.777.1234', '-', 'ad512-777-1234'],
    ['[a-zA-z]', 'ad512-777-1234', '', '512-777-1234'],
    ['-', 'Enrique Jose-Piñon', ' ', 'Enrique Jose Piñon'],
  ])('%s on %j → %j', (regex, input, replacement, expected) => {
    expect(replaceAll(regex, input, replacement)).toBe(expected);
  });
});

describe('String.split (limit 0 drops trailing empty strings; no leading empty string for a zero-width match at 0)', () => {
  it.each<[string, string, number | undefined, string[]]>([
    [',', 'a,b,,c,,', undefined, ['a', 'b', '', 'c']],
    [',', 'a,b,,c,,', -1, ['a', 'b', '', 'c', '', '']],
    [',', 'a,b,c', 2, ['a', 'b,c']],
    [',', ',a', undefined, ['', 'a']],
    [',', '', undefined, ['']],
    [',', ',', undefined, []],
    ['', 'abc', undefined, ['a', 'b', 'c']],
    ['\\|', 'a|b', undefined, ['a', 'b']],
    ['.', 'a.b', undefined, []],
    ['\\s+', ' a  b ', undefined, ['', 'a', 'b']],
    ['(?=x)', 'axbx', undefined, []],
  ])('%j splits %j (limit %s) into %j', (regex, input, limit, expected) => {
    if (regex === '(?=x)') {
      expect(codeOf(() => compileJavaRegex(regex)).code).toBe('REGEX_UNSUPPORTED');
      return;
    }
    expect(compileJavaRegex(regex).split(input, limit)).toEqual(expected);
  });

  it.each<[string, string, number | undefined]>([
    [',', 'a,b,,c,,', undefined],
    [',', 'a,b,,c,,', -1],
    ['', 'ab\u{1F600}c', undefined],
    ['\\s+', ' a  b ', undefined],
    ['(?:)|b', 'abc', -1],
  ])('a long input (matched one match at a time) splits as its short pieces do: %j on %j', (regex, piece, limit) => {
    const p = compileJavaRegex(regex);
    const short = p.split(piece, limit);
    const count = Math.ceil(5000 / piece.length);
    // The same piece repeated: every match repeats, so the parts repeat (the ends aside).
    const long = p.split(piece.repeat(count), limit);
    expect(long.length).toBeGreaterThan(count);
    expect(long.slice(0, short.length - 1)).toEqual(short.slice(0, -1));
  });

  it('a guard sees the parts as they are made and may stop the split', () => {
    const seen: number[] = [];
    const stop = new Error('stop');
    expect(() =>
      compileJavaRegex(',').split('x,'.repeat(5000), 0, (n) => {
        seen.push(n);
        if (n === 100) throw stop;
      }),
    ).toThrow(stop);
    expect(seen).toEqual(Array.from({ length: 101 }, (_, i) => i));
  });
});

describe('matches and find', () => {
  it.each([
    ['\\d+', '123', true],
    ['\\d+', '123a', false],
    ['a|ab', 'ab', true], // whole-string match tries the other alternative
    ['a$', 'a\n', false], // `$` may stand before the final line terminator, but matches() needs it all
    ['(?i)HELLO', 'hello', true],
    ['[A-Z][a-z]*', 'Hello', true],
  ])('%j matches %j: %s', (regex, input, expected) => {
    expect(compileJavaRegex(regex).matches(input)).toBe(expected);
  });

  it('find looks for a match anywhere', () => {
    const p = compileJavaRegex('o+');
    expect(p.find('foo')).toBe(true);
    expect(p.find('bar')).toBe(false);
    expect(p.find('foo')).toBe(true); // no state leaks between calls
  });

  it('reports its source and group count', () => {
    const p = compileJavaRegex('(a)(?:b)(?<c>c)$');
    expect(p.source).toBe('(a)(?:b)(?<c>c)$');
    expect(p.groupCount).toBe(2);
  });
});
