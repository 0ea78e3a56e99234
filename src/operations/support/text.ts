// String operations share one shape (https://developer.sailpoint.com/docs/extensibility/transforms/): a null input gives null, anything else is
// first rendered as Java's String.valueOf would (lists as "[a, b]").

import { toJavaString } from '../../runtime/java-string.js';
import type { Evaluation, Evaluator, Value } from '../../engine/types.js';
import { limitError } from '../../runtime/budget.js';

/** An evaluator applying `fn` to the input text; null stays null. */
export function mapText(fn: (text: string) => Value): Evaluator {
  return (input) => (input === null ? null : fn(toJavaString(input)));
}

/** The text of a value for string contexts, or null. */
export function textOf(value: Value): string | null {
  return value === null ? null : toJavaString(value);
}

/**
 * What a null element becomes: `concat` leaves it out, `join` prints it as `null`, as Java's
 * String.valueOf does (decision O5 in docs/decisions.md: both observed on a tenant).
 */
export type NullElements = 'skip' | 'print';

/** concat and join: the values' texts with `separator` between them, nulls as `nulls` says. */
export function joinValues(values: readonly Value[], separator: string, ev: Evaluation, nulls: NullElements): string {
  const out = (nulls === 'skip' ? values.filter((v) => v !== null) : values).map((v) => toJavaString(v)).join(separator);
  const max = ev.limits.maxStringLength;
  if (out.length > max) throw limitError('maxStringLength', max, `a string of ${out.length} characters is too long`);
  return out;
}
