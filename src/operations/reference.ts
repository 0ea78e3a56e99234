// reference — evaluate a saved transform by name, "just as if the logic were contained directly
// within this transform" (https://developer.sailpoint.com/docs/extensibility/transforms/operations/reference).

import { isTransformsError, TransformsError } from '../errors/index.js';
import { andThen, attempt, type MaybePromise } from '../engine/maybe.js';
import type { Evaluation, Value } from '../engine/types.js';
import { decide } from '../engine/trace.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const reference = defineOperation({
  type: 'reference',
  doc: 'reference — evaluate the transform whose name is attributes.id, passing this input as its implicit input',
  attributesRequired: false,
  attributesSchema: attributesSchema({ properties: { id: ref.string }, required: ['id'] }),
  compile(ctx) {
    const name = ctx.string('id', { required: true })!;
    const pointer = ctx.at('id');
    const run = (input: Value, ev: Evaluation, resolvedName: string): MaybePromise<Value> => {
      const inner = ev.enterReference(resolvedName);
      return andThen(ev.resolveTransform(resolvedName, pointer), (compiled) =>
        // An error inside the referenced transform is located at this reference, as its compile
        // errors are (engine.resolveTransform): its own pointer names the other document.
        attempt(
          () => compiled.evaluator(input, inner),
          (error) => {
            if (!isTransformsError(error)) throw error;
            throw new TransformsError(error.code, `in referenced transform "${resolvedName}": ${error.message}`, {
              path: pointer,
              cause: error,
              details: { ...(error.details ?? {}), transform: resolvedName, transformPath: error.path ?? '' },
            });
          },
        ),
      );
    };
    // Explained (engine.explain), the node records which transform it ran; the ordinary closure has no such step.
    if (ctx.tracing) {
      return (input, ev) =>
        andThen(name.kind === 'constant' ? name.value : name.evaluate(input, ev), (n) => {
          decide(ev, { transform: String(n) });
          return run(input, ev, String(n));
        });
    }
    return (input, ev) => andThen(name.kind === 'constant' ? name.value : name.evaluate(input, ev), (n) => run(input, ev, String(n)));
  },
  // Inlined as a node of the generated function; resolving and entering the referenced transform, itself generated stays in the closure.
  generate(code) {
    return `return ${code.sync(`${code.bind(code.closure)}(${code.input}, ${code.ev})`)};`;
  },
});
