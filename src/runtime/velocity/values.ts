// The Java value model of templates (https://developer.sailpoint.com/docs/extensibility/transforms/): Velocity works on Java objects, so
// integers, doubles, strings, lists and maps keep their Java identity here — an Integer renders
// "11", a Double "11.0"; arithmetic follows org.apache.velocity.util.MathUtils (integer division
// truncates, Integer widens to Long and then BigInteger instead of overflowing).

import { DEFAULT_BUDGET_LIMITS, limitError } from '../budget.js';

/** A java.lang.Double (integral JS numbers are Integer/Long, bigint is a Long/BigInteger beyond 2^53). */
export class JDouble {
  constructor(readonly value: number) {}
}

/**
 * A java.math.BigInteger whose value fits a Long. MathUtils keeps a BigInteger operand's class:
 * any integral operation with one gives a BigInteger (`%` being BigInteger.mod), even when the
 * value falls back into Long's range. Beyond Long's range a bigint is always a BigInteger.
 */
export class JBigInteger {
  constructor(readonly value: bigint) {}
}

/**
 * A java.lang.Character (`String.charAt`, the elements of `toCharArray()`). It is no String: it
 * has none of String's methods (`$a.charAt(0).length()` fails), never equals one
 * (`$a.charAt(0).equals("A")` is false), is no String argument (`$a.concat($a.charAt(0))` fails)
 * and `+` neither adds nor concatenates it (null); `==` compares it with a String by toString(),
 * as it does any two classes (V7).
 */
export class JChar {
  constructor(readonly value: string) {}
}

/** Objects with Java methods (Identity, Link, $foreach): only their whitelisted methods are reachable. */
export abstract class JavaObject {
  abstract readonly javaClass: string;
  /** Invoke a whitelisted method; NO_METHOD when it does not exist (never reaches JS properties). */
  abstract call(name: string, args: readonly unknown[]): unknown;
  abstract toJavaString(): string;
}

/** Returned by method tables when no method of that name and arity exists. */
export const NO_METHOD: unique symbol = Symbol('no such method');

/** A java.util.Map built by a template or converted from data: keys are strings. */
export type JMap = Map<string, unknown>;

/** Convert host data (variables, identity attributes) into template values. */
export function toJava(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return value;
    case 'number':
      return Number.isSafeInteger(value) ? value : new JDouble(value);
    case 'object':
      if (value instanceof JDouble || value instanceof JChar || value instanceof JavaObject || value instanceof Map) return value;
      if (Array.isArray(value)) return Object.freeze(value.map(toJava));
      if (value instanceof Date) return value.toISOString();
      {
        // Frozen: MAP.put and #set refuse to change host data (template-made maps stay open).
        const map: JMap = new Map();
        for (const key of Object.keys(value)) map.set(key, toJava((value as Record<string, unknown>)[key]));
        return Object.freeze(map);
      }
    default:
      // Functions and symbols have no Java counterpart: a template never receives host code.
      return null;
  }
}

/** java.lang.Double.toString: shortest digits, plain between 10^-3 and 10^7, else d.dddE±n. */
export function javaDoubleToString(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Infinity) return 'Infinity';
  if (d === -Infinity) return '-Infinity';
  if (d === 0) return Object.is(d, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(d);
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(d);
    if (s.includes('e')) return expandExponent(d);
    return s.includes('.') ? s : s + '.0';
  }
  const [mantissa, exp] = d.toExponential().split('e') as [string, string];
  const m = mantissa.includes('.') ? mantissa : mantissa + '.0';
  return `${m}E${Number(exp)}`;
}

function expandExponent(d: number): string {
  // JS switches to exponent form below 1e-6; Java keeps plain form down to 1e-3 only, so this
  // path is reached solely for values in [1e-3, 1e7) that JS printed exponentially (none in
  // practice); toFixed with enough digits is exact for them.
  const s = d.toFixed(20).replace(/0+$/, '');
  return s.endsWith('.') ? s + '0' : s;
}

/**
 * Java's String.valueOf / toString for any template value. A list or map is rendered only up to
 * `max` characters (beyond, EVAL_LIMIT_STRING): lists that hold one another twice at each of a
 * few dozen levels would otherwise render to more characters than there are atoms.
 */
export function javaString(value: unknown, max: number = DEFAULT_BUDGET_LIMITS.maxStringLength): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'bigint':
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      if (value instanceof JDouble) return javaDoubleToString(value.value);
      if (value instanceof JBigInteger) return String(value.value);
      if (value instanceof JChar) return value.value;
      if (value instanceof JavaObject) return value.toJavaString();
      if (Array.isArray(value) || value instanceof Map) {
        const out = { text: '', max };
        appendCollection(value, out);
        return out.text;
      }
      return 'null';
  }
}

/** AbstractCollection.toString / AbstractMap.toString, with "(this Collection)" for a list in itself. */
function appendCollection(value: readonly unknown[] | Map<string, unknown>, out: { text: string; max: number }): void {
  const self = Array.isArray(value) ? '(this Collection)' : '(this Map)';
  out.text += Array.isArray(value) ? '[' : '{';
  let first = true;
  const append = (v: unknown) => {
    if (v === value) out.text += self;
    else if (Array.isArray(v) || v instanceof Map) appendCollection(v, out);
    else out.text += javaString(v);
    if (out.text.length > out.max) throw limitError('maxStringLength', out.max, 'a list or map renders to too long a string');
  };
  if (Array.isArray(value)) {
    for (const v of value) {
      if (!first) out.text += ', ';
      first = false;
      append(v);
    }
    out.text += ']';
  } else {
    for (const [k, v] of value as Map<string, unknown>) {
      if (!first) out.text += ', ';
      first = false;
      out.text += `${k}=`;
      append(v);
    }
    out.text += '}';
  }
}

/** A template number: Integer/Long (number, bigint), BigInteger (bigint beyond Long, JBigInteger) or Double. */
export type JNumber = number | bigint | JDouble | JBigInteger;

export function isNumber(v: unknown): v is JNumber {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof JDouble || v instanceof JBigInteger;
}

function toDouble(v: JNumber): number {
  return v instanceof JDouble || v instanceof JBigInteger ? Number(v.value) : Number(v);
}

/** The exact integral value of an integral number. */
export function integralValue(v: number | bigint | JBigInteger): bigint {
  return v instanceof JBigInteger ? v.value : BigInt(v);
}

/** Normalize an integral result: a JS number while it is exact, a bigint beyond 2^53. */
function integral(v: bigint): number | bigint {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

export type MathOp = '+' | '-' | '*' | '/' | '%';

/** MathUtils: Double if either side is a Double, integral otherwise (widening, never wrapping). */
export function arithmetic(op: MathOp, a: JNumber, b: JNumber): JNumber {
  if (a instanceof JDouble || b instanceof JDouble) {
    const x = toDouble(a);
    const y = toDouble(b);
    if ((op === '/' || op === '%') && y === 0) throw new ArithmeticError(op);
    switch (op) {
      case '+': return new JDouble(x + y);
      case '-': return new JDouble(x - y);
      case '*': return new JDouble(x * y);
      case '/': return new JDouble(x / y);
      case '%': return new JDouble(x % y);
    }
  }
  if (typeof a === 'number' && typeof b === 'number') {
    let r: number;
    switch (op) {
      case '+': r = a + b; break;
      case '-': r = a - b; break;
      case '*': r = a * b; break;
      case '/':
        if (b === 0) throw new ArithmeticError(op);
        r = Math.trunc(a / b);
        break;
      case '%':
        if (b === 0) throw new ArithmeticError(op);
        r = a % b;
        break;
    }
    if (Number.isSafeInteger(r)) return Object.is(r, -0) ? 0 : r;
  }
  const x = integralValue(a as number | bigint | JBigInteger);
  const y = integralValue(b as number | bigint | JBigInteger);
  if (isBigInteger(a) || isBigInteger(b)) return bigIntegerArithmetic(op, x, y);
  // MathUtils multiplies and divides Longs with lmul/ldiv: Long.MIN_VALUE times or over -1 wraps to
  // itself (its overflow test, result / l2 != l1, misses exactly this case).
  if ((op === '*' || op === '/') && x === LONG_MIN && y === -1n) return LONG_MIN;
  switch (op) {
    case '+': return integral(x + y);
    case '-': return integral(x - y);
    case '*': return integral(x * y);
    case '/':
      if (y === 0n) throw new ArithmeticError(op);
      return integral(x / y);
    case '%':
      if (y === 0n) throw new ArithmeticError(op);
      return integral(x % y);
  }
}

/** MathUtils' BASE_BIGINTEGER: exact, and the result stays a BigInteger whatever its size. */
function bigIntegerArithmetic(op: MathOp, x: bigint, y: bigint): bigint | JBigInteger {
  let r: bigint;
  switch (op) {
    case '+': r = x + y; break;
    case '-': r = x - y; break;
    case '*': r = x * y; break;
    case '/':
      if (y === 0n) throw new ArithmeticError(op);
      r = x / y;
      break;
    case '%':
      if (y === 0n) throw new ArithmeticError(op);
      // BigInteger.mod: never negative, and a non-positive modulus is an error.
      if (y < 0n) throw new ArithmeticError('mod');
      r = ((x % y) + y) % y;
      break;
  }
  return r < LONG_MIN || r > LONG_MAX ? r : new JBigInteger(r);
}

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
/** A java.math.BigInteger: a JBigInteger, or a value beyond Long's range (MathUtils widens Long to BigInteger). */
const isBigInteger = (v: JNumber): boolean => v instanceof JBigInteger || (typeof v === 'bigint' && (v < LONG_MIN || v > LONG_MAX));

export class ArithmeticError extends Error {
  constructor(op: MathOp | 'mod') {
    super(
      op === 'mod'
        ? 'BigInteger: modulus not positive'
        : op === '/'
          ? 'Right side of division operation is zero. Must be non-zero'
          : 'Right side of modulus operation is zero. Must be non-zero',
    );
  }
}

/** Numeric comparison across Integer/Long/Double, as MathUtils.compare. */
export function compareNumbers(a: JNumber, b: JNumber): number {
  if (a instanceof JDouble || b instanceof JDouble) {
    const x = toDouble(a);
    const y = toDouble(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const x = a instanceof JBigInteger ? a.value : a;
  const y = b instanceof JBigInteger ? b.value : b;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Velocity's `==`: numbers compare numerically, null equals only null, values of the same kind
 * use equals(), and values of different classes compare by their toString() (Velocity 1.7 /
 * 2.x ASTEQNode), so the char "a" equals the String "a" and the String "1" equals the Integer 1.
 */
export function velocityEquals(a: unknown, b: unknown): boolean {
  // Two strings (the usual #if) compare by value: the rules below give the same answer.
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  if (a === null || b === null) return a === b;
  if (isNumber(a) && isNumber(b)) return compareNumbers(a, b) === 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b;
  if (a === b) return true;
  return javaString(a) === javaString(b);
}

/** java.lang.Object.equals for method arguments (List.contains, String.equals): same class and value. */
export function javaEquals(a: unknown, b: unknown): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (a instanceof JDouble && b instanceof JDouble) return a.value === b.value;
  if (a instanceof JChar && b instanceof JChar) return a.value === b.value;
  // BigInteger.equals is false for a Long of the same value.
  if (a instanceof JBigInteger || b instanceof JBigInteger) return a instanceof JBigInteger && b instanceof JBigInteger && a.value === b.value;
  if (isNumber(a) && isNumber(b) && !(a instanceof JDouble) && !(b instanceof JDouble)) return a == b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => javaEquals(x, b[i]));
  // AbstractMap.equals: the same keys, with equal values.
  if (a instanceof Map && b instanceof Map) return a.size === b.size && [...a].every(([k, v]) => b.has(k) && javaEquals(v, b.get(k)));
  return a === b;
}
