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
 * concat and join: the values' texts with `separator` between them. A null element contributes
 * nothing (decision "concat/join null values" in docs/decisions.md).
 */
export function joinValues(values: readonly Value[], separator: string, ev: Evaluation): string {
  const out = values.filter((v) => v !== null).map((v) => toJavaString(v)).join(separator);
  const max = ev.limits.maxStringLength;
  if (out.length > max) throw limitError('maxStringLength', max, `a string of ${out.length} characters is too long`);
  return out;
}
