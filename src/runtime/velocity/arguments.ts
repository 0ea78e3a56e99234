// What the Java methods reachable from templates (./methods.ts, ./string-methods.ts) share: the
// Java exception they raise, their context (the template's regexes, the evaluation's budget), and
// Velocity's conversion of their arguments to String and int parameters.

import type { JavaPattern, JavaReplacement } from '../regex/index.js';
import type { Budget, BudgetLimits } from '../budget.js';
import { JBigInteger, JDouble, isNumber, javaString } from './values.js';

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

export type Method = (self: never, args: unknown[], ctx: MethodContext) => unknown;
export type Table = Record<string, Record<number, Method>>;

export function npe(): never {
  throw new JavaException('java.lang.NullPointerException', 'argument is null');
}

/** A String parameter: Velocity 2 converts numbers and booleans with toString; null is an NPE. */
export function str(v: unknown): string {
  if (v === null || v === undefined) npe();
  if (typeof v === 'string') return v;
  if (isNumber(v) || typeof v === 'boolean') return javaString(v);
  throw new JavaException('java.lang.IllegalArgumentException', `argument type mismatch: ${javaString(v)}`);
}

/** An int parameter: integral numbers, or a numeric string (Velocity 2 argument conversion). */
export function int(v: unknown): number {
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

export function outOfBounds(message: string): never {
  throw new JavaException('java.lang.StringIndexOutOfBoundsException', message);
}

export function npeOrMismatch(o: unknown): never {
  if (o === null) npe();
  throw new JavaException('java.lang.IllegalArgumentException', `argument type mismatch: ${javaString(o)}`);
}
