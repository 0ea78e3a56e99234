// Where a compiled transform's failures become coded errors. Inside a transform, nodes raise
// failures (src/errors/index.ts Failure) that cost no Error to make and that firstValid's
// ignoreErrors discards as they are; the transform's entry (CompiledTransform.evaluator) reports
// them as the TransformsErrors they stand for, thrown or rejected. A reference enters the
// transform it names without that step (unreported), so that a failure inside it stays cheap until
// the outermost entry reports it, as when the reference is inlined in generated code.

import { reported } from '../errors/index.js';
import { isPromise, type MaybePromise } from '../providers/maybe.js';
import type { Evaluator, Value } from './types.js';

const inner = new WeakMap<Evaluator, Evaluator>();

/** `evaluator` as a compiled transform's entry: its failures reported as coded errors. */
export function reporting(evaluator: Evaluator): Evaluator {
  const entry: Evaluator = (input, ev) => {
    let out: MaybePromise<Value>;
    try {
      out = evaluator(input, ev);
    } catch (error) {
      throw reported(error);
    }
    return isPromise<Value>(out) ? out.then(undefined, (e) => Promise.reject(reported(e))) : out;
  };
  inner.set(entry, evaluator);
  return entry;
}

/** The evaluator behind a compiled transform's entry, whose failures are not reported yet (the entry itself when it has none). */
export function unreported(entry: Evaluator): Evaluator {
  return inner.get(entry) ?? entry;
}
