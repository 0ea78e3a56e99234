// java.util.regex: String.replaceAll(regex, replacement) and String.split(regex, limit) against
// our RE2-based translation (src/runtime/regex/). Regexes come from a Java-regex grammar:
// literals, escapes, classes with ranges and negation, \d \w \s \b and their negations, \p{…}
// categories, scripts and POSIX classes, inline flags, quantifiers (greedy, lazy), groups
// (capturing, named, non-capturing), alternation, anchors, \Q…\E — and the constructs RE2 cannot
// run (lookaround, backreferences, possessive quantifiers, atomic groups), which must be coded
// rejections when compiled. Replacements use $n, ${name}, \$ and \\.

import fc from 'fast-check';
import { compileJavaRegex, compileJavaReplacement } from '../../../../src/runtime/regex/index.js';
import { withFastPath } from '../../../../src/runtime/regex/fast-path.js';
import { capture, type Kind } from '../harness.js';
import type { JavaOutcome } from '../oracle.js';
import { text } from './text.js';

const literal = fc.constantFrom('a', 'b', 'x', 'A', 'Z', 'é', 'ü', 'Ü', 'ß', 'İ', 'ı', 'σ', '😀', '1', ' ', '-', ',', '_', "'", '@', 'e\u0301');
const escaped = fc.constantFrom('\\.', '\\$', '\\(', '\\)', '\\[', '\\\\', '\\-', '\\t', '\\n', '\\x41', '\\u00e9', '\\+', '\\*', '\\?', '\\{', '\\|', '\\/');
const shorthand = fc.constantFrom('\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '\\h', '\\v', '.', '\\R');
const property = fc.constantFrom(
  '\\p{L}', '\\p{Lu}', '\\p{Ll}', '\\P{L}', '\\p{M}', '\\p{N}', '\\p{Nd}', '\\p{P}', '\\p{Z}', '\\p{S}',
  '\\p{Alpha}', '\\p{Alnum}', '\\p{Upper}', '\\p{Lower}', '\\p{Punct}', '\\p{Space}', '\\p{Digit}', '\\p{ASCII}', '\\p{Blank}', '\\p{Graph}',
  '\\p{IsAlphabetic}', '\\p{IsLatin}', '\\p{IsGreek}', '\\p{InCombiningDiacriticalMarks}', '\\p{javaLowerCase}', '\\p{javaUpperCase}', '\\p{IsLetter}',
);
const classItem = fc.oneof(
  fc.constantFrom('a-z', 'A-Z', '0-9', 'à-ÿ', 'a', 'é', '_', ' ', '.', '$', '\\-', '\\]', '\\\\', '^a', 'x-z'),
  shorthand.filter((s) => s !== '.' && s !== '\\R'),
  property,
);
const cls = fc
  .tuple(fc.boolean(), fc.array(classItem, { minLength: 1, maxLength: 3 }))
  .map(([neg, items]) => `[${neg ? '^' : ''}${items.join('')}]`);
const anchor = fc.constantFrom('^', '$', '\\b', '\\B', '\\A', '\\z', '\\Z');
const quoted = fc.constantFrom('\\Qa.b\\E', '\\Q$\\E', '\\Q(x\\E', '\\Q\\E');
/** Constructs RE2 lacks: our compiler must refuse them (REGEX_UNSUPPORTED). */
const unsupported = fc.constantFrom('(?=a)', '(?!b)', '(?<=x)', '(?<!y)', '\\1', 'a*+', '(?>ab)', 'a++', '\\G', '\\k<g>');
const quantifier = fc.constantFrom('*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?', '??', '{2,}?');
const flags = fc.constantFrom('(?i)', '(?u)', '(?iu)', '(?m)', '(?s)', '(?d)', '(?x)', '(?U)', '(?-i)');

const atom: fc.Arbitrary<string> = fc.letrec<{ re: string; atom: string }>((tie) => ({
  atom: fc.oneof(
    { weight: 6, arbitrary: literal },
    { weight: 2, arbitrary: escaped },
    { weight: 3, arbitrary: shorthand },
    { weight: 2, arbitrary: property },
    { weight: 3, arbitrary: cls },
    { weight: 2, arbitrary: anchor },
    { weight: 1, arbitrary: quoted },
    { weight: 1, arbitrary: fc.oneof({ weight: 4, arbitrary: literal }, { weight: 1, arbitrary: unsupported }) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('(', '(?:', '(?<g>', '(?i:', '(?<n2>'), tie('re'))
        .map(([open, inner]) => `${open}${inner})`),
    },
  ),
  re: fc
    .array(
      fc.tuple(tie('atom'), fc.option(quantifier, { freq: 2 })).map(([a, q]) => a + (q ?? '')),
      { minLength: 1, maxLength: 4 },
    )
    .chain((parts) => fc.option(fc.array(tie('atom'), { minLength: 1, maxLength: 2 }), { freq: 2 }).map((alt) => parts.join('') + (alt ? `|${alt.join('')}` : ''))),
})).re;

export const regex: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: flags }),
    atom,
    fc.oneof({ weight: 30, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('(', ')', '[', '{', '*', '\\', '[a-', 'x{2,1}') }),
  )
  .map(([f, re, broken]) => f + re + broken);

const replacementPart = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('X', '-', '', ' ', 'é', '😀', '_') },
  { weight: 3, arbitrary: fc.constantFrom('$0', '$1', '$2', '$11', '${g}', '${n2}') },
  { weight: 2, arbitrary: fc.constantFrom('\\$', '\\\\', '\\x', '\\1') },
  { weight: 1, arbitrary: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('X', '$0') }, { weight: 1, arbitrary: fc.constantFrom('$', '\\', '${', '${1}', '$x', '${g') }) },
);
export const replacement = fc.array(replacementPart, { maxLength: 3 }).map((p) => p.join(''));

export interface ReplaceCase {
  input: string;
  regex: string;
  replacement: string;
}

export interface SplitCase {
  input: string;
  regex: string;
  limit: number;
}

const REJECT = ['REGEX_UNSUPPORTED'];

const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Inputs, one in ten holding a lone surrogate (a Java String may; Java matches it as one char). */
const input = fc.oneof(
  { weight: 9, arbitrary: text },
  {
    weight: 1,
    arbitrary: fc
      .tuple(text, fc.nat(), fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff'))
      .map(([t, at, s]) => t.slice(0, at % (t.length + 1)) + s + t.slice(at % (t.length + 1))),
  },
);

/** Java's answer holds half of a surrogate pair (an empty match between its halves). */
function loneSurrogate(java: JavaOutcome): boolean {
  const texts = 'ok' in java ? [java.ok] : 'list' in java ? java.list : [];
  return texts.some((t) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(t));
}

/**
 * Known differences: X9 — after an empty match Java resumes one UTF-16 unit on, i.e. between the
 * halves of a surrogate pair, where RE2 (code points) cannot; X5 — \b and \B next to a non-ASCII
 * letter, digit or mark (JDK 17, the oracle, is Unicode-aware there; JDK 19+ and we are ASCII).
 */
function knownRegex(regexSource: string, input: string, java: JavaOutcome): string | undefined {
  // A lone surrogate of the input is matched as Java does; only a pair's halves stay apart.
  if (loneSurrogate(java) && (!LONE.test(input) || /[\ud800-\udbff][\udc00-\udfff]/.test(input))) return 'X9';
  if (/\\[bB]/.test(regexSource) && /[^\x00-\x7f]/.test(input)) return 'X5';
  return undefined;
}

function regexError(javaClass: string, ours: { error: string }): boolean {
  if (javaClass === 'java.util.regex.PatternSyntaxException') return ours.error === 'REGEX_SYNTAX';
  if (javaClass === 'java.lang.IllegalArgumentException' || javaClass === 'java.lang.IndexOutOfBoundsException') {
    return ours.error === 'REGEX_REPLACEMENT';
  }
  return false;
}

export const replaceKind: Kind<ReplaceCase> = {
  name: 'regex replace',
  arbitrary: fc.record({ input, regex, replacement }),
  java: (oracle, c) => oracle.ask('replace', { ...c }),
  ours: (c) =>
    capture(() => {
      // As the engine compiles it: the JavaScript fast path where it applies, RE2 otherwise.
      const pattern = withFastPath(compileJavaRegex(c.regex));
      return pattern.replaceAll(c.input, compileJavaReplacement(c.replacement));
    }, REJECT),
  sameError: (javaClass, _cause, ours) => regexError(javaClass, ours),
  // X7: a replacement that can never work is refused when compiled, even if nothing matches.
  known: (c, java, ours) =>
    'ok' in java && 'error' in ours && ours.error === 'REGEX_REPLACEMENT' ? 'X7' : knownRegex(c.regex, c.input, java),
  unitTest: (c, java) =>
    'ok' in java
      ? `expect(compileJavaRegex(${JSON.stringify(c.regex)}).replaceAll(${JSON.stringify(c.input)}, compileJavaReplacement(${JSON.stringify(c.replacement)}))).toBe(${JSON.stringify(java.ok)});`
      : `// Java: ${JSON.stringify(java)}\nexpect(() => compileJavaRegex(${JSON.stringify(c.regex)}).replaceAll(${JSON.stringify(c.input)}, compileJavaReplacement(${JSON.stringify(c.replacement)}))).toThrow();`,
};

export const splitKind: Kind<SplitCase> = {
  name: 'split',
  arbitrary: fc.record({
    input,
    regex: fc.oneof({ weight: 3, arbitrary: regex }, { weight: 1, arbitrary: fc.constantFrom(',', ' ', '\\s+', '', '-', '\\|', '(?=a)') }),
    limit: fc.constantFrom(0, 0, 0, -1, 1, 2, 3),
  }),
  java: (oracle, c) => oracle.ask('split', { ...c }),
  ours: (c) => capture(() => compileJavaRegex(c.regex).split(c.input, c.limit), REJECT),
  sameError: (javaClass, _cause, ours) => regexError(javaClass, ours),
  known: (c, java) => knownRegex(c.regex, c.input, java),
  unitTest: (c, java) =>
    'list' in java
      ? `expect(compileJavaRegex(${JSON.stringify(c.regex)}).split(${JSON.stringify(c.input)}, ${c.limit})).toEqual(${JSON.stringify(java.list)});`
      : `// Java: ${JSON.stringify(java)}\nexpect(() => compileJavaRegex(${JSON.stringify(c.regex)}).split(${JSON.stringify(c.input)}, ${c.limit})).toThrow();`,
};
