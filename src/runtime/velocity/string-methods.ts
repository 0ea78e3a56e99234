// java.lang.String's methods reachable from templates (https://developer.sailpoint.com/docs/extensibility/transforms/operations/static),
// as JDK 17 computes them: UTF-16 code units, Java's case mappings and comparisons, Character.isWhitespace
// for strip and isBlank, and the regex methods through the template's compiled java.util.regex patterns.

import { javaLowerCase, javaTrim } from '../java-string.js';
import { JavaException, int, npeOrMismatch, outOfBounds, str, type MethodContext, type Table } from './arguments.js';
import { JChar } from './values.js';

/** String.hashCode: s[0]*31^(n-1) + … in 32-bit int arithmetic. */
export function hashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * String.replace(CharSequence, CharSequence): an empty target puts the replacement before every
 * UTF-16 unit and at the end, as Java does (JavaScript's split('') would lose both ends).
 */
function replaceLiteral(s: string, target: string, replacement: string): string {
  if (target !== '') return s.split(target).join(replacement);
  let out = replacement;
  for (let i = 0; i < s.length; i++) out += s[i] + replacement;
  return out;
}

/** One code point's simple case mapping (Character.toUpperCase/toLowerCase): unchanged when the full mapping is longer. */
function simpleCase(cp: number, upper: boolean): number {
  const c = String.fromCodePoint(cp);
  const m = upper ? c.toUpperCase() : c.toLowerCase();
  if (m.length === c.length) return m.codePointAt(0)!;
  return cp === 0x130 && !upper ? 0x69 : cp;
}

/** Compared after Character.toUpperCase, then toLowerCase; 0 when they match (String.compareCodePointCI). */
function compareFolded(c1: number, c2: number): number {
  let a = simpleCase(c1, true);
  let b = simpleCase(c2, true);
  if (a === b) return 0;
  a = simpleCase(a, false);
  b = simpleCase(b, false);
  return a - b;
}

const isLatin1 = (s: string): boolean => !/[^\x00-\xff]/.test(s);
const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** StringUTF16.codePointIncluding: the code point a surrogate belongs to; negative when it starts a pair. */
function codePointIncluding(s: string, unit: number, at: number): number {
  if (isLow(unit) && at > 0 && isHigh(s.charCodeAt(at - 1))) return s.codePointAt(at - 1)!;
  if (isHigh(unit) && at + 1 < s.length && isLow(s.charCodeAt(at + 1))) return -s.codePointAt(at)!;
  return unit;
}

/**
 * String.compareToIgnoreCase as JDK 17 runs it: unit by unit when either string is Latin-1
 * (compact strings), otherwise code point by code point where the units differ; equal prefixes
 * compare by UTF-16 length.
 */
function compareIgnoreCase(a: string, b: string): number {
  const units = isLatin1(a) || isLatin1(b);
  for (let i = 0, j = 0; i < a.length && j < b.length; i++, j++) {
    let c1 = a.charCodeAt(i);
    let c2 = b.charCodeAt(j);
    if (c1 === c2 || compareFolded(c1, c2) === 0) continue;
    if (!units) {
      c1 = codePointIncluding(a, c1, i);
      if (c1 < 0) {
        i++;
        c1 = -c1;
      }
      c2 = codePointIncluding(b, c2, j);
      if (c2 < 0) {
        j++;
        c2 = -c2;
      }
    }
    const diff = compareFolded(c1, c2);
    if (diff !== 0) return diff;
  }
  return a.length - b.length;
}

function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** Character.isWhitespace: Unicode spaces except the no-break ones, plus \t–\r and U+001C–U+001F. */
const JAVA_WS = '\\t-\\r\\x1c-\\x20\\u1680\\u2000-\\u2006\\u2008-\\u200a\\u2028\\u2029\\u205f\\u3000';
const JAVA_BLANK = new RegExp(`^[${JAVA_WS}]*$`);
const JAVA_STRIP = new RegExp(`^[${JAVA_WS}]+|[${JAVA_WS}]+$`, 'g');

function charArg(v: unknown): string {
  // indexOf(int ch) receives a code point; indexOf(String) a string.
  return typeof v === 'number' ? String.fromCodePoint(v) : str(v);
}

export const STRING: Table = {
  length: { 0: (s: string) => s.length },
  isEmpty: { 0: (s: string) => s.length === 0 },
  isBlank: { 0: (s: string) => JAVA_BLANK.test(s) },
  equals: { 1: (s: string, [o]) => typeof o === 'string' && o === s },
  equalsIgnoreCase: { 1: (s: string, [o]) => typeof o === 'string' && (o === s || (o.length === s.length && compareIgnoreCase(s, o) === 0)) },
  compareTo: { 1: (s: string, [o]) => compareStrings(s, str(o)) },
  compareToIgnoreCase: { 1: (s: string, [o]) => compareIgnoreCase(s, str(o)) },
  contains: { 1: (s: string, [o]) => s.includes(str(o)) },
  startsWith: {
    1: (s: string, [p]) => s.startsWith(str(p)),
    2: (s: string, [p, i]) => {
      const at = int(i);
      return at >= 0 && at <= s.length && s.startsWith(str(p), at);
    },
  },
  endsWith: { 1: (s: string, [p]) => s.endsWith(str(p)) },
  indexOf: {
    1: (s: string, [p]) => s.indexOf(charArg(p)),
    2: (s: string, [p, from]) => s.indexOf(charArg(p), Math.max(0, int(from))),
  },
  lastIndexOf: {
    1: (s: string, [p]) => s.lastIndexOf(charArg(p)),
    2: (s: string, [p, from]) => (int(from) < 0 ? -1 : s.lastIndexOf(charArg(p), int(from))),
  },
  substring: {
    1: (s: string, [b]) => {
      const begin = int(b);
      if (begin < 0 || begin > s.length) outOfBounds(`begin ${begin}, end ${s.length}, length ${s.length}`);
      return s.slice(begin);
    },
    2: (s: string, [b, e]) => {
      const begin = int(b);
      const end = int(e);
      if (begin < 0 || end > s.length || begin > end) outOfBounds(`begin ${begin}, end ${end}, length ${s.length}`);
      return s.slice(begin, end);
    },
  },
  charAt: {
    1: (s: string, [i]) => {
      const at = int(i);
      if (at < 0 || at >= s.length) outOfBounds(`index ${at}, length ${s.length}`);
      return new JChar(s[at]!);
    },
  },
  codePointAt: {
    1: (s: string, [i]) => {
      const at = int(i);
      if (at < 0 || at >= s.length) outOfBounds(`index ${at}, length ${s.length}`);
      return s.codePointAt(at);
    },
  },
  toUpperCase: { 0: (s: string) => s.toUpperCase() },
  toLowerCase: { 0: (s: string) => javaLowerCase(s) },
  trim: { 0: (s: string) => javaTrim(s) },
  strip: { 0: (s: string) => s.replace(JAVA_STRIP, '') },
  concat: { 1: (s: string, [o]) => s + (typeof o === 'string' ? o : npeOrMismatch(o)) },
  // replace(char, char) takes two Characters; replace(CharSequence, CharSequence) neither.
  replace: { 2: (s: string, [a, b]) => (a instanceof JChar && b instanceof JChar ? replaceLiteral(s, a.value, b.value) : replaceLiteral(s, str(a), str(b))) },
  replaceAll: { 2: (s: string, [r, x], ctx) => ctx.regex(str(r)).replaceAll(s, ctx.replacement(str(x))) },
  replaceFirst: { 2: (s: string, [r, x], ctx) => ctx.regex(str(r)).replaceFirst(s, ctx.replacement(str(x))) },
  matches: { 1: (s: string, [r], ctx) => ctx.regex(str(r)).matches(s) },
  split: {
    1: (s: string, [r], ctx) => Object.freeze(ctx.regex(str(r)).split(s, 0, splitGuard(ctx))),
    2: (s: string, [r, l], ctx) => Object.freeze(ctx.regex(str(r)).split(s, int(l), splitGuard(ctx))),
  },
  repeat: {
    1: (s: string, [n], ctx) => {
      const count = int(n);
      if (count < 0) throw new JavaException('java.lang.IllegalArgumentException', `count is negative: ${count}`);
      ctx.budget.stringLength(s.length * count);
      return s.repeat(count);
    },
  },
  toCharArray: { 0: (s: string) => Object.freeze(s.split('').map((c) => new JChar(c))) },
  toString: { 0: (s: string) => s },
  hashCode: { 0: (s: string) => hashCode(s) },
};

/**
 * Splitting a long string costs time per part (the regex binding reads the input at every
 * match): the list is checked against maxCollectionSize as it grows and the clock read every
 * 64 parts, so a split stops within the budget instead of after it.
 */
function splitGuard(ctx: MethodContext): (parts: number) => void {
  const budget = ctx.budget;
  const max = budget.limits.maxCollectionSize;
  return (parts) => {
    if (parts >= max) budget.collection(parts + 1, 0);
    if ((parts & 63) === 63) budget.checkTime();
  };
}
