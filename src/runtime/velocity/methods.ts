// Java methods reachable from templates (https://developer.sailpoint.com/docs/extensibility/transforms/; https://developer.sailpoint.com/docs/extensibility/transforms/operations/static): java.lang.String, List,
// Map, Integer/Double and Boolean, dispatched through whitelist tables keyed by method name —
// never through JavaScript property access — so a template cannot reach anything else.

import type { JavaPattern, JavaReplacement } from '../regex/index.js';
import { compileJavaReplacement } from '../regex/index.js';
import { javaLowerCase, javaTrim } from '../java-string.js';
import { JavaObject, JBigInteger, JDouble, NO_METHOD, integralValue, isNumber, javaEquals, javaString, compareNumbers, type JMap, type JNumber } from './values.js';
import type { Budget, BudgetLimits } from '../budget.js';

/** A Java exception raised by a method: the renderer turns it into "Error rendering template". */
export class JavaException extends Error {
  constructor(
    readonly javaClass: string,
    message: string,
  ) {
    super(`${javaClass}: ${message}`);
  }
}

export interface MethodContext {
  regex(source: string): JavaPattern;
  replacement(source: string): JavaReplacement;
  /** The evaluation's limits and budget: methods that grow a value check it before growing. */
  readonly limits: Readonly<BudgetLimits>;
  readonly budget: Budget;
}

/** Names that are the known sandbox escape routes: refused outright (TEMPLATE_FORBIDDEN). */
export const FORBIDDEN_NAMES: ReadonlySet<string> = new Set([
  'constructor', 'prototype', '__proto__', 'getClass', 'class', '__defineGetter__', '__defineSetter__',
  '__lookupGetter__', '__lookupSetter__', 'forName', 'newInstance', 'getDeclaredMethod', 'getDeclaredMethods',
  'getMethod', 'getMethods', 'invoke', 'getClassLoader', 'getRuntime', 'exec',
]);

export function isForbiddenName(name: string): boolean {
  return FORBIDDEN_NAMES.has(name) || name.startsWith('__');
}

type Method = (self: never, args: unknown[], ctx: MethodContext) => unknown;
type Table = Record<string, Record<number, Method>>;

function npe(): never {
  throw new JavaException('java.lang.NullPointerException', 'argument is null');
}

/** A String parameter: Velocity 2 converts numbers and booleans with toString; null is an NPE. */
function str(v: unknown): string {
  if (v === null || v === undefined) npe();
  if (typeof v === 'string') return v;
  if (isNumber(v) || typeof v === 'boolean') return javaString(v);
  throw new JavaException('java.lang.IllegalArgumentException', `argument type mismatch: ${javaString(v)}`);
}

/** An int parameter: integral numbers, or a numeric string (Velocity 2 argument conversion). */
function int(v: unknown): number {
  let n: number | undefined;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'bigint') n = Number(v);
  else if (v instanceof JBigInteger) n = Number(v.value);
  else if (v instanceof JDouble && Number.isInteger(v.value)) n = v.value;
  else if (typeof v === 'string' && /^[+-]?\d+$/.test(v.trim())) n = Number(v.trim());
  if (n === undefined || n > 2147483647 || n < -2147483648) {
    throw new JavaException('java.lang.IllegalArgumentException', `argument type mismatch: ${javaString(v)} is not an int`);
  }
  return n;
}

function outOfBounds(message: string): never {
  throw new JavaException('java.lang.StringIndexOutOfBoundsException', message);
}

/** String.hashCode: s[0]*31^(n-1) + … in 32-bit int arithmetic. */
function hashCode(s: string): number {
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

const STRING: Table = {
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
      return s[at];
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
  replace: { 2: (s: string, [a, b]) => replaceLiteral(s, str(a), str(b)) },
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
  toCharArray: { 0: (s: string) => Object.freeze(s.split('')) },
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

function npeOrMismatch(o: unknown): never {
  if (o === null) npe();
  throw new JavaException('java.lang.IllegalArgumentException', `argument type mismatch: ${javaString(o)}`);
}

function listIndex(list: readonly unknown[], i: unknown): number {
  const at = int(i);
  if (at < 0 || at >= list.length) {
    throw new JavaException('java.lang.IndexOutOfBoundsException', `Index ${at} out of bounds for length ${list.length}`);
  }
  return at;
}

function mutable(list: readonly unknown[]): unknown[] {
  if (Object.isFrozen(list)) throw new JavaException('java.lang.UnsupportedOperationException', 'the list is read-only');
  return list as unknown[];
}

const LIST: Table = {
  size: { 0: (l: unknown[]) => l.length },
  isEmpty: { 0: (l: unknown[]) => l.length === 0 },
  get: { 1: (l: unknown[], [i]) => l[listIndex(l, i)] },
  contains: { 1: (l: unknown[], [o]) => l.some((x) => javaEquals(x, o)) },
  indexOf: { 1: (l: unknown[], [o]) => l.findIndex((x) => javaEquals(x, o)) },
  add: {
    1: (l: unknown[], [o], ctx) => {
      ctx.budget.collection(mutable(l).length + 1, 1);
      l.push(o);
      return true;
    },
  },
  subList: {
    2: (l: unknown[], [a, b]) => {
      const from = int(a);
      const to = int(b);
      if (from < 0 || to > l.length || from > to) {
        throw new JavaException('java.lang.IndexOutOfBoundsException', `fromIndex ${from}, toIndex ${to}, size ${l.length}`);
      }
      return Object.freeze(l.slice(from, to));
    },
  },
  toString: { 0: (l: unknown[], _args: unknown[], ctx: MethodContext) => javaString(l, ctx.limits.maxStringLength) },
  hashCode: { 0: (l: unknown[]) => javaHashCode(l) },
};

const MAP: Table = {
  get: { 1: (m: JMap, [k]) => m.get(javaString(k)) ?? null },
  getOrDefault: { 2: (m: JMap, [k, d]) => (m.has(javaString(k)) ? m.get(javaString(k)) : d) },
  containsKey: { 1: (m: JMap, [k]) => m.has(javaString(k)) },
  containsValue: { 1: (m: JMap, [v]) => [...m.values()].some((x) => javaEquals(x, v)) },
  keySet: { 0: (m: JMap) => Object.freeze([...m.keys()]) },
  values: { 0: (m: JMap) => Object.freeze([...m.values()]) },
  size: { 0: (m: JMap) => m.size },
  isEmpty: { 0: (m: JMap) => m.size === 0 },
  put: {
    2: (m: JMap, [k, v], ctx) => {
      if (Object.isFrozen(m)) throw new JavaException('java.lang.UnsupportedOperationException', 'the map is read-only');
      const key = javaString(k);
      if (!m.has(key)) ctx.budget.collection(m.size + 1, 1);
      const old = m.get(key) ?? null;
      m.set(key, v);
      return old;
    },
  },
  toString: { 0: (m: JMap, _args: unknown[], ctx: MethodContext) => javaString(m, ctx.limits.maxStringLength) },
  hashCode: { 0: (m: JMap) => javaHashCode(m) },
};

/** Object.hashCode of the values templates hold: String, Integer/Long, Double, Boolean, List, Map. */
function javaHashCode(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'string') return hashCode(v);
  if (typeof v === 'boolean') return v ? 1231 : 1237;
  if (typeof v === 'number' && v >= -0x80000000 && v <= 0x7fffffff) return v;
  if (v instanceof JBigInteger) return bigIntegerHashCode(v.value);
  if (typeof v === 'bigint' && (v < -(2n ** 63n) || v >= 2n ** 63n)) return bigIntegerHashCode(v);
  if (typeof v === 'number' || typeof v === 'bigint') {
    // Long.hashCode: (int) (value ^ (value >>> 32)).
    const x = BigInt.asUintN(64, BigInt(v));
    return Number(BigInt.asIntN(32, x ^ (x >> 32n)));
  }
  if (v instanceof JDouble) {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, Number.isNaN(v.value) ? NaN : v.value);
    return (view.getInt32(0) ^ view.getInt32(4)) | 0;
  }
  if (Array.isArray(v)) return v.reduce((h: number, e) => (Math.imul(31, h) + javaHashCode(e)) | 0, 1);
  if (v instanceof Map) return [...v].reduce((h: number, [k, e]) => (h + (javaHashCode(k) ^ javaHashCode(e))) | 0, 0);
  return 0;
}

const NUMBER: Table = {
  toString: { 0: (n: unknown) => javaString(n) },
  hashCode: { 0: (n: JNumber) => javaHashCode(n) },
  intValue: { 0: (n: JNumber) => (n instanceof JDouble ? Math.trunc(n.value) | 0 : Number(BigInt.asIntN(32, integralValue(n)))) },
  // BigInteger.longValue keeps the low 64 bits.
  longValue: { 0: (n: JNumber) => (n instanceof JDouble ? Math.trunc(n.value) : typeof n === 'number' ? n : longOf(BigInt.asIntN(64, integralValue(n)))) },
  doubleValue: { 0: (n: JNumber) => new JDouble(n instanceof JDouble ? n.value : Number(integralValue(n))) },
  equals: { 1: (n: unknown, [o]) => javaEquals(n, o) },
  compareTo: { 1: (n: JNumber, [o]) => (isNumber(o) ? compareNumbers(n, o) : npeOrMismatch(o)) },
};

const BOOLEAN: Table = {
  toString: { 0: (b: boolean) => String(b) },
  hashCode: { 0: (b: boolean) => javaHashCode(b) },
  booleanValue: { 0: (b: boolean) => b },
  equals: { 1: (b: boolean, [o]) => o === b },
};

function tableFor(target: unknown): Table | undefined {
  if (typeof target === 'string') return STRING;
  if (Array.isArray(target)) return LIST;
  if (target instanceof Map) return MAP;
  if (isNumber(target)) return NUMBER;
  if (typeof target === 'boolean') return BOOLEAN;
  return undefined;
}

/** Invoke `name` on a non-null target; NO_METHOD when no whitelisted method matches. */
export function invokeMethod(target: unknown, name: string, args: unknown[], ctx: MethodContext): unknown {
  if (target instanceof JavaObject) return target.call(name, args);
  const table = tableFor(target);
  if (!table || !Object.hasOwn(table, name)) return NO_METHOD;
  const overloads = table[name]!;
  const method = Object.hasOwn(overloads, args.length) ? overloads[args.length] : undefined;
  if (!method) return NO_METHOD;
  return (method as (self: unknown, args: unknown[], ctx: MethodContext) => unknown)(target, args, ctx);
}

/**
 * Velocity property resolution `$x.foo`: getFoo(), getfoo(), isFoo(), then get("foo") on maps
 * (and on objects with get(String), which here are only maps).
 */
export function getProperty(target: unknown, name: string, ctx: MethodContext): unknown {
  if (target instanceof Map) {
    return target.has(name) ? target.get(name) : null;
  }
  const cap = name.charAt(0).toUpperCase() + name.slice(1);
  for (const candidate of [`get${cap}`, `get${name}`, `is${cap}`]) {
    const r = invokeMethod(target, candidate, [], ctx);
    if (r !== NO_METHOD) return r;
  }
  return NO_METHOD;
}

/** Default replacement compiler for templates that are not given one. */
export const defaultReplacement = compileJavaReplacement;

/** BigInteger.hashCode: 31-polynomial of the magnitude's big-endian 32-bit words, times the sign. */
function bigIntegerHashCode(v: bigint): number {
  const words: number[] = [];
  for (let m = v < 0n ? -v : v; m > 0n; m >>= 32n) words.unshift(Number(m & 0xffffffffn));
  let h = 0;
  for (const w of words) h = (Math.imul(31, h) + w) | 0;
  return v < 0n ? -h | 0 : h;
}

/** A Long as a template value: a JS number while exact. */
function longOf(v: bigint): number | bigint {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}
