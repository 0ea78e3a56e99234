// The JavaScript RegExp fast path (src/runtime/regex/fast-path.ts) gives exactly what the
// general RE2 path gives: on the bundled profile's patterns, on Java's corner cases (`$` before
// each line terminator, `$` in replacements, astral characters, lone surrogates, group
// references the pattern lacks), and on random patterns of its subset over random inputs.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileJavaRegex, compileJavaReplacement, type JavaPattern } from '../../../src/runtime/regex/index.js';
import { withFastPath } from '../../../src/runtime/regex/fast-path.js';

function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (e) {
    const error = e as { code?: string; message?: string; details?: unknown };
    return { code: error.code, message: error.message, details: error.details };
  }
}

/** Every public method of both paths on one input, errors included. */
function both(regex: string, input: string, replacement: string): { general: unknown; fast: unknown } {
  const general = compileJavaRegex(regex);
  const fast = withFastPath(compileJavaRegex(regex));
  const run = (p: JavaPattern) => ({
    all: outcome(() => p.replaceAll(input, compileJavaReplacement(replacement))),
    first: outcome(() => p.replaceFirst(input, compileJavaReplacement(replacement))),
    matches: p.matches(input),
    find: p.find(input),
    split: p.split(input),
  });
  return { general: run(general), fast: run(fast) };
}

const fastPathOf = (regex: string) => withFastPath(compileJavaRegex(regex)).constructor.name;

describe('which patterns take the fast path', () => {
  it.each(['@.*$', '^Sr\\.? ', '[^0-9+]', '\\s*&\\s*', '^(\\d{3})(\\d{3})$', '[^a-z]', 'a{2,5}?b', '[-a-c_]+x'])('%j does', (regex) => {
    expect(fastPathOf(regex)).toBe('FastJavaPattern');
  });

  it.each([
    ['can match the empty string', '\\s*'],
    ['alternation', 'a|b'],
    ['a repeated group', '(ab)+'],
    ['a non-capturing group or inline flags', '(?i)a'],
    ['a non-ASCII literal', 'é'],
    ['a word boundary', '\\bx'],
    ['a nested class', '[a[b]]'],
    ['`^` not first', 'a^'],
    ['\\Q quoting', '\\Qa.b\\E'],
    ['a hexadecimal escape', '\\x41'],
    ['a lazy quantifier on an empty-matching pattern', 'a??'],
  ])('%s does not (%j)', (_what, regex) => {
    expect(fastPathOf(regex)).toBe('Re2JavaPattern');
  });
});

describe('the fast path gives what RE2 gives', () => {
  it.each([
    // The bundled profile's patterns.
    ['@.*$', 'jane.doe@example.com', ''],
    ['@.*$', 'a@b\n', ''],
    ['@.*$', 'a@b\r\n', ''],
    ['@.*$', 'a@b\n\n', ''],
    ['@.*$', 'a@b\u0085', ''],
    ['@.*$', 'a@b\u2028', ''],
    ['@.*$', 'a@b\r', ''],
    ['@.*$', 'a@b\u0085c', ''],
    ['^Sr\\.? ', 'Sr. Engineer', 'Senior '],
    ['^Sr\\.? ', 'Sr Engineer', 'Senior '],
    ['[^0-9+]', '+1 (555) 010-9999 😀', ''],
    ['\\s*&\\s*', 'Research\t&\u000bDevelopment', ' and '],
    ['\\s*&\\s*', 'R\u00a0&\u2003D', ' and '],
    ['^(\\d{3})(\\d{3})$', '123456', '$1-$2'],
    ['^(\\d{3})(\\d{3})$', '123456\n', '$1-$2'],
    ['^(\\d{3})(\\d{3})$', '123456\r\n', '[$0]'],
    ['^(\\d{3})(\\d{3})$', '١٢٣٤٥٦', '$1-$2'],
    // Replacements: `$` quoted, the longest group number, missing groups (an error on a match only).
    ['(a)(b)', 'ab', '\\$1$2$$'],
    ['(a)(b)', 'ab', '$12'],
    ['(a)(b)', 'ab', '$3'],
    ['(a)(b)', 'xy', '$3'],
    ['(a)', 'a', '${name}'],
    ['a', 'a', '$'],
    ['(a)(b)?c', 'ac', '<$2>'],
    // Astral characters and lone surrogates.
    ['.', '😀a', '[$0]'],
    ['[^a]', 'a\ud800b😀', 'x'],
    ['b', 'a\ud800b\udc00', 'x'],
    ['\\W+', '😀 ☃ x', '-'],
  ])('case %#: %j on %j', (regex, input, replacement) => {
    const { general, fast } = both(regex, input, replacement);
    expect(fast).toEqual(general);
  });

  it('long inputs of a pattern with several unbounded quantifiers go to RE2', () => {
    const p = withFastPath(compileJavaRegex('\\s*\\s*\\s*&'));
    const input = ' '.repeat(50_000);
    expect(p.replaceAll(input, compileJavaReplacement('x'))).toBe(input);
  });

  // Random patterns of the subset (literals, escapes, classes, `.`, quantified atoms, plain
  // groups, `^` and `$`) over inputs made of the characters where Java and JavaScript differ.
  const alphabet = ['a', 'b', '1', ' ', '\t', '\u000b', '\n', '\r', '\u0085', '\u2028', '\u2029', '\u00a0', '.', '-', '$', '@', 'é', '😀', '\ud800'];
  const atom = fc.constantFrom('a', 'b', '1', ' ', '-', '@', '.', '\\.', '\\$', '\\d', '\\D', '\\s', '\\S', '\\w', '\\W', '[ab]', '[^a]', '[a-c1]', '[^\\s]', '[-a]', '[\\d.]', '[^0-9+]');
  const quantifier = fc.constantFrom('', '', '?', '*', '+', '{2}', '{1,2}', '{0,}', '*?', '+?', '??');
  const piece = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(atom, quantifier).map(([a, q]) => a + q) },
    { weight: 1, arbitrary: fc.array(fc.tuple(atom, quantifier).map(([a, q]) => a + q), { minLength: 1, maxLength: 3 }).map((xs) => `(${xs.join('')})`) },
  );
  const pattern = fc
    .tuple(fc.boolean(), fc.array(piece, { minLength: 1, maxLength: 4 }), fc.boolean())
    .map(([caret, pieces, dollar]) => (caret ? '^' : '') + pieces.join('') + (dollar ? '$' : ''));
  const input = fc.array(fc.constantFrom(...alphabet), { maxLength: 12 }).map((xs) => xs.join(''));
  const replacement = fc.constantFrom('', 'X', '<$0>', '$1', '[$1|$2]', '\\$', '$10', '$9');

  it('on random patterns of its subset and random inputs', () => {
    fc.assert(
      fc.property(pattern, input, replacement, (regex, text, repl) => {
        const { general, fast } = both(regex, text, repl);
        expect(fast).toEqual(general);
      }),
      { numRuns: 3000 },
    );
  });
});
