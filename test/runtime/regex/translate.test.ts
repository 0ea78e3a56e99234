// Java Pattern syntax read as java.util.regex reads it, over RE2
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/replace): Java-only
// syntax rewritten for RE2, Java's case-insensitive matching, and the coded errors for Java syntax
// errors and for constructs RE2 cannot run. Each row is what Java's String.replaceAll gives for
// the same arguments, or the error Java reports (REGEX_SYNTAX, at Java's index) or that RE2 cannot
// run the pattern (REGEX_UNSUPPORTED).

import { describe, expect, it } from 'vitest';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';
import { codeOf, replaceAll } from './java.js';

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
