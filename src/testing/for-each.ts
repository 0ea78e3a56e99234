// forEachFixtureIdentity: run a test body once for every identity of a fixture
// tenant, through one engine over that tenant, and report every identity whose body failed —
// by name and id — instead of stopping at the first. User names issued by usernameGenerator are
// kept across identities, as in a refresh of the whole tenant.

import type { EngineOptions } from '../engine/options.js';
import type { Value } from '../engine/types.js';
import type { Engine } from '../engine/engine.js';
import type { Account, Identity } from '../providers/types.js';
import { fixtureSamples } from './arbitraries.js';
import { checkKeys, positiveInteger } from './options.js';
import { createSampleEngine } from './sample-engine.js';
import type { TenantRecords } from './shape.js';
import { fmix32, hashString } from './generator/prng.js';

export interface FixtureIdentityContext {
  readonly identity: Identity;
  readonly accounts: readonly Account[];
  /** Position of the identity in the fixtures. */
  readonly index: number;
  readonly engine: Engine;
  /** Evaluate for this identity: resolves to the value, rejects with the coded error. */
  evaluate(transform: unknown, context?: { input?: Value; variables?: Record<string, unknown> }): Promise<Value>;
}

export interface ForEachFixtureIdentityOptions {
  /** Passed to createEngine (clock, rules, limits, providers replacing the in-memory ones). */
  engineOptions?: EngineOptions;
  /** Seed of the random source; each identity's stream is derived from it and the identity id (default 0). */
  seed?: number;
  /** Failures listed in the message (default 10; all are on the error's `failures`). */
  maxReported?: number;
}

export interface IdentityFailure {
  readonly identity: Identity;
  readonly error: unknown;
}

/** Thrown when the body failed for at least one identity. */
export class FixtureIdentitiesError extends Error {
  constructor(message: string, readonly failures: readonly IdentityFailure[]) {
    super(message);
    this.name = 'FixtureIdentitiesError';
  }
}

const OPTION_KEYS = ['engineOptions', 'seed', 'maxReported'];

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

export async function forEachFixtureIdentity(
  fixtures: TenantRecords,
  body: (context: FixtureIdentityContext) => void | Promise<void>,
  options: ForEachFixtureIdentityOptions = {},
): Promise<void> {
  checkKeys('forEachFixtureIdentity', options, OPTION_KEYS);
  const maxReported = positiveInteger('forEachFixtureIdentity', 'maxReported', options.maxReported, 10);
  const sampleEngine = createSampleEngine({
    fixtures,
    shareIssuedNames: true,
    ...(options.engineOptions === undefined ? {} : { engineOptions: options.engineOptions }),
  });
  const failures: IdentityFailure[] = [];
  const all = fixtureSamples(fixtures);
  for (const [index, sample] of all.entries()) {
    // Seeded per identity, so that one identity's values do not depend on the ones before it.
    const seed = fmix32((options.seed ?? 0) ^ hashString(sample.identity.id));
    const context: FixtureIdentityContext = {
      identity: sample.identity,
      accounts: sample.accounts,
      index,
      engine: sampleEngine.engine,
      async evaluate(transform, evaluation = {}) {
        const outcome = await sampleEngine.evaluate(transform, sample, { seed, ...evaluation });
        if (outcome.kind === 'error') throw outcome.error;
        return outcome.value;
      },
    };
    try {
      await body(context);
    } catch (error) {
      failures.push({ identity: sample.identity, error });
    }
  }
  if (failures.length === 0) return;
  const lines = failures.slice(0, maxReported).map((f) => `  ${f.identity.name} (${f.identity.id}): ${firstLine(f.error)}`);
  if (failures.length > maxReported) lines.push(`  … and ${failures.length - maxReported} more`);
  throw new FixtureIdentitiesError(`forEachFixtureIdentity: ${failures.length} of ${all.length} fixture identities failed\n${lines.join('\n')}`, failures);
}
