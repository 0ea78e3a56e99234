// Java String / Apache Commons StringUtils semantics the platform's string operations rely on
// (trim, substring, indexOf, lastIndexOf, leftPad, rightPad, upper, lower,
// decomposeDiacriticalMarks, base64*;
// https://developer.sailpoint.com/docs/extensibility/transforms/operations/), computed as Java
// computes them.

import { TransformsError } from '../errors/index.js';

/**
 * Java `String.trim()`: strips every code unit <= U+0020 from both ends, and nothing else.
 * JavaScript's trim() also strips NBSP, U+2028 and other Unicode spaces, which Java keeps.
 */
export function javaTrim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s.charCodeAt(start) <= 0x20) start++;
  while (end > start && s.charCodeAt(end - 1) <= 0x20) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/**
 * Java `String.substring(begin[, end])` over UTF-16 code units. Unlike JavaScript's
 * substring (which swaps and clamps), Java throws StringIndexOutOfBoundsException when
 * begin < 0, end > length or begin > end.
 */
export function javaSubstring(s: string, begin: number, end: number = s.length): string {
  if (!Number.isInteger(begin) || !Number.isInteger(end) || begin < 0 || end > s.length || begin > end) {
    throw new TransformsError(
      'EVAL_INDEX_OUT_OF_BOUNDS',
      `begin ${begin}, end ${end}, length ${s.length}`,
      { details: { begin, end, length: s.length } },
    );
  }
  return s.slice(begin, end);
}

/** Java `String.indexOf(str)`: UTF-16 index of the first occurrence, -1 when absent ("" → 0). */
export function javaIndexOf(s: string, sub: string): number {
  return s.indexOf(sub);
}

/** Java `String.lastIndexOf(str)`: UTF-16 index of the last occurrence, -1 when absent ("" → length). */
export function javaLastIndexOf(s: string, sub: string): number {
  return s.lastIndexOf(sub);
}

/**
 * Java `toUpperCase(Locale.ROOT)`. JavaScript's toUpperCase is already locale-independent and
 * applies the same Unicode SpecialCasing (ß → SS, ŉ → ʼN); only the Turkish/Lithuanian
 * tailorings differ, and the platform does not use them.
 */
export function javaUpperCase(s: string): string {
  return s.toUpperCase();
}

/**
 * Java `toLowerCase(Locale.ROOT)`: JavaScript's mapping, İ → i̇ included, except for Σ. Java's
 * final-sigma test (ConditionalSpecialCasing.isFinalCased) looks for a cased letter before it and
 * none after it within the same *word* of its word BreakIterator, skipping anything else in the
 * word (digits too: `S1Σ` → `s1ς`), where a word runs over letters, marks, digits and `_`, and
 * across a dash, apostrophe, quote or period between two letters (`éΣ-ſ` → `éσ-ſ`, `0-Σ` → `0-σ`). JavaScript
 * applies Unicode's context instead (only case-ignorable characters in between).
 */
export function javaLowerCase(s: string): string {
  if (!s.includes('\u03a3')) return s.toLowerCase();
  const cps = [...s];
  let out = '';
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i]!;
    out += c === '\u03a3' ? (finalCased(cps, i) ? '\u03c2' : '\u03c3') : c.toLowerCase();
  }
  return out;
}

const WORD_CHAR = /^[\p{L}\p{M}\p{Nd}\p{Pc}]$/u;
const MID_WORD = /^[\p{Pd}'".\u00ad\u2027]$/u;
const LETTER = /^[\p{L}\p{M}]$/u;
const CASED = /^[\p{Lowercase}\p{Uppercase}\p{Lt}]$/u;

/** The code points of s's word around `at`, stepping by `step` from it (the word BreakIterator's span). */
function* wordSide(cps: string[], at: number, step: 1 | -1): Generator<string> {
  for (let i = at + step; i >= 0 && i < cps.length; i += step) {
    const c = cps[i]!;
    if (WORD_CHAR.test(c)) yield c;
    else if (MID_WORD.test(c) && LETTER.test(cps[i - 1] ?? '') && LETTER.test(cps[i + 1] ?? '')) continue;
    else return;
  }
}

function finalCased(cps: string[], at: number): boolean {
  let before = false;
  for (const c of wordSide(cps, at, -1)) if (CASED.test(c)) before = true;
  if (!before) return false;
  for (const c of wordSide(cps, at, 1)) if (CASED.test(c)) return false;
  return true;
}

const SPACE = ' ';

function padding(size: number, length: number, padStr: string | null | undefined): string {
  const pad = padStr === null || padStr === undefined || padStr === '' ? SPACE : padStr;
  const pads = size - length;
  if (pads <= 0) return '';
  // Apache Commons repeats the padding and cuts the last repetition: "ab" to 5 → "ababa".
  return pad.repeat(Math.ceil(pads / pad.length)).slice(0, pads);
}

/**
 * Apache Commons `StringUtils.leftPad(str, size, padStr)`: null stays null, an input at least
 * `size` long is returned unchanged, an empty or null padding means one space, and a multi-char
 * padding is repeated then truncated ("1234", 8, "ab" → "abab1234"; 7, "ab" → "aba1234").
 */
export function leftPad(str: string | null, size: number, padStr?: string | null): string | null {
  if (str === null) return null;
  return padding(size, str.length, padStr) + str;
}

/** Apache Commons `StringUtils.rightPad(str, size, padStr)`, the mirror image of leftPad. */
export function rightPad(str: string | null, size: number, padStr?: string | null): string | null {
  if (str === null) return null;
  return str + padding(size, str.length, padStr);
}

/**
 * The documented Java code: `Normalizer.normalize(s, NFKD)` then
 * `replaceAll("[\\p{InCombiningDiacriticalMarks}]", "")` — the Unicode block U+0300–U+036F.
 * NFKD also folds compatibility characters (ﬁ → fi, ² → 2), exactly as Java does.
 */
export function decomposeDiacriticalMarks(s: string): string {
  return s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
}

/** Java `Base64.getEncoder().encodeToString(s.getBytes(UTF_8))`. */
export function base64Encode(s: string): string {
  return Buffer.from(s, 'utf8').toString('base64');
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Java `new String(Base64.getDecoder().decode(s), UTF_8)`. The basic decoder rejects
 * characters outside the alphabet and a wrong length with IllegalArgumentException
 * (Node's decoder silently skips them); padding may be omitted, as Java allows.
 */
export function base64Decode(s: string): string {
  const bad = (reason: string): TransformsError =>
    new TransformsError('EVAL_ILLEGAL_ARGUMENT', `Illegal base64 input: ${reason}`, { details: { length: s.length } });
  if (!BASE64.test(s)) {
    const at = [...s].findIndex((c) => !/[A-Za-z0-9+/=]/.test(c));
    throw at >= 0 ? bad(`illegal character at index ${at}`) : bad('misplaced padding');
  }
  const data = s.replace(/=+$/, '');
  if (data.length % 4 === 1 || (s.length > data.length && s.length % 4 !== 0)) {
    throw bad('the last unit does not have enough valid bits');
  }
  return Buffer.from(data, 'base64').toString('utf8');
}

/**
 * How Java's `String.valueOf` renders a value that reaches a string context: `null`, lists as
 * `[a, b]` and maps as `{k=v}` (AbstractCollection/AbstractMap.toString).
 */
export function toJavaString(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return '[' + value.map(toJavaString).join(', ') + ']';
  if (typeof value === 'object') {
    return '{' + Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}=${toJavaString(v)}`).join(', ') + '}';
  }
  return String(value);
}
