// Velocity (VTL) templates (reference §3.2 "Template engine", §5.3 static): every string value
// containing `$` or `#` is a template. velocityjs's grammar parses it once here (./parse.ts);
// our own closures render
// it with Java semantics, strict references ("Error rendering template") and a sandbox in which
// only whitelisted Java methods exist (docs/decisions/runtime.md explains why velocityjs's own
// renderer is not used).

import { codedError, TransformsError } from '../../errors.js';
import type { IdentityGraph } from '../../providers/types.js';
import type { JavaPattern, JavaReplacement } from '../regex.js';
import { compileJavaReplacement } from '../regex.js';
import { BreakSignal, compileNodes, type DirectiveState } from './directives.js';
import { renderError, type Scope } from './expressions.js';
import { parseTemplate } from './parse.js';
import { wrapIdentityGraph } from './identity.js';
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
  render(variables: Readonly<Record<string, unknown>>, globals: TemplateGlobals): string;
}

export interface TemplateOptions {
  /** Longest template accepted (engine limit maxTemplateLength). */
  maxLength: number;
  /** The regex compiler (the engine passes its cached compileJavaRegex). */
  regex: (source: string) => JavaPattern;
  /**
   * 'strict' (default, the platform): an undefined or null reference is TEMPLATE_RENDER, even in
   * #if. 'lenient': stock Velocity defaults, used to run Apache's own conformance templates.
   */
  references?: 'strict' | 'lenient';
  /** Loop iterations allowed per render (default 100000). */
  maxIterations?: number;
}

/** Reference §3.2: every string containing `$` or `#` goes through the template engine. */
export function needsTemplate(text: string): boolean {
  return text.includes('$') || text.includes('#');
}

const REGEX_METHODS = new Set(['replaceAll', 'replaceFirst', 'matches', 'split']);
const CACHE_LIMIT = 64;

/** Regexes and replacements a template uses: literals compiled once, dynamic ones cached. */
class PatternCache implements MethodContext {
  private readonly patterns = new Map<string, JavaPattern | TransformsError>();
  private readonly replacements = new Map<string, JavaReplacement | TransformsError>();

  constructor(private readonly compile: (source: string) => JavaPattern) {}

  /** Compile now; a syntax error is kept and raised when (if ever) the method runs, as in Java. */
  warm(method: string, literal: string): void {
    if (method === 'replaceAll' || method === 'replaceFirst' || method === 'matches' || method === 'split') this.regexOrError(literal);
  }

  regex(source: string): JavaPattern {
    const r = this.regexOrError(source);
    if (r instanceof TransformsError) throw r;
    return r;
  }

  replacement(source: string): JavaReplacement {
    let r = this.replacements.get(source);
    if (!r) {
      try {
        r = compileJavaReplacement(source);
      } catch (error) {
        if (!(error instanceof TransformsError)) throw error;
        r = error;
      }
      if (this.replacements.size >= CACHE_LIMIT) this.replacements.clear();
      this.replacements.set(source, r);
    }
    if (r instanceof TransformsError) throw r;
    return r;
  }

  private regexOrError(source: string): JavaPattern | TransformsError {
    let r = this.patterns.get(source);
    if (!r) {
      try {
        r = this.compile(source);
      } catch (error) {
        if (!(error instanceof TransformsError)) throw error;
        r = error;
      }
      if (this.patterns.size >= CACHE_LIMIT) this.patterns.clear();
      this.patterns.set(source, r);
    }
    return r;
  }
}

export function compileTemplate(source: string, options: TemplateOptions): CompiledTemplate {
  if (source.length > options.maxLength) {
    throw codedError('COMPILE_TEMPLATE_TOO_LARGE', `Template is ${source.length} characters long; the limit is ${options.maxLength}`, {
      details: { length: source.length, maxLength: options.maxLength },
    });
  }
  const nodes = parseTemplate(source);
  const isConstant = nodes.every((n) => typeof n === 'string') && nodes.join('') === source;
  const cache = new PatternCache(options.regex);
  const state: DirectiveState = {
    strict: (options.references ?? 'strict') === 'strict',
    references: new Set<string>(),
    bound: new Set<string>(['foreach', 'velocityCount', 'velocityHasNext']),
    macros: new Map(),
    pos: undefined,
    precompile: (method, literal) => {
      if (REGEX_METHODS.has(method)) cache.warm(method, literal);
    },
    template: (inner, pos) => {
      const body = compileNodes(parseTemplate(inner, pos), state);
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
  const maxIterations = options.maxIterations ?? 100_000;
  return Object.freeze({
    source,
    isConstant,
    usesIdentity: references.has('identity'),
    references,
    render(variables: Readonly<Record<string, unknown>>, globals: TemplateGlobals): string {
      if (!body) return source;
      const scope: Scope = {
        out: '',
        locals: new Map(),
        variables,
        globals,
        identity: undefined,
        wrapIdentity: () => (globals.identity ? wrapIdentityGraph(globals.identity) : null),
        ctx: cache,
        budget: maxIterations,
        depth: 0,
      };
      try {
        body(scope);
      } catch (error) {
        // #break outside a loop stops the template (Velocity 2 semantics).
        if (!(error instanceof BreakSignal)) {
          if (error instanceof TransformsError) throw error;
          if (error instanceof RangeError) throw renderError('template too deeply nested', undefined, error);
          throw error;
        }
      }
      return scope.out;
    },
  });
}
