// Engine options: validated, defaulted, frozen; an unknown key is an error, never ignored.

import { codedError } from '../errors/index.js';
import { closestName, didYouMean } from '../errors/suggest.js';
import type { Providers } from '../providers/types.js';
import { DEFAULT_CACHE_SIZES, type CacheSizes } from './caches.js';
import type { Limits, OperationSpec, RuleFunction } from './types.js';
import { DEFAULT_BUDGET_LIMITS } from '../runtime/budget.js';

export interface EngineOptions {
  /** Where accounts, sources, identities, transforms and the uniqueness check come from. */
  providers?: Providers;
  /** The clock; read once per evaluation ("now" in dateMath and dateCompare). Default: the system clock. */
  clock?: () => Date;
  /** Uniform random numbers in [0, 1) for the random operations. Default: crypto-strength. */
  random?: () => number;
  /** Resource limits. */
  limits?: Partial<Limits>;
  /** Cache sizes (entries). */
  cacheSizes?: Partial<CacheSizes>;
  /** Transform rules by name, for the `rule` operation. */
  rules?: Record<string, RuleFunction>;
  /** Extra operation types (a type the built-ins already have is an error). */
  operations?: readonly OperationSpec[];
  /**
   * Compile each transform to one generated JavaScript function (default true), or keep the
   * closures (false): for hosts whose Content Security Policy forbids `new Function`. Both give
   * the same values and errors; explain always uses the closures. See README, "Generated code".
   */
  codegen?: boolean;
}

export interface ResolvedOptions {
  providers: Readonly<Providers>;
  clock: () => Date;
  random: () => number;
  limits: Readonly<Limits>;
  cacheSizes: Readonly<CacheSizes>;
  rules: Readonly<Record<string, RuleFunction>>;
  operations: readonly OperationSpec[];
  codegen: boolean;
}

/** The defaults of every limit (docs/limits.md lists them with what each bounds). */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxDepth: 64,
  maxTemplateLength: 100_000,
  maxTemplateTokens: 100_000,
  maxSteps: 100_000,
  maxFilterLength: 10_000,
  maxOutputLength: 1_000_000,
  ...DEFAULT_BUDGET_LIMITS,
});

/**
 * The largest maxDepth: a transform may nest its JSON `4 × maxDepth + 16` levels
 * (engine/canonical.ts jsonNestingLimit), and at 246 that is 1,000, the deepest JSON read anywhere
 * (json/depth.ts MAX_JSON_DEPTH). A larger maxDepth would let through JSON nested deep enough to
 * exhaust the stack of the schema validator and of compile ("Maximum call stack size exceeded"),
 * which recurse once per level.
 */
export const MAX_DEPTH_LIMIT = 246;

/** Limits with a largest value, past which the limit would no longer protect what it bounds. */
const LIMIT_MAXIMA: Readonly<Partial<Record<keyof Limits, number>>> = { maxDepth: MAX_DEPTH_LIMIT };

/**
 * The most entries a cache may hold. lru-cache allocates a cache's slots up front (engine/caches.ts,
 * at its first value): a million takes about 24 MB; 10^8 would take gigabytes at the first
 * evaluation, and 2^32 makes it throw a RangeError there.
 */
export const MAX_CACHE_SIZE = 1_000_000;
const CACHE_MAXIMA: Readonly<Record<keyof CacheSizes, number>> = { transforms: MAX_CACHE_SIZE, regexes: MAX_CACHE_SIZE, templates: MAX_CACHE_SIZE, filters: MAX_CACHE_SIZE };

/** Limits given per call (evaluate's context, evaluateProfile's options) over the engine's. */
export function resolveLimits(base: Readonly<Limits>, given: Partial<Limits> | undefined): Readonly<Limits> {
  return given === undefined ? base : positiveIntegers('limits', given, base, LIMIT_MAXIMA);
}

const OPTION_KEYS = new Set(['providers', 'clock', 'random', 'limits', 'cacheSizes', 'rules', 'operations', 'codegen']);
const PROVIDER_KEYS = new Set(['accounts', 'sources', 'identities', 'transforms', 'uniqueness', 'names']);

function invalid(message: string): never {
  throw codedError('ENGINE_OPTION_INVALID', message);
}

function positiveIntegers<T extends object>(name: string, given: Partial<T> | undefined, defaults: T, maxima?: Readonly<Partial<Record<keyof T, number>>>): T {
  if (given === undefined) return defaults;
  if (given === null || typeof given !== 'object') invalid(`${name} must be an object`);
  const out = { ...defaults };
  for (const [key, value] of Object.entries(given)) {
    // Own keys only: `toString` or a JSON `__proto__` member is no limit, whatever objects inherit.
    if (!Object.hasOwn(defaults, key)) throw codedError('ENGINE_OPTION_UNKNOWN', `unknown ${name} key "${key}"`);
    const max = maxima !== undefined && Object.hasOwn(maxima, key) ? maxima[key as keyof T] : undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || (max !== undefined && value > max)) {
      invalid(`${name}.${key} must be a positive integer${max === undefined ? '' : ` of at most ${max}`}`);
    }
    (out as Record<string, unknown>)[key] = value;
  }
  return Object.freeze(out);
}

function defaultRandom(): () => number {
  // Buffered crypto randomness: a uniform double from 53 random bits.
  const buffer = new Uint32Array(512);
  let index = buffer.length;
  return () => {
    if (index + 2 > buffer.length) {
      globalThis.crypto.getRandomValues(buffer);
      index = 0;
    }
    const hi = buffer[index++]! >>> 5;
    const lo = buffer[index++]! >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  };
}

export function resolveOptions(options: EngineOptions): ResolvedOptions {
  if (options === null || typeof options !== 'object') invalid('engine options must be an object');
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) throw codedError('ENGINE_OPTION_UNKNOWN', `unknown engine option "${key}"${didYouMean(closestName(key, OPTION_KEYS))}`);
  }
  const providers = options.providers ?? {};
  for (const key of Object.keys(providers)) {
    if (!PROVIDER_KEYS.has(key)) throw codedError('ENGINE_OPTION_UNKNOWN', `unknown provider "${key}"${didYouMean(closestName(key, PROVIDER_KEYS))}`);
  }
  if (options.clock !== undefined && typeof options.clock !== 'function') invalid('clock must be a function returning a Date');
  if (options.random !== undefined && typeof options.random !== 'function') invalid('random must be a function returning a number in [0, 1)');
  const rules = options.rules ?? {};
  for (const [name, fn] of Object.entries(rules)) {
    if (typeof fn !== 'function') invalid(`rule "${name}" must be a function`);
  }
  const operations = options.operations ?? [];
  if (!Array.isArray(operations)) invalid('operations must be an array of operation specs');
  if (options.codegen !== undefined && typeof options.codegen !== 'boolean') invalid('codegen must be true or false');
  const clock = options.clock ?? (() => new Date());
  return Object.freeze({
    providers: Object.freeze({ ...providers }),
    clock: () => {
      const d = clock();
      if (!(d instanceof Date) || Number.isNaN(d.getTime())) invalid('the clock returned an invalid Date');
      return d;
    },
    random: options.random ?? defaultRandom(),
    limits: positiveIntegers('limits', options.limits, DEFAULT_LIMITS, LIMIT_MAXIMA),
    cacheSizes: positiveIntegers('cacheSizes', options.cacheSizes, DEFAULT_CACHE_SIZES, CACHE_MAXIMA),
    rules: Object.freeze({ ...rules }),
    operations: Object.freeze([...operations]),
    codegen: options.codegen ?? true,
  });
}
