// createEngine: one instance owns its registry, providers, caches and limits (no global state).
// Compile does all parsing and building (into generated code, or closures with codegen: false);
// evaluate only runs what was built. The state of one evaluation is evaluation.ts.

import { codedError, isTransformsError, TransformsError } from '../errors/index.js';
import { parseObjectFilter } from '../filter/index.js';
import type { FilterNode } from '../filter/ast.js';
import { compileJavaRegex, compileJavaReplacement, type JavaPattern, type JavaReplacement } from '../runtime/regex/index.js';
import { withFastPath } from '../runtime/regex/fast-path.js';
import { compileTemplate, type CompiledTemplate } from '../runtime/velocity/index.js';
import type { Identity, Providers, TransformDocument } from '../providers/types.js';
import { builtinOperations } from '../operations/index.js';
import { buildTransformSchema } from '../schema/build.js';
import type { ValidationIssue } from '../schema/issues.js';
import { schemaValidatorsFor, type SchemaValidators } from './schema-validators.js';
import { CountingCache, type CacheStats } from './caches.js';
import { canonicalJson, checkNesting, jsonNestingLimit } from './canonical.js';
import { compileNode, locate, type CompileHost, type CompiledNode } from './compile.js';
import { reporting } from './reporting.js';
import { generateEvaluator, type RecordedNodes } from './codegen/generator.js';
import { generateProfile, type GeneratedProfile, type ProfileCodeHost } from './codegen/profile.js';
import { NO_VARIABLES } from './globals.js';
import { isPromise, andThen, type MaybePromise } from '../providers/maybe.js';
import { findIdentity } from '../providers/identity-lookup.js';
import { resolveLimits, resolveOptions, type EngineOptions, type ResolvedOptions } from './options.js';
import { Budget } from '../runtime/budget.js';
import { createRegistry, type Registry } from './registry.js';
import { AttributeEvaluation, EvaluationState, NO_REFERENCES, type EvaluationHost } from './evaluation.js';
import { TRACE_KEY, TraceRecorder } from './trace.js';
import { attributeFailed, attributeVariables, compileProfile, runGeneratedProfile, runProfile, type CompiledMapping, type ProfileLike, type ProfileOptions, type ProfileResult } from './profile.js';
import type { CompiledTransform, Evaluation, Limits, OperationSpec, RuleFunction, Value } from './types.js';
import type { CompileOptions, Engine, EvaluationContext, Explanation } from './engine-interface.js';
import { finish } from './output-limit.js';

export type { CompileOptions, Engine, EvaluationContext, Explanation } from './engine-interface.js';

export function createEngine(options: EngineOptions = {}): Engine {
  const resolved = resolveOptions(options);
  return new EngineImpl(resolved);
}

class EngineImpl implements Engine {
  readonly registry: Registry;
  readonly limits: Readonly<Limits>;
  readonly providers: Readonly<Providers>;
  private readonly options: ResolvedOptions;
  readonly random: () => number;
  private readonly transforms: CountingCache<CompiledTransform>;
  private readonly regexes: CountingCache<JavaPattern>;
  private readonly replacements: CountingCache<JavaReplacement>;
  private readonly templates: CountingCache<CompiledTemplate>;
  private readonly filters: CountingCache<FilterNode>;
  private readonly byDocument = new WeakMap<object, CompiledTransform>();
  private readonly host: CompileHost;
  /** The same caches, compiling closures that record (explain); transforms compiled so are kept apart. */
  private readonly tracingHost: CompileHost;
  private readonly tracedTransforms: CountingCache<CompiledTransform>;
  /** The host of an explained evaluation: this engine, but a reference resolves to its transform compiled traced. */
  private readonly tracingEvaluationHost: EvaluationHost;
  private readonly validators: SchemaValidators;
  private readonly profiles = new WeakMap<object, { mappings: CompiledMapping[]; generated?: GeneratedProfile }>();
  /** The nodes each generated transform was emitted from (profiles are generated from them again). */
  private readonly recorded = new WeakMap<CompiledTransform, RecordedNodes>();
  private readonly profileCodeHost: ProfileCodeHost = {
    nodes: (compiled) => this.recorded.get(compiled),
    reference: (name) => this.inlinable(name),
    evaluation: (identity, previous, limits, budget, shared) => new AttributeEvaluation(this, identity, previous, attributeVariables, limits, budget, shared),
    finish: (out, limits) => finish(out, limits),
    failed: attributeFailed,
  };
  private readonly profileHost = {
    compileDefinition: (d: unknown) => this.compileDefinition(d),
    run: (c: CompiledTransform, i: Identity, variables: Record<string, unknown>, limits: Readonly<Limits>, budget: Budget, shared: Map<string, unknown>) =>
      finish(c.evaluator(null, this.newEvaluation(i, variables, limits, budget, shared)), limits),
    limits: (given: Partial<Limits> | undefined) => resolveLimits(this.limits, given),
    budget: (limits: Readonly<Limits>) => new Budget(limits, this.compiling),
  };
  private schema: Record<string, unknown> | undefined;
  /** Milliseconds spent compiling so far (not counted in an evaluation's maxTime). */
  readonly compiling = { ms: 0 };
  /** While a compile runs: the milliseconds its templates have spent parsing (at most maxTime in all). */
  private templateTime: { ms: number } | undefined = undefined;
  /** How deeply a transform's JSON may nest (from limits.maxDepth). */
  private readonly nesting: number;

  constructor(options: ResolvedOptions) {
    this.options = options;
    this.random = options.random;
    this.limits = options.limits;
    this.providers = options.providers;
    this.registry = createRegistry([...builtinOperations, ...options.operations]);
    this.transforms = new CountingCache(options.cacheSizes.transforms);
    this.regexes = new CountingCache(options.cacheSizes.regexes);
    this.replacements = new CountingCache(options.cacheSizes.regexes);
    this.templates = new CountingCache(options.cacheSizes.templates);
    this.filters = new CountingCache(options.cacheSizes.filters);
    const limits = this.limits;
    this.nesting = jsonNestingLimit(limits.maxDepth);
    this.host = {
      limits,
      operation: (type) => this.registry.get(type),
      template: (source) =>
        this.templates.getOrBuild(source, () => this.buildTemplate(source)),
      regex: (source) => this.regexes.getOrBuild(source, () => withFastPath(compileJavaRegex(source))),
      replacement: (source) => this.replacements.getOrBuild(source, () => compileJavaReplacement(source)),
      objectFilter: (text) => this.filters.getOrBuild(text, () => parseObjectFilter(text, { maxLength: limits.maxFilterLength })),
    };
    this.tracingHost = { ...this.host, trace: true };
    this.tracedTransforms = new CountingCache(options.cacheSizes.transforms);
    this.tracingEvaluationHost = {
      providers: this.providers,
      random: this.random,
      compiling: this.compiling,
      now: () => this.now(),
      rule: (name) => this.rule(name),
      resolveTransform: (name, pointer) => this.resolveWith(name, pointer, (doc) => this.compileTraced(doc)),
    };
    this.validators = schemaValidatorsFor(this.registry, options.operations.length > 0);
  }

  /** Compile for explain: schema-checked as compile() does, closures that record. */
  compileTraced(transform: unknown): CompiledTransform {
    return this.tracedTransforms.getOrBuild(canonicalJson(transform), () => {
      const issues = this.validateSchema(transform).filter((i) => i.severity === 'error');
      if (issues.length > 0) throw codedError(issues[0]!.code, issues[0]!.message, { path: issues[0]!.path, details: { issues } });
      const doc = transform as TransformDocument;
      return Object.freeze({ name: doc.name, type: doc.type, source: transform, evaluator: reporting(compileNode(this.tracingHost, doc, '', 0)) });
    });
  }

  explain(transform: unknown, context: EvaluationContext = {}): Explanation {
    const compiled = this.compileTraced(isCompiled(transform) ? transform.source : transform);
    let identity = context.identity ?? null;
    if (typeof identity === 'string') {
      const found = this.identityByIdOrName(identity);
      if (isPromise(found)) {
        found.catch(() => undefined);
        throw codedError('ENGINE_ASYNC_PROVIDER', 'explain: the identity provider answered asynchronously; explain needs synchronous providers (fixtures)');
      }
      identity = found;
    }
    const limits = context.limits === undefined ? this.limits : resolveLimits(this.limits, context.limits);
    const ev = new EvaluationState(this.tracingEvaluationHost, identity, context.variables ?? NO_VARIABLES, NO_REFERENCES, undefined, limits, undefined);
    const recorder = new TraceRecorder();
    ev.memo.set(TRACE_KEY, recorder);
    const input = context.input === undefined ? null : context.input;
    let out: MaybePromise<Value>;
    try {
      out = finish(compiled.evaluator(input, ev), limits);
    } catch (error) {
      if (!isTransformsError(error)) throw error;
      return { error: { code: error.code, message: error.message, ...(error.path !== undefined ? { path: error.path } : {}) }, trace: recorder.roots[0]! };
    }
    if (isPromise(out) || recorder.asynchronous) {
      if (isPromise(out)) out.catch(() => undefined);
      throw codedError('ENGINE_ASYNC_PROVIDER', 'explain: a provider answered asynchronously; explain needs synchronous providers (fixtures)');
    }
    return { value: out, trace: recorder.roots[0]! };
  }

  transformSchema(): Record<string, unknown> {
    this.schema ??= buildTransformSchema(this.registry);
    return this.schema;
  }

  validateDefinitionSchema(definition: unknown): ValidationIssue[] {
    return this.validators.definition(definition);
  }

  validateSchema(transform: unknown): ValidationIssue[] {
    return this.validators.transform(transform);
  }

  compileDefinition(definition: unknown): CompiledTransform {
    if (definition !== null && typeof definition === 'object') {
      const known = this.byDocument.get(definition);
      if (known) {
        this.transforms.hits++; // a hit of the compile cache, found by document identity
        return known;
      }
    }
    const compiled = this.transforms.getOrBuild('definition:' + canonicalJson(definition, this.nesting), () =>
      this.timed(() => this.buildChecked(definition, this.validateDefinitionSchema(definition))),
    );
    if (definition !== null && typeof definition === 'object') this.byDocument.set(definition, compiled);
    return compiled;
  }

  evaluateProfileMaybe(profile: ProfileLike, identity: Identity, options?: ProfileOptions): MaybePromise<ProfileResult> {
    const host = this.profileHost;
    let compiled = this.profiles.get(profile);
    if (!compiled) {
      const mappings = this.timed(() => compileProfile(host, profile));
      const generated = this.options.codegen ? this.timed(() => generateProfile(mappings, this.profileCodeHost)) : undefined;
      compiled = generated === undefined ? { mappings } : { mappings, generated };
      this.profiles.set(profile, compiled);
    }
    if (compiled.generated !== undefined) return runGeneratedProfile(host, compiled.generated, compiled.mappings, identity, options);
    return runProfile(host, compiled.mappings, identity, options);
  }

  /**
   * A referenced transform to inline into a generated profile: the document the transform
   * provider gives now, at once, compiled without error; otherwise the reference's closure
   * resolves it at every evaluation (and reports what fails).
   */
  private inlinable(name: string): { document: unknown; nodes: RecordedNodes } | undefined {
    const provider = this.providers.transforms;
    if (!provider) return undefined;
    try {
      const document = provider.getTransform(name);
      if (isPromise(document)) {
        document.catch(() => undefined);
        return undefined;
      }
      if (!document) return undefined;
      const nodes = this.recorded.get(this.compile(document));
      return nodes === undefined ? undefined : { document, nodes };
    } catch {
      return undefined;
    }
  }

  async evaluateProfile(profile: ProfileLike, identity: Identity, options?: ProfileOptions): Promise<ProfileResult> {
    return this.evaluateProfileMaybe(profile, identity, options);
  }

  evaluateProfileSync(profile: ProfileLike, identity: Identity, options?: ProfileOptions): ProfileResult {
    const out = this.evaluateProfileMaybe(profile, identity, options);
    if (isPromise(out)) {
      out.catch(() => undefined);
      throw codedError('ENGINE_ASYNC_PROVIDER', 'evaluateProfileSync: a provider answered asynchronously; use evaluateProfile()');
    }
    return out;
  }

  compile(transform: unknown, options: CompileOptions = {}): CompiledTransform {
    if (options.cache === false) {
      checkNesting(transform, this.nesting);
      return options.schemaChecked ? this.buildChecked(transform, []) : this.build(transform);
    }
    if (transform !== null && typeof transform === 'object') {
      const known = this.byDocument.get(transform);
      if (known) {
        this.transforms.hits++; // a hit of the compile cache, found by document identity
        return known;
      }
    }
    const key = canonicalJson(transform, this.nesting);
    const compiled = this.transforms.getOrBuild(key, () => this.timed(() => (options.schemaChecked ? this.buildChecked(transform, []) : this.build(transform))));
    if (transform !== null && typeof transform === 'object') this.byDocument.set(transform, compiled);
    return compiled;
  }

  /**
   * Run a compile (schema validation included), adding its time to `compiling`. The outermost
   * compile (one transform, or all the mappings of a profile) is what its templates' time is
   * counted against (buildTemplate).
   */
  private timed<T>(compile: () => T): T {
    if (this.templateTime !== undefined) return compile();
    const started = performance.now();
    this.templateTime = { ms: 0 };
    try {
      return compile();
    } finally {
      this.templateTime = undefined;
      this.compiling.ms += performance.now() - started;
    }
  }

  /**
   * Compile a template within its token limit and the parsing time its compile has left
   * (maxTime for all its templates; a template compiled outside a compile has maxTime of its own).
   */
  private buildTemplate(source: string): CompiledTemplate {
    const { maxTemplateLength, maxTemplateTokens, maxTime } = this.limits;
    return compileTemplate(source, {
      maxLength: maxTemplateLength,
      maxTokens: maxTemplateTokens,
      parseTime: { maxTime, spent: this.templateTime ?? { ms: 0 } },
      regex: (s: string) => this.host.regex(s),
    });
  }

  private build(transform: unknown): CompiledTransform {
    return this.buildChecked(transform, this.validateSchema(transform));
  }

  private buildChecked(transform: unknown, schemaIssues: ValidationIssue[]): CompiledTransform {
    const issues = schemaIssues.filter((i) => i.severity === 'error');
    if (issues.length > 0) {
      const first = issues[0]!;
      throw codedError(first.code, first.message, { path: first.path, details: { issues } });
    }
    const doc = transform as TransformDocument;
    if (!this.options.codegen) return Object.freeze({ name: doc.name, type: doc.type, source: transform, evaluator: reporting(compileNode(this.host, doc, '', 0)) });
    // The closures first (they are the semantic check and the fallback), then one generated function.
    const nodes = new Map<string, CompiledNode>();
    const raw = compileNode({ ...this.host, record: (pointer, node) => nodes.set(pointer, node) }, doc, '', 0);
    const closure = reporting(raw);
    const evaluator = generateEvaluator(nodes, raw) ?? closure;
    const compiled = Object.freeze({ name: doc.name, type: doc.type, source: transform, evaluator });
    if (evaluator !== closure) this.recorded.set(compiled, nodes);
    return compiled;
  }

  rule(name: string): RuleFunction | undefined {
    return Object.prototype.hasOwnProperty.call(this.options.rules, name) ? this.options.rules[name] : undefined;
  }

  cacheStats(): Record<string, CacheStats> {
    return {
      transforms: this.transforms.stats(),
      regexes: this.regexes.stats(),
      templates: this.templates.stats(),
      filters: this.filters.stats(),
    };
  }

  evaluateMaybe(transform: unknown, context?: EvaluationContext): MaybePromise<Value> {
    // The hot path of a refresh or a benchmark loop: no closure and no promise unless a provider
    // answers with one (an identity given by id, through an asynchronous identity provider).
    const compiled = isCompiled(transform) ? transform : this.compile(transform);
    if (context === undefined) return finish(compiled.evaluator(null, this.newEvaluation(null, NO_VARIABLES, this.limits, undefined)), this.limits);
    const identity = context.identity;
    if (typeof identity === 'string') return andThen(this.identityByIdOrName(identity), (found) => this.start(compiled, found, context));
    return this.start(compiled, identity ?? null, context);
  }

  private start(compiled: CompiledTransform, identity: Identity | null, context: EvaluationContext): MaybePromise<Value> {
    const input = context.input;
    const limits = context.limits === undefined ? this.limits : resolveLimits(this.limits, context.limits);
    const ev = this.newEvaluation(identity, context.variables ?? NO_VARIABLES, limits, undefined);
    return finish(compiled.evaluator(input === undefined ? null : input, ev), limits);
  }

  /** An identity given by its id or, when no identity has that id, by its name (as the CLI's --identity). */
  private identityByIdOrName(idOrName: string): MaybePromise<Identity> {
    const provider = this.providers.identities;
    if (!provider) throw codedError('EVAL_PROVIDER_MISSING', 'an identity id or name was given but the engine has no identity provider');
    return andThen(findIdentity(provider, idOrName), (found) => {
      if (!found) throw codedError('EVAL_NO_IDENTITY', `no identity with id or name ${JSON.stringify(idOrName)}`);
      return found;
    });
  }

  async evaluate(transform: unknown, context?: EvaluationContext): Promise<Value> {
    return this.evaluateMaybe(transform, context);
  }

  evaluateSync(transform: unknown, context?: EvaluationContext): Value {
    const out = this.evaluateMaybe(transform, context);
    if (isPromise(out)) {
      out.catch(() => undefined);
      throw codedError('ENGINE_ASYNC_PROVIDER', 'evaluateSync: a provider answered asynchronously; use evaluate()');
    }
    return out;
  }

  /** A fresh per-evaluation state; `budget` is given when evaluations share one (a profile's attributes). */
  newEvaluation(identity: Identity | null, variables: Readonly<Record<string, unknown>>, limits: Readonly<Limits>, budget: Budget | undefined, shared?: Map<string, unknown>): Evaluation {
    const ev = new EvaluationState(this, identity, variables, NO_REFERENCES, undefined, limits, budget);
    if (shared !== undefined) ev.shared = shared;
    return ev;
  }

  /** The evaluation instant: the engine clock, read once per evaluation and only when used. */
  now(): Date {
    return this.options.clock();
  }

  resolveTransform(name: string, pointer: string): MaybePromise<CompiledTransform> {
    return this.resolveWith(name, pointer, (doc) => this.compile(doc));
  }

  /** The transform a reference names, compiled by `compile` (ordinary, or traced for explain). */
  private resolveWith(name: string, pointer: string, compile: (doc: TransformDocument) => CompiledTransform): MaybePromise<CompiledTransform> {
    const provider = this.providers.transforms;
    if (!provider) {
      throw codedError('EVAL_PROVIDER_MISSING', `reference to "${name}" needs a transform provider`, { path: pointer });
    }
    const found = provider.getTransform(name);
    return andThen(found, (doc) => {
      if (!doc) throw codedError('EVAL_UNKNOWN_REFERENCE', `no transform named ${JSON.stringify(name)}`, { path: pointer });
      try {
        return compile(doc);
      } catch (error) {
        if (isTransformsError(error)) {
          throw new TransformsError(error.code, `in referenced transform "${name}": ${error.message}`, {
            path: pointer,
            cause: error,
            details: { ...(error.details ?? {}), transform: name, transformPath: error.path },
          });
        }
        throw locate(error, pointer);
      }
    });
  }
}

function isCompiled(value: unknown): value is CompiledTransform {
  return value !== null && typeof value === 'object' && typeof (value as CompiledTransform).evaluator === 'function';
}

export type { EngineOptions, OperationSpec };
