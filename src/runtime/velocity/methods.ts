// Java methods reachable from templates (https://developer.sailpoint.com/docs/extensibility/transforms/; https://developer.sailpoint.com/docs/extensibility/transforms/operations/static): java.lang.String
// (./string-methods.ts), List, Map, Integer/Double and Boolean, dispatched through whitelist tables
// keyed by method name — never through JavaScript property access — so a template cannot reach
// anything else.

import { compileJavaReplacement } from '../regex/index.js';
import { JavaException, int, npeOrMismatch, type MethodContext, type Table } from './arguments.js';
import { STRING, hashCode } from './string-methods.js';
import { JavaObject, JBigInteger, JChar, JDouble, NO_METHOD, integralValue, isNumber, javaEquals, javaString, compareNumbers, type JMap, type JNumber } from './values.js';

export { JavaException, type MethodContext } from './arguments.js';

/** Names that are the known sandbox escape routes: refused outright (TEMPLATE_FORBIDDEN). */
export const FORBIDDEN_NAMES: ReadonlySet<string> = new Set([
  'constructor', 'prototype', '__proto__', 'getClass', 'class', '__defineGetter__', '__defineSetter__',
  '__lookupGetter__', '__lookupSetter__', 'forName', 'newInstance', 'getDeclaredMethod', 'getDeclaredMethods',
  'getMethod', 'getMethods', 'invoke', 'getClassLoader', 'getRuntime', 'exec',
]);

export function isForbiddenName(name: string): boolean {
  return FORBIDDEN_NAMES.has(name) || name.startsWith('__');
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
  equals: { 1: (l: unknown[], [o]) => javaEquals(l, o) },
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
  equals: { 1: (m: JMap, [o]) => javaEquals(m, o) },
};

/** Object.hashCode of the values templates hold: String, Integer/Long, Double, Boolean, List, Map. */
function javaHashCode(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'string') return hashCode(v);
  if (typeof v === 'boolean') return v ? 1231 : 1237;
  if (v instanceof JChar) return v.value.charCodeAt(0);
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

/** java.lang.Character's instance methods (its static ones are not reachable here). */
const CHARACTER: Table = {
  toString: { 0: (c: JChar) => c.value },
  charValue: { 0: (c: JChar) => c },
  hashCode: { 0: (c: JChar) => javaHashCode(c) },
  equals: { 1: (c: JChar, [o]) => javaEquals(c, o) },
  // Comparable<Character>: any other argument is a ClassCastException (the bridge method's cast).
  compareTo: {
    1: (c: JChar, [o]) => {
      if (o instanceof JChar) return c.value.charCodeAt(0) - o.value.charCodeAt(0);
      if (o === null) throw new JavaException('java.lang.NullPointerException', 'argument is null');
      throw new JavaException('java.lang.ClassCastException', `${javaString(o)} is not a java.lang.Character`);
    },
  },
};

function tableFor(target: unknown): Table | undefined {
  if (typeof target === 'string') return STRING;
  if (target instanceof JChar) return CHARACTER;
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
export function getProperty(target: unknown, name: string, ctx: MethodContext, getters: PropertyGetters = propertyGetters(name)): unknown {
  if (target instanceof Map) {
    return target.has(name) ? target.get(name) : null;
  }
  for (let i = 0; i < getters.length; i++) {
    const r = invokeMethod(target, getters[i]!, [], ctx);
    if (r !== NO_METHOD) return r;
  }
  return NO_METHOD;
}

/** The getter names property `name` is looked up by, in order: getFoo, getfoo, isFoo. */
export type PropertyGetters = readonly [string, string, string];

/** The getter names of property `name` (a template computes them once per `$x.name` it contains). */
export function propertyGetters(name: string): PropertyGetters {
  const cap = name.charAt(0).toUpperCase() + name.slice(1);
  return [`get${cap}`, `get${name}`, `is${cap}`];
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
