// One generated function per identity profile: every attribute of identityAttributeConfig for
// one identity, in the profile's order, as engine/profile.ts's runProfile computes them with the
// closures. The attributes' transforms are emitted into one source (engine/codegen/generator.ts),
// so that what they read alike is computed once per identity in slots of one state object (an
// account list listed, filtered and sorted; the same account attribute read twice), and
// references with a constant name are inlined. Each attribute keeps its own evaluation (its
// steps, $oldValue and $attributeDefinition) and its own error: one failing attribute is null
// with its error, the others are computed, as on the platform's identity preview.
//
// At the first pending value (an asynchronous provider) the generated function throws PENDING
// and the caller evaluates the whole profile again through runProfile.

import type { Identity } from '../../providers/types.js';
import type { Budget } from '../../runtime/budget.js';
import type { MaybePromise } from '../../providers/maybe.js';
import type { CompiledMapping, ProfileResult } from '../profile.js';
import type { CompiledTransform, Limits, Value } from '../types.js';
import type { AttributeEvaluation } from '../evaluation.js';
import { build, Generator, literal, type RecordedNodes, type ReferenceResolver } from './generator.js';

/** A generated profile: throws PENDING when a provider answers asynchronously. */
export type GeneratedProfile = (
  identity: Identity,
  previous: Readonly<Record<string, unknown>>,
  limits: Readonly<Limits>,
  budget: Budget,
  shared: Map<string, unknown>,
) => ProfileResult;

/** What profile generation needs of the engine. */
export interface ProfileCodeHost {
  /** The recorded nodes of a compiled transform (undefined: call its evaluator). */
  nodes(compiled: CompiledTransform): RecordedNodes | undefined;
  /** A referenced transform, compiled, to inline; undefined when it does not resolve at once. */
  readonly reference: ReferenceResolver;
  /** The attributes' evaluation, begun for each attribute as runProfile creates one (its template variables built when first read). */
  evaluation(identity: Identity, previous: Readonly<Record<string, unknown>>, limits: Readonly<Limits>, budget: Budget, shared: Map<string, unknown>): AttributeEvaluation;
  /** The value, once its size is checked against maxOutputLength. */
  finish(out: MaybePromise<Value>, limits: Readonly<Limits>): MaybePromise<Value>;
  /** Record an attribute's error (null value), or re-throw what is not a coded error (PENDING included). */
  failed(error: unknown, mapping: CompiledMapping, attributes: Record<string, Value>, errors: ProfileResult['errors']): void;
}

/** Emit and build the function of a compiled profile; undefined when the host forbids `new Function`. */
export function generateProfile(mappings: readonly CompiledMapping[], host: ProfileCodeHost): GeneratedProfile | undefined {
  const generator = new Generator(host.reference);
  const evaluators: unknown[] = [];
  const steps = mappings.map((m, i) => {
    const mapping = `M[${i}]`;
    if (m.compileError !== undefined) return `errors.push(${mapping}.compileError);`;
    const nodes = host.nodes(m.compiled!);
    // A transform compiled without recorded nodes (none today) runs its own evaluator.
    const root = nodes !== undefined ? `${generator.node(generator.unit(nodes), '')}(null, ev, c)` : `rt.sync(E[${evaluators.push(m.compiled!.evaluator) - 1}](null, ev))`;
    // A string within maxOutputLength, or null, is its own finished value: checked here, without a call.
    return `ev.begin(${literal(m.name)});
try {
  out = ${root};
  if (out !== null && (typeof out !== 'string' || out.length > limits.maxOutputLength)) out = H.finish(out, limits);
  attributes[${literal(m.attribute)}] = out;
} catch (e) {
  H.failed(e, ${mapping}, attributes, errors);
}`;
  });
  const source = `${generator.prelude()}
return function profile(identity, previous, limits, budget, shared) {
  const c = new State();
  const attributes = {};
  const errors = [];
  const ev = H.evaluation(identity, previous, limits, budget, shared);
  let out;
${steps.join('\n')}
  return { attributes, errors };
};`;
  return build(generator, source, { M: mappings, H: host, E: evaluators }) as GeneratedProfile | undefined;
}
