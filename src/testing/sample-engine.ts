// The engine the property helpers evaluate through: in-memory providers over a fixture
// tenant with one identity sample laid over it, a fixed clock, and a random source seeded per
// evaluation, so that every run can be replayed from its seed.
//
// One engine serves many runs rather than one engine per run: creating an engine builds its
// schema validator (about 180 ms), which would dominate a 100-run property. Nothing an
// evaluation leaves behind changes the next one: the caches hold compiled transforms only, and
// the sample, the random source and the issued user names are reset for each evaluation.

import { isTransformsError, type TransformsError } from '../errors/index.js';
import { createEngine, type Engine } from '../engine/engine.js';
import type { EngineOptions } from '../engine/options.js';
import type { CompiledTransform, Value } from '../engine/types.js';
import { createMemoryProviders } from '../providers/memory.js';
import { createStreamedRecordProviders } from '../providers/streamed.js';
import type { Account, Identity, Providers, Source } from '../providers/types.js';
import type { IdentitySample } from './arbitraries.js';
import { createIssuedNames } from './issued-names.js';
import { checkKeys } from './options.js';
import { defaultShape, type TenantRecords } from './shape.js';
import { TENANT_NOW } from './generator/data.js';
import { Prng } from './generator/prng.js';

/** What an evaluation gave: a value, or the coded error of the compile or the evaluate phase. */
export type Outcome =
  | { readonly kind: 'value'; readonly value: Value }
  | { readonly kind: 'error'; readonly phase: 'compile' | 'evaluate'; readonly error: TransformsError };

export interface SampleEngineOptions {
  /** The tenant the samples are evaluated next to (default: the default shape's sources, no identities). */
  fixtures?: TenantRecords;
  /** Passed to createEngine; `providers` given here replace the in-memory ones key by key. */
  engineOptions?: EngineOptions;
  /** Keep the user names issued by usernameGenerator across evaluations (a whole tenant) instead of per evaluation. */
  shareIssuedNames?: boolean;
}

export interface SampleEvaluateOptions {
  /** Seed of the random source for this evaluation (default 0); ignored when engineOptions.random is given. */
  seed?: number;
  /** Use this random source instead (several evaluations may then share one stream). */
  random?: () => number;
  input?: Value;
  variables?: Record<string, unknown>;
}

export interface SampleEngine {
  readonly engine: Engine;
  /** Compile a transform document (with a name) or a nested definition (without). Throws coded errors. */
  compile(transform: unknown): CompiledTransform;
  /** Evaluate for a sample (or no identity). Coded errors are outcomes; any other exception is thrown. */
  evaluate(transform: unknown, sample: IdentitySample | null, options?: SampleEvaluateOptions): Promise<Outcome>;
}

/** "now" of the generated tenants, the default clock: dates in the samples are before it. */
export const SAMPLE_NOW = new Date(TENANT_NOW);

const OPTION_KEYS = ['fixtures', 'engineOptions', 'shareIssuedNames'];

export function createSampleEngine(options: SampleEngineOptions = {}): SampleEngine {
  checkKeys('createSampleEngine', options, OPTION_KEYS);
  const fixtures: TenantRecords = options.fixtures ?? { sources: defaultShape().sources.map((s) => s.source), identities: [], accounts: [] };
  const base = createMemoryProviders({
    sources: fixtures.sources as Source[],
    identities: fixtures.identities as Identity[],
    accounts: fixtures.accounts as Account[],
    transforms: [...(fixtures.transforms ?? [])],
  });
  let current: IdentitySample | null = null;
  const issued = createIssuedNames(fixtures.identities, () => (current === null ? [] : [current.identity]));
  // The sample under test is the current record; the tenant's identities and accounts are the fallback.
  const record = createStreamedRecordProviders({ sources: base.sources, transforms: base.transforms, uniqueness: issued }, base);
  const providers: Providers = { ...record.providers, ...(options.engineOptions?.providers ?? {}) };
  let random: () => number = Math.random;
  const engineOptions = options.engineOptions ?? {};
  const engine = createEngine({
    clock: () => SAMPLE_NOW,
    ...engineOptions,
    random: engineOptions.random ?? (() => random()),
    providers,
  });
  const compile = (transform: unknown): CompiledTransform => {
    const named = transform !== null && typeof transform === 'object' && typeof (transform as { name?: unknown }).name === 'string';
    return named ? engine.compile(transform) : engine.compileDefinition(transform);
  };

  // Evaluations run one at a time: the sample and the random source are per evaluation.
  let queue: Promise<unknown> = Promise.resolve();
  const run = async (transform: unknown, sample: IdentitySample | null, o: SampleEvaluateOptions): Promise<Outcome> => {
    let compiled: CompiledTransform;
    try {
      compiled = compile(transform);
    } catch (error) {
      if (isTransformsError(error)) return { kind: 'error', phase: 'compile', error };
      throw error;
    }
    current = sample;
    if (sample !== null) record.enter(sample.identity, sample.accounts, null);
    if (o.random !== undefined) random = o.random;
    else {
      const prng = new Prng(o.seed ?? 0);
      random = () => prng.next();
    }
    if (options.shareIssuedNames !== true) issued.reset();
    try {
      const value = await engine.evaluate(compiled, {
        identity: sample?.identity ?? null,
        ...(o.input === undefined ? {} : { input: o.input }),
        ...(o.variables === undefined ? {} : { variables: o.variables }),
      });
      return { kind: 'value', value };
    } catch (error) {
      if (isTransformsError(error)) return { kind: 'error', phase: 'evaluate', error };
      throw error;
    } finally {
      current = null;
      record.leave();
    }
  };
  return {
    engine,
    compile,
    evaluate(transform, sample, o = {}) {
      const next = queue.then(() => run(transform, sample, o));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
