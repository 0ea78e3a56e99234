// reference — evaluate a saved transform by name, "just as if the logic were contained directly
// within this transform" (https://developer.sailpoint.com/docs/extensibility/transforms/operations/reference).

import { Failure, isTransformsError, TransformsError } from '../errors/index.js';
import { andThen, attempt, type MaybePromise } from '../providers/maybe.js';
import type { Evaluation, Value } from '../engine/types.js';
import { decide } from '../engine/trace.js';
import { unreported } from '../engine/reporting.js';
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
          () => unreported(compiled.evaluator)(input, inner),
          (error) => {
            throw inReference(error, resolvedName, pointer);
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
  // In a generated profile function a constant reference is inlined: the target's nodes are
  // emitted there, once, as long as the transform provider still gives the very document they
  // were generated from, asked once per evaluation (otherwise, and outside profiles, the closure
  // resolves it).
  generate(code) {
    const ctx = code.compile;
    const { rt, input, ev } = code;
    const viaClosure = `return ${code.sync(`${code.bind(code.closure)}(${input}, ${ev})`)};`;
    const id = ctx.string('id', { required: true })!;
    const target = id.kind === 'constant' ? code.reference(id.value) : undefined;
    if (target === undefined || id.kind !== 'constant') return viaClosure;
    const name = code.literal(id.value);
    const inner = code.local();
    // Whether the provider gives the same documents: asked once per evaluation (per identity in a profile).
    const documents = target.documents.map(([n, doc]) => [code.literal(n), code.bind(doc)] as const);
    const same = documents.map(([n, doc]) => `${rt}.sameTransform(${ev}, ${n}, ${doc})`);
    const fresh = code.once(`reference ${documents.map(([n, doc]) => n + doc).join(' ')}`, same.join(' && '));
    return [
      `if (${target.depth - 1} >= ${ev}.limits.maxDepth || !${fresh}) ${viaClosure}`,
      `const ${inner} = ${target.pure ? ev : `${ev}.enterReference(${name})`};`,
      `try {`,
      `  return ${target.call(input, inner)};`,
      `} catch (e) {`,
      `  throw ${code.bind(inReference)}(e, ${name}, ${code.literal(ctx.at('id'))});`,
      `}`,
    ].join('\n');
  },
});

/**
 * An error of a referenced transform, located at the reference (its own pointer names the other
 * document); a failure not built yet stays one (errors/index.ts Failure); others unchanged.
 */
export function inReference(error: unknown, name: string, pointer: string): unknown {
  if (error instanceof Failure) {
    const inner = error;
    const message = `in referenced transform "${name}": ${inner.message}`;
    return new Failure(inner.code, message, pointer, () => ({ ...(inner.details ?? {}), transform: name, transformPath: inner.path ?? '' }), inner);
  }
  if (!isTransformsError(error)) return error;
  return new TransformsError(error.code, `in referenced transform "${name}": ${error.message}`, {
    path: pointer,
    cause: error,
    details: { ...(error.details ?? {}), transform: name, transformPath: error.path ?? '' },
  });
}
