// Identity refresh, the library side (docs/refresh.md): evaluate an identity profile for every identity
// of a fixture tenant, streamed, on the calling thread or a worker pool, optionally one shard.

import type { Writable } from 'node:stream';
import type { ProfileError } from '../engine/profile.js';
import type { Value } from '../engine/types.js';
import { writeWithBackpressure } from './ndjson-writer.js';
import type { BatchOutput } from './evaluator.js';
import { RefreshRunner, type RefreshOptions } from './runner.js';
import type { RefreshSummary } from './summary.js';
import { TenantRefreshRunner } from './tenant-runner.js';

export { RefreshRunner, DEFAULT_BATCH_SIZE, type RefreshOptions } from './runner.js';
export { TenantRefreshRunner } from './tenant-runner.js';
export type { BatchOutput } from './evaluator.js';
export { formatSummary, type RefreshSummary, type CacheSummary } from './summary.js';
export { parseShard, shardOf, fnv1a32, type Shard } from './shard.js';
export { renderProgress, createProgressBar, type Progress, type ProgressBar } from './progress.js';
export { resolveProfile } from './profile-source.js';
export { JsonArrayReader, type ArrayElement } from './fixture-stream/json-array-reader.js';

/** One output line: an identity's attributes and its per-attribute errors. */
export interface IdentityRefreshResult {
  identityId: string;
  attributes: Record<string, Value>;
  errors: ProfileError[];
}

export interface RefreshJob extends AsyncIterable<IdentityRefreshResult> {
  /** The run's summary; complete once the iteration has ended. */
  summary(): RefreshSummary;
}

/** One run of a refresh: NDJSON batches in order, then its summary. */
export interface RefreshRun {
  batches(): AsyncGenerator<BatchOutput, void, undefined>;
  summary(): RefreshSummary;
}

/** The runner for the options: a fixtures directory (RefreshRunner) or a tenant over its API (TenantRefreshRunner). */
export function createRefreshRunner(options: RefreshOptions): RefreshRun {
  if (options !== null && typeof options === 'object' && options.tenant !== undefined) return new TenantRefreshRunner(options);
  return new RefreshRunner(options);
}

/**
 * Refresh a tenant, yielding one result per identity in the order of identities.json (fixtures)
 * or of identity ids (a tenant over its API).
 * Options are checked here (a bad option throws before iteration); the tenant is read when
 * iteration starts.
 */
export function refresh(options: RefreshOptions): RefreshJob {
  const runner = createRefreshRunner(options);
  return {
    summary: () => runner.summary(),
    async *[Symbol.asyncIterator]() {
      for await (const batch of runner.batches()) {
        if (batch.text === '') continue;
        for (const line of batch.text.split('\n')) if (line !== '') yield JSON.parse(line) as IdentityRefreshResult;
      }
    },
  };
}

/** Refresh a tenant and write NDJSON lines to `output` (not ended afterwards); resolves to the summary. */
export async function refreshToStream(options: RefreshOptions, output: Writable | NodeJS.WritableStream): Promise<RefreshSummary> {
  const runner = createRefreshRunner(options);
  for await (const batch of runner.batches()) await writeWithBackpressure(output, batch.bytes ?? batch.text);
  return runner.summary();
}
