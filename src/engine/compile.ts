// Compiling a transform tree into closures (input rules and templates:
// https://developer.sailpoint.com/docs/extensibility/transforms/).
// Every node is compiled once: the operation's compile step builds its closure, this module
// wraps it with the explicit-input rule, step counting and error location.

import { Failure, TransformsError, codedError, isCodedFailure, pointerJoin, type ErrorCode } from '../errors/index.js';
import type { FilterNode } from '../filter/ast.js';
import { needsTemplate, type CompiledTemplate } from '../runtime/velocity/index.js';
import type { JavaPattern, JavaReplacement } from '../runtime/regex/index.js';
import { attempt, isPromise, andThen, all, type MaybePromise } from '../providers/maybe.js';
import type { CompileContext, Evaluation, Evaluator, Limits, OperationSpec, StringAttribute, Value } from './types.js';
import { coerceBoolean, coerceInteger } from './coerce.js';
import { templateGlobals, templateVariables } from './globals.js';
import { traceNode } from './trace.js';
import { identityReach } from './identity-reach.js';
import { DEFAULT_LIMITS } from './options.js';
import { limitFromRangeError } from '../runtime/budget.js';
import { toJavaString } from '../runtime/java-string.js';

/** What compile needs from the engine: the registry, the limits and the caches. */
export interface CompileHost {
  readonly limits: Limits;
  operation(type: string): OperationSpec | undefined;
  template(source: string): CompiledTemplate;
  regex(source: string): JavaPattern;
  replacement(source: string): JavaReplacement;
  objectFilter(text: string): FilterNode;
  /** Compile closures that record an explanation (engine.explain); never set for ordinary compiles. */
  readonly trace?: boolean;
  /** Told of every node compiled (code generation builds on the closures: engine/codegen/generator.ts). */
  readonly record?: (pointer: string, node: CompiledNode) => void;
}

/** A node as compiled to closures: what code generation needs to emit it, or to call it. */
export interface CompiledNode {
  readonly spec: OperationSpec;
  /** The context the operation compiled with (its attributes, pointers and caches). */
  readonly ctx: CompileContext;
  /** The operation's closure alone. */
  readonly body: Evaluator;
  /** The whole node: explicit input, step counting, error location. */
  readonly evaluator: Evaluator;
}

/** Attribute keys every transform may carry besides its operation's own. */
export const COMMON_ATTRIBUTES = ['input', 'requiresPeriodicRefresh', 'id', 'internal'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function isTransformNode(value: unknown): value is { type: unknown; attributes?: unknown } {
  return isObject(value) && 'type' in value;
}

/**
 * Re-throw `error` located at `pointer` (coded errors and failures keep the innermost location). A RangeError
 * of the JavaScript engine (stack exhausted, string or BigInt too large) is a limit, not a bug.
 */
export function locate(error: unknown, pointer: string, limits: Readonly<Limits> = DEFAULT_LIMITS): TransformsError | Failure {
  if (isCodedFailure(error)) {
    if (error.path === undefined) error.path = pointer;
    return error;
  }
  const limit = limitFromRangeError(error, limits, pointer);
  if (limit !== undefined) return limit;
  return codedError('EVAL_INTERNAL', `unexpected error: ${error instanceof Error ? error.message : String(error)}`, {
    path: pointer,
    cause: error,
  });
}

const constant = (value: Value): Evaluator => () => value;

/** Compile one transform node found at `pointer`. */
export function compileNode(host: CompileHost, node: unknown, pointer: string, depth: number): Evaluator {
  if (!isTransformNode(node)) {
    throw codedError('SCHEMA_NOT_OBJECT', 'a transform must be an object with a "type"', { path: pointer });
  }
  if (depth > host.limits.maxDepth) {
    throw codedError('COMPILE_TOO_DEEP', `transforms are nested deeper than ${host.limits.maxDepth}`, { path: pointer });
  }
  const type = node.type;
  const spec = typeof type === 'string' ? host.operation(type) : undefined;
  if (spec === undefined) {
    throw codedError('COMPILE_UNKNOWN_TYPE', `unknown transform type ${JSON.stringify(type)}`, { path: pointerJoin(pointer, 'type') });
  }
  const attributes = isObject(node.attributes) ? node.attributes : {};
  const ctx = new Context(host, pointer, attributes, depth);
  const explicitInput = 'input' in attributes && attributes.input !== undefined ? ctx.valueAt(attributes.input, 'input') : undefined;

  let body: Evaluator;
  if (spec.compile === undefined) {
    const error = () => {
      throw new Failure('EVAL_NOT_EVALUABLE', `transform type "${spec.type}" cannot be evaluated by this engine`, pointer);
    };
    body = error;
  } else {
    try {
      body = spec.compile(ctx);
    } catch (error) {
      throw locate(error, pointer);
    }
  }
  const evaluator = wrap(body, explicitInput, pointer);
  if (host.trace) return traceNode(evaluator, spec.type, pointer);
  host.record?.(pointer, { spec, ctx, body, evaluator });
  return evaluator;
}

/**
 * The explicit-input rule, step counting and error location around an operation's closure:
 * one closure per node, nothing allocated per evaluation unless the input is explicit.
 */
function wrap(body: Evaluator, explicitInput: Evaluator | undefined, pointer: string): Evaluator {
  if (explicitInput === undefined) {
    return (input, ev) => {
      const steps = ++ev.counter.steps;
      if (steps > ev.limits.maxSteps) throw stepLimit(ev, pointer);
      if ((steps & STEPS_PER_TIME_CHECK) === 0) checkTime(ev, pointer);
      return runLocated(body, input, ev, pointer);
    };
  }
  // Explicit input wins over the implicit one (https://developer.sailpoint.com/docs/extensibility/transforms/); a nested input transform
  // without its own input still receives the outer input.
  return (input, ev) => {
    const steps = ++ev.counter.steps;
    if (steps > ev.limits.maxSteps) throw stepLimit(ev, pointer);
    if ((steps & STEPS_PER_TIME_CHECK) === 0) checkTime(ev, pointer);
    return andThen(explicitInput(input, ev), (explicit) => runLocated(body, explicit, ev, pointer));
  };
}

/** Run an operation's closure; its errors, thrown or rejected, are located at `pointer`. */
function runLocated(body: Evaluator, input: Value, ev: Evaluation, pointer: string): MaybePromise<Value> {
  let out: MaybePromise<Value>;
  try {
    out = body(input, ev);
  } catch (error) {
    throw locate(error, pointer, ev.limits);
  }
  return isPromise<Value>(out) ? out.then(undefined, (e) => Promise.reject(locate(e, pointer, ev.limits))) : out;
}

/** The clock is read every 1,024 steps (a mask: steps & 1023 === 0). */
export const STEPS_PER_TIME_CHECK = 1023;

export function checkTime(ev: Evaluation, pointer: string): void {
  try {
    ev.budget.checkTime();
  } catch (error) {
    throw locate(error, pointer, ev.limits);
  }
}

export function stepLimit(ev: Evaluation, pointer: string): TransformsError {
  return codedError('EVAL_STEP_LIMIT', `evaluation exceeded ${ev.limits.maxSteps} steps`, { path: pointer });
}

class Context implements CompileContext {
  constructor(
    private readonly host: CompileHost,
    readonly pointer: string,
    readonly attributes: Readonly<Record<string, unknown>>,
    readonly depth: number,
  ) {}

  get limits(): Limits {
    return this.host.limits;
  }

  get tracing(): boolean {
    return this.host.trace === true;
  }

  at(...tokens: (string | number)[]): string {
    return pointerJoin(this.pointer, 'attributes', ...tokens);
  }

  has(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.attributes, name) && this.attributes[name] !== null && this.attributes[name] !== undefined;
  }

  value(name: string): Evaluator | undefined {
    if (!Object.prototype.hasOwnProperty.call(this.attributes, name) || this.attributes[name] === undefined) return undefined;
    return this.valueAt(this.attributes[name], name);
  }

  valueAt(value: unknown, ...tokens: (string | number)[]): Evaluator {
    const pointer = this.at(...tokens);
    if (typeof value === 'string') {
      if (!needsTemplate(value)) return constant(value);
      const template = this.template(value, pointer);
      if (template.isConstant) return constant(value);
      return this.renderer(template, []);
    }
    if (value === null || typeof value === 'number' || typeof value === 'boolean') return constant(value);
    if (Array.isArray(value)) {
      const items = value.map((item, i) => this.valueAt(item, ...tokens, i));
      return (input, ev) => all(items.map((item) => item(input, ev)));
    }
    if (isTransformNode(value)) return compileNode(this.host, value, pointer, this.depth + 1);
    if (isObject(value)) {
      // A plain object literal (a lookup table, say): values are compiled like attributes.
      const entries = Object.entries(value).map(([k, v]) => [k, this.valueAt(v, ...tokens, k)] as const);
      return (input, ev) =>
        andThen(all(entries.map(([, e]) => e(input, ev))), (vals) => Object.fromEntries(entries.map(([k], i) => [k, vals[i]!])));
    }
    throw this.error('SCHEMA_TYPE', 'unsupported attribute value', { attribute: tokens });
  }

  list(name: string): Evaluator[] {
    const raw = this.attributes[name];
    if (raw === undefined || raw === null) return [];
    if (!Array.isArray(raw)) throw this.error('SCHEMA_TYPE', `"${name}" must be an array`, { attribute: name });
    return raw.map((item, i) => this.valueAt(item, name, i));
  }

  string(name: string, options: { required?: boolean; default?: string } = {}): StringAttribute | undefined {
    const raw = this.attributes[name];
    if (raw === undefined || raw === null) {
      if (options.default !== undefined) return { kind: 'constant', value: options.default };
      if (options.required) throw this.error('SCHEMA_REQUIRED', `attribute "${name}" is required`, { attribute: name });
      return undefined;
    }
    if (typeof raw === 'string' && !needsTemplate(raw)) return { kind: 'constant', value: raw };
    if (typeof raw === 'number' || typeof raw === 'boolean') return { kind: 'constant', value: String(raw) };
    if (typeof raw === 'string') {
      const template = this.template(raw, this.at(name));
      if (template.isConstant) return { kind: 'constant', value: raw };
    }
    const inner = this.valueAt(raw, name);
    return { kind: 'dynamic', evaluate: (input, ev) => andThen(inner(input, ev), (v) => (v === null ? null : toJavaString(v))) };
  }

  integer(name: string, options: { required?: boolean; default?: number; min?: number; max?: number } = {}): Evaluator | undefined {
    const raw = this.attributes[name];
    if (raw === undefined || raw === null) {
      if (options.default !== undefined) return constant(options.default);
      if (options.required) throw this.error('SCHEMA_REQUIRED', `attribute "${name}" is required`, { attribute: name });
      return undefined;
    }
    const pointer = this.at(name);
    const check = (n: number): number => {
      if ((options.min !== undefined && n < options.min) || (options.max !== undefined && n > options.max)) {
        throw codedError('COMPILE_INVALID_ATTRIBUTE', `"${name}" must be between ${options.min ?? '-∞'} and ${options.max ?? '∞'}, got ${n}`, { path: pointer });
      }
      return n;
    };
    if (typeof raw === 'number' || (typeof raw === 'string' && !needsTemplate(raw))) {
      const n = coerceInteger(raw);
      if (n === undefined) throw this.error('SCHEMA_TYPE', `"${name}" must be an integer, got ${JSON.stringify(raw)}`, { attribute: name });
      return constant(check(n));
    }
    const inner = this.valueAt(raw, name);
    return (input, ev) =>
      andThen(inner(input, ev), (v) => {
        const n = coerceInteger(v);
        if (n === undefined) throw codedError('EVAL_NUMBER_FORMAT', `"${name}" must be an integer, got ${JSON.stringify(v)}`, { path: pointer });
        return check(n);
      });
  }

  constantInteger(name: string, options: { required?: boolean; default?: number; min?: number; max?: number } = {}): number | undefined {
    const raw = this.attributes[name];
    if (raw === undefined || raw === null) {
      if (options.default !== undefined) return options.default;
      if (options.required) throw this.error('SCHEMA_REQUIRED', `attribute "${name}" is required`, { attribute: name });
      return undefined;
    }
    const n = coerceInteger(raw);
    if (n === undefined) throw this.error('SCHEMA_TYPE', `"${name}" must be an integer, got ${JSON.stringify(raw)}`, { attribute: name });
    if ((options.min !== undefined && n < options.min) || (options.max !== undefined && n > options.max)) {
      throw this.error('COMPILE_INVALID_ATTRIBUTE', `"${name}" must be between ${options.min ?? '-∞'} and ${options.max ?? '∞'}, got ${n}`, { attribute: name });
    }
    return n;
  }

  boolean(name: string, defaultValue: boolean): boolean {
    const raw = this.attributes[name];
    if (raw === undefined || raw === null) return defaultValue;
    const b = coerceBoolean(raw);
    if (b === undefined) throw this.error('SCHEMA_TYPE', `"${name}" must be a boolean (true, false, "true" or "false")`, { attribute: name });
    return b;
  }

  dynamicVariables(reserved: readonly string[]): ReadonlyArray<readonly [string, Evaluator]> {
    const skip = new Set<string>([...reserved, ...COMMON_ATTRIBUTES]);
    const out: [string, Evaluator][] = [];
    for (const [key, value] of Object.entries(this.attributes)) {
      if (skip.has(key) || value === undefined) continue;
      out.push([key, this.valueAt(value, key)]);
    }
    return out;
  }

  template(source: string, pointer: string): CompiledTemplate {
    if (source.length > this.host.limits.maxTemplateLength) {
      throw codedError('COMPILE_TEMPLATE_TOO_LARGE', `template is ${source.length} characters, above the limit of ${this.host.limits.maxTemplateLength}`, { path: pointer });
    }
    try {
      return this.host.template(source);
    } catch (error) {
      throw locate(error, pointer);
    }
  }

  renderer(template: CompiledTemplate, variables: ReadonlyArray<readonly [string, Evaluator]>): Evaluator {
    if (template.isConstant) return constant(template.source);
    // Only the variables the template mentions are evaluated: an unused dynamic variable
    // cannot fail the transform. (Its value is rendered to a string first, as templates render it.)
    const used = variables.filter(([name]) => template.references.has(name));
    const names = used.map(([name]) => name);
    const evaluators = used.map(([, evaluate]) => evaluate);
    const usesIdentity = template.usesIdentity;
    // Only the parts of the identity graph the template reads are loaded (engine/identity-graph.ts).
    const reach = identityReach(template);
    const render = (ev: Evaluation, values: readonly Value[]): MaybePromise<string> => {
      const vars = templateVariables(names, values);
      if (!usesIdentity) return template.render(vars, templateGlobals(ev, null), ev);
      return andThen(ev.identityGraph(reach), (identity) => template.render(vars, templateGlobals(ev, identity), ev));
    };
    return (input, ev) => {
      // Synchronous variables (the usual case) need no promise and no intermediate closure.
      const values: MaybePromise<Value>[] = new Array(evaluators.length);
      let pending = false;
      for (let i = 0; i < evaluators.length; i++) {
        const v = evaluators[i]!(input, ev);
        if (isPromise(v)) pending = true;
        values[i] = v;
      }
      if (!pending) return render(ev, values as Value[]);
      // Every variable is started before the first is awaited; the identity graph (loaded once
      // per evaluation) is requested alongside them.
      if (usesIdentity) void ev.identityGraph(reach);
      return (all(values) as Promise<Value[]>).then((vals) => render(ev, vals));
    };
  }

  regex(source: string, pointer: string): JavaPattern {
    try {
      return this.host.regex(source);
    } catch (error) {
      throw locate(error, pointer);
    }
  }

  replacement(source: string, pointer: string): JavaReplacement {
    try {
      return this.host.replacement(source);
    } catch (error) {
      throw locate(error, pointer);
    }
  }

  objectFilter(text: string, pointer: string): FilterNode {
    try {
      return this.host.objectFilter(text);
    } catch (error) {
      throw locate(error, pointer);
    }
  }

  error(code: ErrorCode, message: string, options: { attribute?: string | (string | number)[]; cause?: unknown } = {}): TransformsError {
    const tokens = options.attribute === undefined ? undefined : Array.isArray(options.attribute) ? options.attribute : [options.attribute];
    return codedError(code, message, { path: tokens === undefined ? this.pointer : this.at(...tokens), cause: options.cause });
  }
}

/** Evaluate a possibly-failing step; used by firstValid's ignoreErrors. */
export { attempt };
