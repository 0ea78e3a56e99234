// maxOutputLength (docs/limits.md): the size of an evaluation's value, checked once it is computed.

import { limitError } from '../runtime/budget.js';
import { isPromise, type MaybePromise } from '../providers/maybe.js';
import type { Limits, Value } from './types.js';

/** The value of an evaluation, once its size is checked against maxOutputLength. */
export function finish(out: MaybePromise<Value>, limits: Readonly<Limits>): MaybePromise<Value> {
  if (typeof out === 'string') {
    if (out.length > limits.maxOutputLength) throw outputLimit(out.length, limits);
    return out;
  }
  if (out === null || typeof out !== 'object') return out;
  if (isPromise<Value>(out)) return out.then((v) => finish(v, limits));
  const size = valueSize(out, limits.maxOutputLength);
  if (size > limits.maxOutputLength) throw outputLimit(size, limits);
  return out;
}

function outputLimit(size: number, limits: Readonly<Limits>): Error {
  return limitError('maxOutputLength', limits.maxOutputLength, `the value is larger than ${limits.maxOutputLength} characters (at least ${size})`, '');
}

/** Characters of a value's strings and keys (and one per element), stopping once above `max`. */
function valueSize(root: Value, max: number): number {
  let size = 0;
  const stack: Value[] = [root];
  while (stack.length > 0 && size <= max) {
    const v = stack.pop()!;
    if (typeof v === 'string') size += v.length;
    else if (Array.isArray(v)) {
      size += v.length;
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        size += k.length + 1;
        stack.push(item);
      }
    } else size += 1;
  }
  return size;
}
