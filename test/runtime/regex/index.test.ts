// Java java.util.regex semantics over RE2
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/replace): each row is what Java's
// String.replaceAll / split / matches gives for the same arguments.

import { describe, expect, it } from 'vitest';
import { compileJavaRegex, compileJavaReplacement } from '../../../src/runtime/regex/index.js';
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

describe('Java-only syntax translated to RE2', () => {
  it.each([
    ['\\p{InCombiningDiacriticalMarks}', 'e\u0301a\u0300o\u0302', '', 'eao'],
    ['\\p{InCombining_Diacritical_Marks}+', 'n\u0303', '', 'n'],
    ['\\p{IsLatin}+', 'abc ДЖ', 'X', 'X ДЖ'],
    ['\\p{IsCyrillic}', 'aД', '_', 'a_'],
    ['\\p{InGreek}', 'aβ', '_', 'a_'],
    ['\\p{L}+', 'héllo 42', 'w', 'w 42'],
    ['\\p{Lu}', 'AbC', '_', '_b_'],
    ['\\pL', 'a1', '_', '_1'],
    ['\\p{IsAlphabetic}+', 'ab1', 'x', 'x1'],
    ['\\p{Lower}', 'aBé', '_', '_Bé'],
    ['\\p{Upper}+', 'ABc', '_', '_c'],
    ['\\p{Alpha}', 'a1é', '_', '_1é'],
    ['\\p{Punct}', 'a.b,c!', '', 'abc'],
    ['\\p{Alnum}+', 'ab12-cd', 'x', 'x-x'],
    ['\\p{Space}', 'a\u000Bb', '_', 'a_b'],
    ['\\p{javaLowerCase}', 'aéB', '_', '__B'],
    ['\\p{javaUpperCase}', 'aÉB', '_', 'a__'],
    ['\\p{javaWhitespace}', 'a\u2003b\u00A0c', '_', 'a_b\u00A0c'],
    ['\\P{L}', 'a1é-', '', 'aé'],
    ['[^\\p{L}\\p{Nd}]', 'a-1 é', '', 'a1é'],
    ['(?i)abc', 'ABC abc aBc', 'x', 'x x x'],
    ['(?i)é', 'É é', 'x', 'É x'], // Java's (?i) folds ASCII only…
    ['(?iu)é', 'É é', 'x', 'x x'], // …unless (?u) is on too
    ['(?i)[a-c]+', 'xABCx', '_', 'x_x'],
    ['a(?i:b)c', 'aBc ABC', '_', '_ ABC'],
    ['(?i)a(?-i)b', 'Ab AB', '_', '_ AB'],
    ['\\Qa.b\\E', 'a.b axb', 'X', 'X axb'],
    ['\\Q(x)\\E+', '(x)))', 'y', 'y'],
    ['\\Aab', 'abab', 'X', 'Xab'],
    ['ab\\z', 'abab', 'X', 'abX'],
    ['ab\\Z', 'abab\n', 'X', 'abX\n'],
    ['a$', 'a\n', 'b', 'b\n'],
    ['\\s+$', 'abc  \n', 'X', 'abcX'],
    ['c*$', 'abc', 'X', 'abXX'],
    ['^\\s+|\\s+$', '  both  ', '', 'both'],
    ['(?m)^x', 'x\nx', 'y', 'y\ny'],
    ['.', 'a\rb\n', 'X', 'X\rX\n'],
    ['(?s).', 'a\nb', 'X', 'XXX'],
    ['\\s', 'a\u000Bb\u00A0c', '_', 'a_b\u00A0c'],
    ['\\h', 'a\u00A0b\tc', '_', 'a_b_c'],
    ['\\R', 'a\r\nb\nc', '|', 'a|b|c'],
    ['\\x41\\x{42}\\u0043\\0104', 'ABCD', 'ok', 'ok'],
    ['\\uD83D\\uDE00', 'a😀b', '-', 'a-b'],
    ['\\t\\n', 'a\t\nb', ' ', 'a b'],
    ['\\cJ', 'a\nb', ' ', 'a b'],
    ['[]a]', 'a]b', '', 'b'],
    ['[a-]', 'a-b', '', 'b'],
    ['[a[bc]]', 'abcd', '', 'd'],
    ['[a[^b]]', 'ab', '', 'b'],
    ['\\.', 'a.b', '', 'ab'],
    ['(?x) a b  # spaces and comments are ignored\n c', 'abc', 'X', 'X'],
    ['x{2,3}', 'xxxxx', '-', '--'],
    ['x{2,}?', 'xxxxx', '-', '--x'],
    ['a}', 'a}', 'b', 'b'],
    ['😀+', '😀😀a', '-', '-a'],
    ['', 'abc', '-', '-a-b-c-'],
    ['', '😀', '-', '-😀-'],
  ])('%j on %j with %j → %j', (regex, input, replacement, expected) => {
    expect(replaceAll(regex, input, replacement)).toBe(expected);
  });
});

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

describe('constructs RE2 cannot run are coded errors, never silent misreadings', () => {
  it.each([
    ['(a)\\1', 'REGEX_UNSUPPORTED', 3],
    ['(?<n>a)\\k<n>', 'REGEX_UNSUPPORTED', 7],
    ['a(?=b)', 'REGEX_UNSUPPORTED', 1],
    ['a(?!b)', 'REGEX_UNSUPPORTED', 1],
    ['(?<=a)b', 'REGEX_UNSUPPORTED', 0],
    ['(?<!a)b', 'REGEX_UNSUPPORTED', 0],
    ['a++', 'REGEX_UNSUPPORTED', 2],
    ['a*+', 'REGEX_UNSUPPORTED', 2],
    ['(?>ab)', 'REGEX_UNSUPPORTED', 0],
    ['[a-z&&[^b]]', 'REGEX_UNSUPPORTED', 4],
    ['\\G', 'REGEX_UNSUPPORTED', 0],
    ['\\X', 'REGEX_UNSUPPORTED', 0],
    ['(?U)\\w', 'REGEX_UNSUPPORTED', 0],
    ['x{1001}', 'REGEX_UNSUPPORTED', 0],
    ['(a', 'REGEX_SYNTAX', 2],
    ['a)', 'REGEX_SYNTAX', 0],
    ['[ab', 'REGEX_SYNTAX', 2],
    ['*a', 'REGEX_SYNTAX', 0],
    ['a{', 'REGEX_SYNTAX', 1],
    ['a{2,1}', 'REGEX_SYNTAX', 1],
    ['${name}', 'REGEX_SYNTAX', 1],
    ['[z-a]', 'REGEX_SYNTAX', 3],
    ['\\y', 'REGEX_SYNTAX', 1],
    ['\\p{NoSuchThing}', 'REGEX_SYNTAX', 0],
    ['\\0', 'REGEX_SYNTAX', 2],
    ['(?<1a>x)', 'REGEX_SYNTAX', 0],
    ['(?<a>x)(?<a>y)', 'REGEX_SYNTAX', 7],
    ['(?q)', 'REGEX_SYNTAX', 2],
  ])('%j → %s at index %i', (regex, code, index) => {
    const e = codeOf(() => compileJavaRegex(regex));
    expect(e.code).toBe(code);
    expect(e.details).toMatchObject({ index });
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

describe('case-insensitive matching as java.util.regex does it (pinned against JDK 17 by the differential suite)', () => {
  it.each([
    // (?iu): toLowerCase(toUpperCase(c)) puts ı and İ with i, which Unicode simple folding does not.
    ['(?iu)i', 'i I ı İ', '_', '_ _ _ _'],
    ['(?iu)İ{1,3}|é', 'Adeyemi-Châtelet', '', 'Adeyem-Châtelet'],
    ['(?iu)[ı]', 'Siobhán', '_', 'S_obhán'],
    ['(?iu)k', 'k K \u212a', '_', '_ _ _'],
    // Predefined classes are never folded: \w stays ASCII, so the Kelvin sign and ſ are not word characters.
    ['(?iu)\\w', 'K\u212aſ', '_', '_\u212aſ'],
    ['(?iu)[\\w]', 'K\u212aſ', '_', '_\u212aſ'],
    // Case properties match every cased letter under (?i); POSIX Lower/Upper every ASCII letter.
    ['(?i)\\p{Ll}', 'aAéÉǅ1', '_', '_____1'],
    ['(?i)\\p{javaUpperCase}', 'aAé1', '_', '___1'],
    ['(?i)\\p{Lower}', 'aAé', '_', '__é'],
    ['(?i)\\P{Lu}', 'aA1', '_', 'aA_'],
  ])('%s on %j → %j', (regex, input, replacement, expected) => {
    expect(replaceAll(regex, input, replacement)).toBe(expected);
  });
});

describe('a `{n}` with nothing before it repeats the empty string, as Java parses it', () => {
  it.each([
    ['{2}', 'ab', '-', '-a-b-'],
    ['\\Q\\E{2,}?', 'ab', '', 'ab'],
    ['a{2}{3}', 'aa', '_', '_'],
  ])('%s on %j → %j', (regex, input, replacement, expected) => {
    expect(replaceAll(regex, input, replacement)).toBe(expected);
  });

  it('a `{` that starts no repetition is still an error', () => {
    expect(codeOf(() => compileJavaRegex('{a}')).code).toBe('REGEX_SYNTAX');
  });
});
