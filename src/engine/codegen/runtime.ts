// The helpers generated transform and profile functions call (engine/codegen/generator.ts): the same step counting,
// error location and string rules as the closures of engine/compile.ts, so that both paths give
// the same values and the same coded errors.

import { Failure, type ErrorCode } from '../../errors/index.js';
import { reporting } from '../reporting.js';
import type { RenderFailure } from './identity-template.js';
import type { CompiledTemplate } from '../../runtime/velocity/index.js';
import { checkTime, locate, stepLimit } from '../compile.js';
import { toJavaString } from '../../runtime/java-string.js';
import { templateGlobals, templateVariables } from '../globals.js';
import { isPromise } from '../../providers/maybe.js';
import type { IdentityReach } from '../identity-reach.js';
import type { Evaluation, Value } from '../types.js';
import type { IdentityGraph } from '../../providers/types.js';

/**
 * Thrown when a value is pending (an asynchronous provider): generated code runs synchronously,
 * and its entry hands the evaluation over to the closures, which wait. One object, never a
 * coded error, so that nothing on the way (firstValid's ignoreErrors) mistakes it for one.
 */
export const PENDING: { readonly pending: true } = Object.freeze({ pending: true });

function noop(): void {}

/** PENDING, once the abandoned promise can no longer be an unhandled rejection. */
function pending(value: Promise<unknown>): typeof PENDING {
  value.then(noop, noop);
  return PENDING;
}

export const runtime = Object.freeze({
  PENDING,
  isPromise,
  stepLimit,
  checkTime,
  /** Locate an error at a node (the innermost location wins), as the closures do. */
  locate(error: unknown, pointer: string, ev: Evaluation): unknown {
    return error === PENDING ? error : locate(error, pointer, ev.limits);
  },
  /** `value`, or PENDING thrown when it is a promise. */
  sync(value: unknown): Value {
    if (isPromise(value)) throw pending(value);
    return value as Value;
  },
  /** Whether the transform provider gives `document` for `name` now (an inlined reference is still that document). */
  sameTransform(ev: Evaluation, name: string, document: unknown): boolean {
    const provider = ev.providers.transforms;
    if (provider === undefined) return false;
    const found = provider.getTransform(name);
    // The document itself (never a promise: it was inlined): no promise check, whose read of
    // `then` on documents of every shape is a megamorphic one.
    if (found === document) return true;
    // A pending answer: the reference's closure asks again and waits; this one must not reject unhandled.
    if (isPromise(found)) found.then(noop, noop);
    return false;
  },
  /**
   * A value to keep in a slot under `key`: returned when known at once; a promise is memoised
   * where the closures look for it (Evaluation.cached) before PENDING is thrown, so that the
   * evaluation they take over does not ask the provider again.
   */
  memo<T>(ev: Evaluation, key: string, value: T | Promise<T>): T {
    if (!isPromise(value)) return value;
    ev.memo.set(key, value);
    throw pending(value);
  },
  str: toJavaString,
  /** The identity graph of `$identity` (engine/codegen/identity-template.ts), or PENDING thrown while it loads. */
  identityGraph(ev: Evaluation, reach: IdentityReach): IdentityGraph | null {
    const graph = ev.identityGraph(reach);
    if (isPromise(graph)) throw pending(graph);
    return graph;
  },
  /** A template's coded error, as the renderer raises it (engine/codegen/identity-template.ts), built when reported. */
  renderFailure(failure: RenderFailure): Failure {
    const details = failure.details;
    return new Failure(failure.code, failure.message, undefined, details === undefined ? undefined : () => ({ ...details }));
  },
  /** A generated transform's entry: its failures reported as coded errors (engine/reporting.ts). */
  reporting,
  /** An object whose prototype is Object.prototype or null (what getAttributes() maps directly). */
  plainObject(value: object): boolean {
    const proto: unknown = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  },
  /** A coded failure at `pointer`, built into its error when reported (errors/index.ts Failure). */
  error(code: ErrorCode, message: string, pointer: string): Failure {
    return new Failure(code, message, pointer);
  },
  /**
   * Render a template over its dynamic variables, as the closures' renderer does (the context of
   * templateVariables); `reach`, the parts of the identity graph it reads (engine/identity-reach.ts,
   * bound where the call was generated), is loaded first when the template uses $identity.
   */
  render(template: CompiledTemplate, reach: IdentityReach, names: readonly string[], values: readonly Value[], ev: Evaluation): Value {
    const vars = templateVariables(names, values);
    let out: unknown;
    if (!template.usesIdentity) out = template.render(vars, templateGlobals(ev, null), ev);
    else {
      const identity = ev.identityGraph(reach);
      if (isPromise(identity)) throw pending(identity);
      out = template.render(vars, templateGlobals(ev, identity), ev);
    }
    if (isPromise(out)) throw pending(out);
    return out as Value;
  },
});

export type CodegenRuntime = typeof runtime;
