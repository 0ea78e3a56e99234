// The contracts between the engine, the operations and the runtime layers.
// An operation is a spec `{ type, attributesSchema, compile }` (the ajv keyword shape):
// `compile` runs once per transform and returns a closure that only evaluates.

import type { JSONSchema7 } from '../schema/json-schema.js';
import type { MaybePromise } from '../providers/maybe.js';
import type { Identity, IdentityGraph, Providers } from '../providers/types.js';
import type { IdentityReach } from './identity-reach.js';
import type { ErrorCode, TransformsError } from '../errors/index.js';
import type { FilterNode } from '../filter/ast.js';
import type { JavaPattern, JavaReplacement } from '../runtime/regex/index.js';
import type { CompiledTemplate } from '../runtime/velocity/index.js';
import type { Budget, BudgetLimits } from '../runtime/budget.js';

/** What a transform evaluates to: a string in most cases, a list for multi-valued attributes. */
export type Value = string | number | boolean | null | readonly Value[] | { readonly [key: string]: Value };

/** A compiled transform or attribute: given the effective input, produce a value. */
export type Evaluator = (input: Value, ev: Evaluation) => MaybePromise<Value>;

export interface Limits extends BudgetLimits {
  /** Maximum nesting depth of transforms (validation and compile). */
  maxDepth: number;
  /** Maximum length of one Velocity template, in characters. */
  maxTemplateLength: number;
  /** Maximum lexer tokens of one Velocity template (its interpolated string literals included). */
  maxTemplateTokens: number;
  /** Maximum evaluation steps (transform nodes entered) of one evaluation. */
  maxSteps: number;
  /** Maximum length of a filter string. */
  maxFilterLength: number;
  /** Maximum size of an evaluation's value: characters of its strings (list elements and map keys included). */
  maxOutputLength: number;
}

/** A user-registered rule (the `rule` operation): receives its evaluated attributes. */
export type RuleFunction = (args: {
  input: Value;
  attributes: Record<string, Value>;
  identity: Identity | null;
  now: Date;
  random: () => number;
}) => MaybePromise<Value>;

/** Per-evaluation state. Created by engine.evaluate; never shared between evaluations. */
export interface Evaluation {
  readonly identity: Identity | null;
  readonly providers: Providers;
  /** The evaluation instant (the engine clock, read once per evaluation, when first asked for). */
  readonly now: Date;
  /** Uniform random number in [0, 1). */
  readonly random: () => number;
  /** Extra template variables of the context (oldValue, attributeDefinition, …). */
  readonly variables: Readonly<Record<string, unknown>>;
  /** Names of referenced transforms being evaluated, outermost first (cycle detection). */
  readonly referenceStack: readonly string[];
  /** The same evaluation with `name` pushed on the reference stack. */
  enterReference(name: string): Evaluation;
  /** Steps taken so far (limits.maxSteps), shared by every scope of one evaluation. */
  readonly counter: { steps: number };
  readonly limits: Limits;
  /** The resource budget (created on first use; shared by every scope of one evaluation). */
  readonly budget: Budget;
  /** Per-evaluation memo (accounts by source, the identity graph, …). */
  readonly memo: Map<string, unknown>;
  /**
   * The value memoised under `key`, or `load()`'s, remembered. A value known at once is shared by
   * every attribute of one profile evaluation (one identity: its account lists are listed, filtered
   * and sorted once); a pending one stays with this evaluation, so that a rejection is located in
   * the attribute that met it.
   */
  cached<T>(key: string, load: (ev: Evaluation) => MaybePromise<T>): MaybePromise<T>;
  /**
   * The identity with the parts of its graph that `reach` reads (default: all its accounts, their
   * sources and its manager), each part loaded once; null without an identity.
   */
  identityGraph(reach?: IdentityReach): MaybePromise<IdentityGraph | null>;
  /** Resolve and compile a named transform (reference, rule chains). */
  resolveTransform(name: string, pointer: string): MaybePromise<CompiledTransform>;
  /** A registered rule function, or undefined. */
  rule(name: string): RuleFunction | undefined;
}

/** Where a string attribute comes from: fixed at compile time, or computed per evaluation. */
export type StringAttribute =
  | { readonly kind: 'constant'; readonly value: string }
  | { readonly kind: 'dynamic'; readonly evaluate: Evaluator };

export interface CompileContext {
  /** JSON Pointer of the transform being compiled. */
  readonly pointer: string;
  /** Its raw attributes object ({} when absent or null). */
  readonly attributes: Readonly<Record<string, unknown>>;
  /** Nesting depth of this transform (root = 0). */
  readonly depth: number;
  readonly limits: Limits;
  /**
   * The transform is being compiled to explain an evaluation (engine.explain): an operation may
   * compile closures that record their decisions with decide() (engine/trace.ts).
   */
  readonly tracing: boolean;

  /** Pointer of an attribute (or an element inside it). */
  at(...tokens: (string | number)[]): string;
  /** Whether the attribute is present and not null. */
  has(name: string): boolean;

  /**
   * Compile an attribute value that may be a literal, a template string (contains $ or #),
   * a nested transform, or an array of those. Returns undefined when absent.
   */
  value(name: string): Evaluator | undefined;
  /** Compile any JSON value found at `tokens` below the attributes (same rules as value()). */
  valueAt(value: unknown, ...tokens: (string | number)[]): Evaluator;
  /** Compile every element of an array attribute. */
  list(name: string): Evaluator[];
  /** A string attribute (template rendered per evaluation when it contains $ or #). */
  string(name: string, options?: { required?: boolean; default?: string }): StringAttribute | undefined;
  /** An integer attribute ("8", 8, 8.0, -1.0 accepted); may be a nested transform. */
  integer(name: string, options?: { required?: boolean; default?: number; min?: number; max?: number }): Evaluator | undefined;
  /** A constant integer attribute (no nested transform allowed). */
  constantInteger(name: string, options?: { required?: boolean; default?: number; min?: number; max?: number }): number | undefined;
  /** A constant boolean attribute (true/"true"/false/"false"). */
  boolean(name: string, defaultValue: boolean): boolean;
  /** Every attribute not in `reserved`, compiled: the dynamic variables of static & co. */
  dynamicVariables(reserved: readonly string[]): ReadonlyArray<readonly [string, Evaluator]>;

  /** Compile a Velocity template (cached on the engine). */
  template(source: string, pointer: string): CompiledTemplate;
  /**
   * Render a template with dynamic variables: evaluates the variables (null and "" are not
   * put in the context, as on the platform), loads the identity graph when the template
   * uses $identity, and renders.
   */
  renderer(template: CompiledTemplate, variables: ReadonlyArray<readonly [string, Evaluator]>): Evaluator;
  /** Compile a Java regex (cached on the engine). */
  regex(source: string, pointer: string): JavaPattern;
  /** Compile a Java replacement string. */
  replacement(source: string, pointer: string): JavaReplacement;
  /** Parse an object-filter string (cached on the engine). */
  objectFilter(text: string, pointer: string): FilterNode;

  /** A coded error located at this transform (or one of its attributes). */
  error(code: ErrorCode, message: string, options?: { attribute?: string | (string | number)[]; cause?: unknown }): TransformsError;
}

export interface OperationSpec {
  /** The transform type it implements. */
  readonly type: string;
  /** Reference section / doc page it follows (one line, for the header and docs). */
  readonly doc: string;
  /** JSON Schema of the `attributes` object (draft-07). Nested transforms: {$ref:'#/definitions/transformOrValue'} etc. */
  readonly attributesSchema: JSONSchema7;
  /** Whether `attributes` must be present. */
  readonly attributesRequired: boolean;
  /**
   * Build the evaluator. Absent: the type validates but cannot be evaluated by this engine
   * (evaluation fails with EVAL_NOT_EVALUABLE).
   */
  readonly compile?: (ctx: CompileContext) => Evaluator;
  /**
   * Optional: the operation as JavaScript source, for the function the engine generates per
   * transform (engine/codegen/generator.ts). Returns the statements of the node's body (ending in a
   * `return`), or undefined to be called as its closure. Never needed for correctness: without
   * it the node runs its closure inside the generated code.
   */
  readonly generate?: (code: CodeContext) => string | undefined;
}

/** What an operation's code template sees (engine/codegen/generator.ts). */
export interface CodeContext {
  /** The closure context the operation compiled with: the same attributes, pointers and caches. */
  readonly compile: CompileContext;
  /** The operation's own closure (for the parts a template leaves to it). */
  readonly closure: Evaluator;
  /** Identifiers of the effective input and of the evaluation in the generated code. */
  readonly input: string;
  readonly ev: string;
  /** An expression giving an attribute's value synchronously (literals folded); undefined when absent. */
  value(name: string): string | undefined;
  /** The same for any JSON value found at `tokens` below the attributes. */
  valueAt(value: unknown, ...tokens: (string | number)[]): string;
  /** Expressions for every element of an array attribute. */
  list(name: string): string[];
  /** The names of the dynamic variables (every attribute not in `reserved` nor common), in order. */
  dynamicVariableNames(reserved: readonly string[]): string[];
  /** An identifier bound to a compile-time value (a function, a table, a compiled pattern). */
  bind(value: unknown): string;
  /**
   * An expression rendering `template` with the general renderer over the dynamic variables
   * `names`, whose values are the expressions `values` (the parts of the identity graph it reads
   * loaded first).
   */
  render(template: CompiledTemplate, names: readonly string[], values: readonly string[]): string;
  /** A JavaScript literal of a string, number, boolean or null. */
  literal(value: string | number | boolean | null): string;
  /** A fresh local variable name. */
  local(): string;
  /** An expression that gives `value`, throwing (to fall back to closures) when it is a promise. */
  sync(expression: string): string;
  /** The identifier of the runtime helpers (engine/codegen/runtime.ts). */
  readonly rt: string;
  /**
   * An expression giving `expression`'s value computed once per evaluation (per identity in a
   * profile evaluation) for every node that asks with the same `key`: the generated form of
   * Evaluation.cached for values known at once (never undefined).
   */
  once(key: string, expression: string): string;
  /** The slot behind once(key): an assignable expression, undefined until a value is stored (statements that fill it themselves). */
  slot(key: string): string;
  /** The transform a constant reference names, inlined (profile evaluation only); undefined: call the closure. */
  reference(name: string): InlinedReference | undefined;
}

/** A referenced transform inlined into a generated profile function (engine/codegen/generator.ts). */
export interface InlinedReference {
  /** The documents the inlined code was generated from, by name: the provider must still give these very objects. */
  readonly documents: ReadonlyArray<readonly [string, unknown]>;
  /** How many references are entered to reach it (the reference stack's length inside it). */
  readonly depth: number;
  /** Nothing inside reads the reference stack: the evaluation need not enter the reference. */
  readonly pure: boolean;
  /** A call of the target's root node with the given input and evaluation expressions. */
  call(input: string, ev: string): string;
}

/** A compiled transform, ready to evaluate many times. */
export interface CompiledTransform {
  readonly name: string | undefined;
  readonly type: string;
  readonly source: unknown;
  /** Evaluate with an explicit implicit input (used by reference and profiles). */
  readonly evaluator: Evaluator;
}

export type { IdentityGraph };
