// Velocity (VTL) templates (https://developer.sailpoint.com/docs/extensibility/transforms/ "Template engine"; https://developer.sailpoint.com/docs/extensibility/transforms/operations/static): every string value
// containing `$` or `#` is a template. velocityjs's grammar parses it once here (./parse.ts);
// our own closures render
// it with Java semantics, strict references ("Error rendering template") and a sandbox in which
// only whitelisted Java methods exist (docs/decisions.md explains why velocityjs's own
// renderer is not used).

import { codedError, TransformsError } from '../../errors/index.js';
import { Budget, DEFAULT_BUDGET_LIMITS, limitError, limitFromRangeError, type BudgetLimits, type Meter } from '../budget.js';
import type { IdentityGraph } from '../../providers/types.js';
import type { JavaPattern, JavaReplacement } from '../regex/index.js';
import { compileJavaReplacement } from '../regex/index.js';
import { BreakSignal, compileNodes, type DirectiveState } from './directives.js';
import type { IdentityRead, Scope } from './expressions.js';
import { parseBudget } from './grammar.js';
import { parseTemplate } from './parse.js';
import { wrapIdentityGraph, type JavaIdentity } from './identity.js';
import type { MethodContext } from './methods.js';

export interface TemplateGlobals {
  identity: IdentityGraph | null;
  /** Also oldValue, attributeDefinition, … when the caller has them. */
  [name: string]: unknown;
}

export interface CompiledTemplate {
  readonly source: string;
  /** No reference and no directive: render() returns source unchanged. */
  readonly isConstant: boolean;
  /** Mentions $identity (the engine then loads the identity graph first). */
  readonly usesIdentity: boolean;
  /** Top-level variable names it references. */
  readonly references: ReadonlySet<string>;
  /**
   * What it reads from $identity: the first step of each `$identity` reference it compiled, in
   * order (empty when it does not use $identity). A mention the compiler never compiled (in a
   * comment, say) is not there.
   */
  readonly identityReads: readonly IdentityRead[];
  /**
   * Render. `meter` is the evaluation's (renders of one evaluation share its budget); without
   * one, the render gets a budget of its own from the template options.
   */
  render(variables: Readonly<Record<string, unknown>>, globals: TemplateGlobals, meter?: Meter): string;
}

export type { IdentityRead } from './expressions.js';

export interface TemplateOptions {
  /** Longest template accepted (engine limit maxTemplateLength). */
  maxLength: number;
  /** Most lexer tokens a template may hold, its string literals included (engine limit maxTemplateTokens; default: no limit). */
  maxTokens?: number;
  /** How long parsing may run: milliseconds in all, and those already spent by the compile's other templates (default: no limit). */
  parseTime?: { maxTime: number; spent: { ms: number } };
  /** The regex compiler (the engine passes its cached compileJavaRegex). */
  regex: (source: string) => JavaPattern;
  /**
   * 'strict' (default, the platform): an undefined or null reference is TEMPLATE_RENDER, even in
   * #if. 'lenient': stock Velocity defaults, used to run Apache's own conformance templates.
   */
  references?: 'strict' | 'lenient';
  /** Loop iterations and macro calls allowed per render without an evaluation's budget (default: limits.maxIterations). */
  maxIterations?: number;
  /** The budget of a render without an evaluation's budget (defaults: DEFAULT_BUDGET_LIMITS). */
  limits?: Partial<BudgetLimits>;
}

/** https://developer.sailpoint.com/docs/extensibility/transforms/: every string containing `$` or `#` goes through the template engine. */
export function needsTemplate(text: string): boolean {
  return text.includes('$') || text.includes('#');
}

const REGEX_METHODS = new Set(['replaceAll', 'replaceFirst', 'matches', 'split']);
const REPLACE_METHODS = new Set(['replaceAll', 'replaceFirst']);
const CACHE_LIMIT = 64;

/**
 * Compiled values (or their compile error, raised when used, as Java raises it when the
 * method runs). Entries made at template compile time stay; dynamic ones are bounded.
 */
class Memo<T> {
  private readonly pinned = new Map<string, T | TransformsError>();
  private readonly dynamic = new Map<string, T | TransformsError>();

  constructor(private readonly build: (source: string) => T) {}

  pin(source: string): void {
    if (!this.pinned.has(source)) this.pinned.set(source, this.attempt(source));
  }

  get(source: string): T {
    let r = this.pinned.get(source) ?? this.dynamic.get(source);
    if (r === undefined) {
      r = this.attempt(source);
      if (this.dynamic.size >= CACHE_LIMIT) this.dynamic.clear();
      this.dynamic.set(source, r);
    }
    if (r instanceof TransformsError) throw r;
    return r;
  }

  private attempt(source: string): T | TransformsError {
    try {
      return this.build(source);
    } catch (error) {
      if (error instanceof TransformsError) return error;
      throw error;
    }
  }
}

/** The regexes and replacements one template uses. */
class PatternCache {
  private readonly patterns: Memo<JavaPattern>;
  private readonly replacements = new Memo<JavaReplacement>(compileJavaReplacement);

  constructor(compile: (source: string) => JavaPattern) {
    this.patterns = new Memo(compile);
  }

  /** A method call with literal arguments: compile its regex (and replacement) now. */
  warm(method: string, literals: readonly (string | undefined)[]): void {
    if (!REGEX_METHODS.has(method) || literals[0] === undefined) return;
    this.patterns.pin(literals[0]);
    if (REPLACE_METHODS.has(method) && literals[1] !== undefined) this.replacements.pin(literals[1]);
  }

  regex(source: string): JavaPattern {
    return this.patterns.get(source);
  }

  replacement(source: string): JavaReplacement {
    return this.replacements.get(source);
  }
}

/**
 * The state of one render: a class, so that a render allocates one object and no closure. It is
 * also the methods' context: their regexes (the template's cache) and the evaluation's budget.
 */
class RenderScope implements Scope, MethodContext {
  out = '';
  readonly locals = new Map<string, unknown>();
  identity: JavaIdentity | null | undefined = undefined;
  depth = 0;
  readonly ctx: MethodContext = this;
  readonly limits: Readonly<BudgetLimits>;
  private own: Budget | undefined = undefined;

  constructor(
    readonly variables: Readonly<Record<string, unknown>>,
    readonly globals: TemplateGlobals,
    private readonly patterns: PatternCache,
    private readonly meter: Meter | undefined,
    ownLimits: Readonly<BudgetLimits>,
  ) {
    this.limits = meter === undefined ? ownLimits : meter.limits;
  }

  /** The evaluation's budget, or (a render on its own) one for this render, made on first use. */
  get budget(): Budget {
    return this.meter === undefined ? (this.own ??= new Budget(this.limits)) : this.meter.budget;
  }

  regex(source: string): JavaPattern {
    return this.patterns.regex(source);
  }

  replacement(source: string): JavaReplacement {
    return this.patterns.replacement(source);
  }

  wrapIdentity(): JavaIdentity | null {
    return this.globals.identity ? wrapIdentityGraph(this.globals.identity) : null;
  }
}

export function compileTemplate(source: string, options: TemplateOptions): CompiledTemplate {
  try {
    return compile(source, options);
  } catch (error) {
    // Expressions or blocks nested thousands deep exhaust the stack of the recursive compile.
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw codedError('COMPILE_TOO_DEEP', 'the template nests expressions or blocks too deeply', { cause: error, details: { limit: 'maxDepth' } });
    }
    throw error;
  }
}

function compile(source: string, options: TemplateOptions): CompiledTemplate {
  if (source.length > options.maxLength) {
    throw codedError('COMPILE_TEMPLATE_TOO_LARGE', `Template is ${source.length} characters long; the limit is ${options.maxLength}`, {
      details: { length: source.length, maxLength: options.maxLength },
    });
  }
  const budget = parseBudget(options.maxTokens ?? Infinity, options.parseTime?.maxTime ?? Infinity, options.parseTime?.spent);
  const nodes = parseTemplate(source, budget);
  // Plain text (escapes included) renders as itself: the engine may skip the template.
  const isConstant =
    nodes.every((n) => typeof n === 'string' || (!Array.isArray(n) && n.type === 'raw')) &&
    nodes.map((n) => (typeof n === 'string' ? n : String((n as { value: unknown }).value))).join('') === source;
  const cache = new PatternCache(options.regex);
  const state: DirectiveState = {
    strict: (options.references ?? 'strict') === 'strict',
    references: new Set<string>(),
    identityReads: [],
    bound: new Set<string>(['foreach', 'velocityCount', 'velocityHasNext']),
    macros: new Map(),
    pos: undefined,
    precompile: (method, literals) => cache.warm(method, literals),
    template: (inner, pos) => {
      const body = compileNodes(parseTemplate(inner, budget, { offset: pos }), state);
      return (s: Scope) => {
        const saved = s.out;
        s.out = '';
        try {
          body(s);
          return s.out;
        } finally {
          s.out = saved;
        }
      };
    },
  };
  const body = isConstant ? undefined : compileNodes(nodes, state);
  const references = Object.freeze(state.references) as ReadonlySet<string>;
  const ownLimits: Readonly<BudgetLimits> = Object.freeze({
    ...DEFAULT_BUDGET_LIMITS,
    ...options.limits,
    ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}),
  });
  return Object.freeze({
    source,
    isConstant,
    usesIdentity: references.has('identity'),
    references,
    identityReads: Object.freeze(state.identityReads),
    render(variables: Readonly<Record<string, unknown>>, globals: TemplateGlobals, meter?: Meter): string {
      if (!body) return source;
      const scope = new RenderScope(variables, globals, cache, meter, ownLimits);
      try {
        body(scope);
      } catch (error) {
        // #break outside a loop stops the template (Velocity 2 semantics).
        if (!(error instanceof BreakSignal)) {
          if (error instanceof TransformsError) throw error;
          // The stack exhausted by nesting, or a value too large for V8: a limit, coded.
          throw limitFromRangeError(error, scope.limits) ?? error;
        }
      }
      const out = scope.out;
      const max = scope.limits.maxStringLength;
      if (out.length > max) throw limitError('maxStringLength', max, `the template rendered ${out.length} characters`);
      return out;
    },
  });
}
