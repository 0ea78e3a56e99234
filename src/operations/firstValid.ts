// firstValid — the first entry that evaluates to a non-null value, lazily in order (https://developer.sailpoint.com/docs/extensibility/transforms/operations/first-valid).

import { attempt, isPromise, sequence } from '../providers/maybe.js';
import type { Value } from '../engine/types.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const firstValid = defineOperation({
  type: 'firstValid',
  doc: 'firstValid — first non-null entry; "" is a value; ignoreErrors skips failing entries',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: { values: ref.values, ignoreErrors: ref.boolean },
    required: ['values'],
  }),
  compile(ctx) {
    const entries = ctx.list('values');
    const ignoreErrors = ctx.boolean('ignoreErrors', false);
    const notFound = (): Value => null;
    if (!ignoreErrors) {
      // Without ignoreErrors the first error aborts the whole transform (https://developer.sailpoint.com/docs/extensibility/transforms/).
      return (input, ev) =>
        sequence<Value>(
          entries.length,
          (i) => {
            const out = entries[i]!(input, ev);
            return isPromise<Value>(out) ? out.then(done) : done(out);
          },
          notFound,
        );
    }
    return (input, ev) =>
      sequence<Value>(
        entries.length,
        (i) =>
          attempt(
            () => {
              const out = entries[i]!(input, ev);
              return isPromise<Value>(out) ? out.then(done) : done(out);
            },
            () => ({ done: false as const }),
          ),
        notFound,
      );
  },
  generate(code) {
    const ignoreErrors = code.compile.boolean('ignoreErrors', false);
    const v = code.local();
    // Lazily, in order: the first entry that is not null; with ignoreErrors a failing entry is
    // skipped (PENDING, the hand-over to the closures, is not an error and goes through).
    const tries = code.list('values').map((entry) =>
      ignoreErrors
        ? `try {\n  ${v} = ${entry};\n  if (${v} !== null && ${v} !== undefined) return ${v};\n} catch (e) {\n  if (e === ${code.rt}.PENDING) throw e;\n}`
        : `${v} = ${entry};\nif (${v} !== null && ${v} !== undefined) return ${v};`,
    );
    return [`let ${v};`, ...tries, 'return null;'].join('\n');
  },
});

function done(value: Value): { done: true; value: Value } | { done: false } {
  return value === null || value === undefined ? { done: false } : { done: true, value };
}
