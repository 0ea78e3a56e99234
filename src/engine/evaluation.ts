// The state of one evaluation and of each reference scope inside it (engine.ts creates the root
// scope): limits, the step counter, the memo shared by a profile's attributes, the identity graph,
// the evaluation instant and the resource budget.

import { codedError } from '../errors/index.js';
import type { Identity, IdentityGraph, Providers } from '../providers/types.js';
import { Budget, limitError } from '../runtime/budget.js';
import { PartialIdentityGraph } from './identity-graph.js';
import { WHOLE_GRAPH, type IdentityReach } from './identity-reach.js';
import { isPromise, type MaybePromise } from '../providers/maybe.js';
import type { CompiledTransform, Evaluation, Limits, RuleFunction } from './types.js';

/** What an evaluation needs of its engine. */
export interface EvaluationHost {
  readonly providers: Providers;
  readonly random: () => number;
  /** Milliseconds spent compiling so far (not counted in an evaluation's maxTime). */
  readonly compiling: { ms: number };
  now(): Date;
  /** Resolve and compile a referenced transform (an explained evaluation's host compiles it traced). */
  resolveTransform(name: string, pointer: string): MaybePromise<CompiledTransform>;
  rule(name: string): RuleFunction | undefined;
}

export const NO_REFERENCES: readonly string[] = Object.freeze([]);

/**
 * Per-evaluation state. A class, so that the many small evaluations of a refresh allocate one
 * object each rather than a set of closures. What every scope of one evaluation shares (the
 * step counter, the memo, the identity graph, the instant) lives on the root scope, and is
 * created on first use: a reference creates a scope with a longer stack and the same root.
 */
export class EvaluationState implements Evaluation {
  readonly providers: Providers;
  readonly random: () => number;
  readonly limits: Readonly<Limits>;
  /** Steps taken by the whole evaluation (read through `counter`, which is the root scope). */
  steps = 0;
  readonly counter: { steps: number };
  private readonly root: EvaluationState;
  private memoMap: Map<string, unknown> | undefined = undefined;
  /** The memo of every attribute of one profile evaluation (set on the root scope only). */
  shared: Map<string, unknown> | undefined = undefined;
  private graph: PartialIdentityGraph | undefined = undefined;
  private instant: Date | undefined = undefined;
  private budgetState: Budget | undefined;
  /** The context variables (a subclass may build them on first use). */
  protected vars: Readonly<Record<string, unknown>> | undefined;

  constructor(
    private readonly engine: EvaluationHost,
    readonly identity: Identity | null,
    variables: Readonly<Record<string, unknown>> | undefined,
    readonly referenceStack: readonly string[],
    root: EvaluationState | undefined,
    limits: Readonly<Limits>,
    budget: Budget | undefined,
  ) {
    this.providers = engine.providers;
    this.random = engine.random;
    this.limits = limits;
    this.root = root ?? this;
    this.counter = this.root;
    this.budgetState = budget;
    this.vars = variables;
  }

  get variables(): Readonly<Record<string, unknown>> {
    return this.vars!;
  }

  /**
   * Forget what one evaluation of a root scope computed for itself (its steps, memo, a graph with
   * a pending part, instant and variables); the budget, the shared memo and a graph whose parts
   * are all known (they are in the shared memo: a new graph would hold the same) stay.
   */
  protected restart(): void {
    this.steps = 0;
    this.memoMap = undefined;
    if (this.graph !== undefined && !(this.shared !== undefined && this.graph.settled)) this.graph = undefined;
    this.instant = undefined;
    this.vars = undefined;
  }

  /** The resource budget, created when first needed (a template render, a usernameGenerator, the 1,024th step). */
  get budget(): Budget {
    const root = this.root;
    return (root.budgetState ??= new Budget(this.limits, this.engine.compiling));
  }

  get now(): Date {
    const root = this.root;
    return (root.instant ??= this.engine.now());
  }

  get memo(): Map<string, unknown> {
    const root = this.root;
    return (root.memoMap ??= new Map());
  }

  cached<T>(key: string, load: (ev: Evaluation) => MaybePromise<T>): MaybePromise<T> {
    // Memoised values are never undefined (a Value, a list of accounts, a source or a promise).
    const shared = this.root.shared;
    if (shared !== undefined) {
      const known = shared.get(key);
      if (known !== undefined) return known as T;
    }
    // This scope's own memo holds pending values only when a shared one exists: not created until needed.
    const mine = shared === undefined ? this.memo.get(key) : this.root.memoMap?.get(key);
    if (mine !== undefined) return mine as MaybePromise<T>;
    const value = load(this);
    if (shared !== undefined && !isPromise(value)) shared.set(key, value);
    else this.memo.set(key, value);
    return value;
  }

  enterReference(name: string): Evaluation {
    if (this.referenceStack.includes(name)) {
      throw codedError('EVAL_REFERENCE_CYCLE', `reference cycle: ${[...this.referenceStack, name].join(' → ')}`);
    }
    if (this.referenceStack.length >= this.limits.maxDepth) {
      throw limitError('maxDepth', this.limits.maxDepth, `references are nested deeper than ${this.limits.maxDepth}`);
    }
    return new EvaluationState(this.engine, this.identity, this.variables, [...this.referenceStack, name], this.root, this.limits, undefined);
  }

  identityGraph(reach: IdentityReach = WHOLE_GRAPH): MaybePromise<IdentityGraph | null> {
    if (this.identity === null) return null;
    // Its parts are loaded once per identity when a profile's attributes share a memo (parts known at once only).
    const root = this.root;
    return (root.graph ??= new PartialIdentityGraph(this.identity, this.providers, root.shared)).load(reach);
  }

  resolveTransform(name: string, pointer: string): MaybePromise<CompiledTransform> {
    // Inside an explained evaluation the host is explain's: a referenced transform is explained too.
    return this.engine.resolveTransform(name, pointer);
  }

  rule(name: string): RuleFunction | undefined {
    return this.engine.rule(name);
  }
}


/**
 * The evaluation of the attributes of an identity profile, one after the other: one object per
 * identity, begun again for each attribute with that attribute's own state (its steps, memo,
 * instant and variables). Its template variables ($attributeDefinition, and $oldValue when the
 * identity has one) are built when something first reads them: most attributes never render a
 * template through Velocity, and building them, like an evaluation object per attribute, was a
 * visible share of a refresh's evaluation.
 */
export class AttributeEvaluation extends EvaluationState {
  private attribute = '';

  constructor(
    engine: EvaluationHost,
    identity: Identity,
    private readonly previous: Readonly<Record<string, unknown>>,
    private readonly build: (name: string, previous: Readonly<Record<string, unknown>>) => Record<string, unknown>,
    limits: Readonly<Limits>,
    budget: Budget,
    shared: Map<string, unknown>,
  ) {
    super(engine, identity, undefined, NO_REFERENCES, undefined, limits, budget);
    this.shared = shared;
  }

  /** Start the evaluation of the attribute evaluated as `name`, as a fresh evaluation would. */
  begin(name: string): this {
    this.attribute = name;
    this.restart();
    return this;
  }

  override get variables(): Readonly<Record<string, unknown>> {
    return (this.vars ??= this.build(this.attribute, this.previous));
  }
}
