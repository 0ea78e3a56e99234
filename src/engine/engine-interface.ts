// The public interface of an engine (engine.ts implements it) and the options of its calls.

import type { Identity, Providers } from '../providers/types.js';
import type { ValidationIssue } from '../schema/issues.js';
import type { CacheStats } from './caches.js';
import type { ProfileLike, ProfileOptions, ProfileResult } from './profile.js';
import type { Registry } from './registry.js';
import type { TraceNode } from './trace.js';
import type { MaybePromise } from '../providers/maybe.js';
import type { CompiledTransform, Limits, RuleFunction, Value } from './types.js';

export interface CompileOptions {
  /** The caller has already validated the document against this engine's schema. */
  schemaChecked?: boolean;
  /** Keep the result in the compile cache (default true; validation of many files turns it off). */
  cache?: boolean;
}

export interface EvaluationContext {
  /** The identity being evaluated: the object, or its id (resolved through the identity provider). */
  identity?: Identity | string | null;
  /** The implicit input (for a profile mapping, the value the mapping feeds the transform). */
  input?: Value;
  /** Extra template variables: oldValue, attributeDefinition, … */
  variables?: Record<string, unknown>;
  /** Limits for this call, over the engine's (docs/limits.md). */
  limits?: Partial<Limits>;
}

export interface Engine {
  readonly registry: Registry;
  readonly limits: Readonly<Limits>;
  readonly providers: Readonly<Providers>;
  /** Validate (schema) and build closures once; cached by canonical JSON. Throws the first issue as a coded error. */
  compile(transform: unknown, options?: CompileOptions): CompiledTransform;
  /** Evaluate; resolves to the value or rejects with a coded error. */
  evaluate(transform: unknown, context?: EvaluationContext): Promise<Value>;
  /** Evaluate synchronously; throws ENGINE_ASYNC_PROVIDER when a provider answers with a promise. */
  evaluateSync(transform: unknown, context?: EvaluationContext): Value;
  /** The core: synchronous when every provider is. */
  evaluateMaybe(transform: unknown, context?: EvaluationContext): MaybePromise<Value>;
  /** Compile a nested transform definition (an identity-profile mapping: no name required). */
  compileDefinition(definition: unknown): CompiledTransform;
  /** Evaluate every attribute of an identity profile for one identity; errors are per attribute. */
  evaluateProfile(profile: ProfileLike, identity: Identity, options?: ProfileOptions): Promise<ProfileResult>;
  /** The same, synchronously (throws ENGINE_ASYNC_PROVIDER when a provider is asynchronous). */
  evaluateProfileSync(profile: ProfileLike, identity: Identity, options?: ProfileOptions): ProfileResult;
  /** The core of evaluateProfile: synchronous when every provider is. */
  evaluateProfileMaybe(profile: ProfileLike, identity: Identity, options?: ProfileOptions): MaybePromise<ProfileResult>;
  /** Schema validation only (no compile), with JSON Pointer issues. */
  validateSchema(transform: unknown): ValidationIssue[];
  /** Schema validation of a nested definition (no name required). */
  validateDefinitionSchema(definition: unknown): ValidationIssue[];
  /** The transform JSON Schema built from this engine's registry. */
  transformSchema(): Record<string, unknown>;
  /** Cache hit and miss counters. */
  cacheStats(): Record<string, CacheStats>;
  /** A registered rule function. */
  rule(name: string): RuleFunction | undefined;
  /**
   * Evaluate and explain: the tree of nodes the evaluation ran, each with its input, value or
   * error and decisions. Needs providers that answer synchronously (fixtures, memory).
   */
  explain(transform: unknown, context?: EvaluationContext): Explanation;
}

/** What engine.explain gives: the outcome and the tree of nodes that produced it. */
export interface Explanation {
  value?: Value;
  error?: { code: string; message: string; path?: string };
  trace: TraceNode;
}
