// checkTransform: a property of one transform (or of generated transforms) over
// identities shaped like a fixture tenant — the tenant's own identities and generated ones —
// run by fast-check; a failure throws a TransformPropertyError whose message ends with the
// shrunk identity and accounts as a fixture document, with the seed and path to replay it.

import fc from './fast-check.js';
import { codedError } from '../errors/index.js';
import type { EngineOptions } from '../engine/options.js';
import type { Value } from '../engine/types.js';
import type { TransformDocument } from '../providers/types.js';
import { arbitrarySample, type IdentitySample } from './arbitraries.js';
import { fixtureDocument, formatReport, TransformPropertyError, type RunFailure } from './counterexample.js';
import { checkKeys, positiveInteger } from './options.js';
import { createSampleEngine, type Outcome, type SampleEngine } from './sample-engine.js';
import type { TenantRecords, TenantShape } from './shape.js';

/** What the property sees besides the value. */
export interface CheckSample extends IdentitySample {
  /** The transform evaluated (the generated one, when an arbitrary was given). */
  readonly transform: TransformDocument;
  /** Seed of the engine's random source in this run. */
  readonly seed: number;
  /** The engine the run went through (to evaluate something else for the same sample). */
  readonly sampleEngine: SampleEngine;
}

export type TransformProperty = (value: Value, sample: CheckSample) => boolean | void | Promise<boolean | void>;

export interface CheckTransformOptions {
  /** The tenant: its identities are samples, its shape shapes the generated ones, its transforms can be referenced. */
  fixtures?: TenantRecords;
  /** Shape generated identities like this instead (default: the fixtures' shape, else the default shape). */
  shape?: TenantShape;
  /** Holds for every value the transform gives; false or a throw fails the run. Default: none (only errors fail). */
  property?: TransformProperty;
  /** Evaluation errors that pass the run: true for any coded error, or a list of codes. Default: none. */
  allowErrors?: boolean | readonly string[];
  /** Which identities to run on (default 'both' when the fixtures have identities, else 'generated'). */
  identities?: 'fixtures' | 'generated' | 'both';
  /** The implicit input of the evaluation. */
  input?: Value;
  /** Runs (default 100). */
  numRuns?: number;
  /** fast-check seed and path: replay a reported failure. */
  seed?: number;
  path?: string;
  /** Passed to createEngine (clock, rules, limits, providers replacing the in-memory ones). */
  engineOptions?: EngineOptions;
  /**
   * Evaluate through this engine (made by createSampleEngine over the same fixtures) instead of
   * a new one: several checks of one tenant then share the engine's start-up.
   */
  sampleEngine?: SampleEngine;
}

const OPTION_KEYS = ['fixtures', 'shape', 'property', 'allowErrors', 'identities', 'input', 'numRuns', 'seed', 'path', 'engineOptions', 'sampleEngine'];

interface Run {
  readonly transform: TransformDocument;
  readonly sample: IdentitySample;
  readonly seed: number;
}

/** Thrown inside the fast-check property to carry the failure out with the counter-example. */
class RunFailed extends Error {
  constructor(readonly failure: RunFailure) {
    super(failure.kind);
  }
}

/** Duck-typed, so that an arbitrary from another copy of fast-check is recognised too. */
function isArbitrary(value: unknown): value is fc.Arbitrary<TransformDocument> {
  const v = value as { generate?: unknown; shrink?: unknown } | null;
  return value instanceof fc.Arbitrary || (v !== null && typeof v === 'object' && typeof v.generate === 'function' && typeof v.shrink === 'function');
}

function allowed(outcome: Extract<Outcome, { kind: 'error' }>, allowErrors: CheckTransformOptions['allowErrors']): boolean {
  if (outcome.phase === 'compile' || allowErrors === undefined || allowErrors === false) return false;
  return allowErrors === true || allowErrors.includes(outcome.error.code);
}

/**
 * Check a property of `transform` (a document, or an fc.Arbitrary of documents) on fixture and
 * generated identities. Resolves when every run passes; rejects with a TransformPropertyError
 * (the report is its message) on the shrunk counter-example. A fixed transform that does not
 * compile rejects at once with its coded error.
 */
export async function checkTransform(transform: TransformDocument | fc.Arbitrary<TransformDocument>, options: CheckTransformOptions = {}): Promise<void> {
  checkKeys('checkTransform', options, OPTION_KEYS);
  const numRuns = positiveInteger('checkTransform', 'numRuns', options.numRuns, 100);
  if (options.sampleEngine !== undefined && options.engineOptions !== undefined) {
    throw codedError('ENGINE_OPTION_INVALID', 'checkTransform: give engineOptions to createSampleEngine when you pass a sampleEngine');
  }
  const sampleEngine =
    options.sampleEngine ??
    createSampleEngine({
      ...(options.fixtures === undefined ? {} : { fixtures: options.fixtures }),
      ...(options.engineOptions === undefined ? {} : { engineOptions: options.engineOptions }),
    });
  const generatedTransform = isArbitrary(transform);
  if (!generatedTransform) sampleEngine.compile(transform);

  const evaluate = async (run: Run): Promise<RunFailure | null> => {
    let outcome: Outcome;
    try {
      outcome = await sampleEngine.evaluate(run.transform, run.sample, { seed: run.seed, ...(options.input === undefined ? {} : { input: options.input }) });
    } catch (error) {
      return { kind: 'exception', error };
    }
    if (outcome.kind === 'error') return allowed(outcome, options.allowErrors) ? null : { kind: 'coded', outcome };
    if (options.property === undefined) return null;
    try {
      const verdict = await options.property(outcome.value, { ...run.sample, transform: run.transform, seed: run.seed, sampleEngine });
      return verdict === false ? { kind: 'false', value: outcome.value } : null;
    } catch (error) {
      return { kind: 'property-threw', value: outcome.value, error };
    }
  };

  const runs: fc.Arbitrary<Run> = fc.record({
    transform: generatedTransform ? transform : fc.constant(transform),
    sample: arbitrarySample(options.fixtures, {
      ...(options.identities === undefined ? {} : { identities: options.identities }),
      ...(options.shape === undefined ? {} : { shape: options.shape }),
    }),
    seed: fc.nat(),
  });
  const details = await fc.check(
    fc.asyncProperty(runs, async (run) => {
      const failure = await evaluate(run);
      if (failure !== null) throw new RunFailed(failure);
    }),
    { numRuns, ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.path === undefined ? {} : { path: options.path }) },
  );
  if (!details.failed) return;
  if (details.counterexample === null) throw new Error(`checkTransform: fast-check stopped without a counter-example (seed ${details.seed})`);
  const [run] = details.counterexample;
  const failure = details.errorInstance instanceof RunFailed ? details.errorInstance.failure : { kind: 'exception' as const, error: details.errorInstance };
  const document = fixtureDocument(run.sample.identity, run.sample.accounts);
  const report = formatReport({
    transform: run.transform,
    generatedTransform,
    document,
    failure,
    randomSeed: run.seed,
    seed: details.seed,
    path: details.counterexamplePath,
    numRuns: details.numRuns,
    numShrinks: details.numShrinks,
  });
  throw new TransformPropertyError(report, document, run.transform, failure, details.seed, details.counterexamplePath);
}
