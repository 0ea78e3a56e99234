// Identity refresh, the library side (docs/refresh.md): evaluate an identity profile for every identity
// of a fixture tenant, streamed, on the calling thread or a worker pool, optionally one shard.

import type { Writable } from 'node:stream';
import { writeWithBackpressure } from './ndjson-writer.js';
import type { BatchOutput, IdentityRefreshResult } from './evaluator.js';
import { RefreshRunner, type RefreshOptions } from './runner.js';
import type { RefreshSummary } from './summary.js';
import { TenantRefreshRunner } from './tenant-runner.js';

export { RefreshRunner, DEFAULT_BATCH_SIZE, type RefreshOptions } from './runner.js';
export { TenantRefreshRunner } from './tenant-runner.js';
export type { BatchOutput, IdentityRefreshResult } from './evaluator.js';
export { formatSummary, type RefreshSummary, type CacheSummary } from './summary.js';
export { parseShard, shardOf, fnv1a32, type Shard } from './shard.js';
export { renderProgress, createProgressBar, type Progress, type ProgressBar } from './progress.js';
export { resolveProfile } from './profile-source.js';
export { JsonArrayReader, type ArrayElement } from './fixture-stream/json-array-reader.js';

export interface RefreshJob extends AsyncIterable<IdentityRefreshResult> {
  /** The run's summary; complete once the iteration has ended. */
  summary(): RefreshSummary;
}

/** One run of a refresh: its batches in order (as result objects or as NDJSON), then its summary. Iterate one of them, once. */
export interface RefreshRun {
  /** The batches as NDJSON, serialised by the writer (ndjson-writer.ts). */
  batches(): AsyncGenerator<BatchOutput, void, undefined>;
  /** The batches as result objects. */
  results(): AsyncGenerator<readonly IdentityRefreshResult[], void, undefined>;
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
      for await (const batch of runner.results()) yield* batch;
    },
  };
}

export interface WriteRefreshOptions {
  /**
   * Stop between two batches once this is aborted (the summary then says complete: false). After
   * each batch a turn of the event loop is let run, so that signal handlers and a closed
   * stream's 'error' are seen.
   */
  signal?: AbortSignal;
}

/** Hand a run's NDJSON batches to `write`, in order, waiting for each; resolves to the run's summary. */
export async function writeRefresh(run: RefreshRun, write: (batch: BatchOutput) => void | Promise<void>, options: WriteRefreshOptions = {}): Promise<RefreshSummary> {
  const { signal } = options;
  for await (const batch of run.batches()) {
    await write(batch);
    if (signal !== undefined) {
      await new Promise((resolve) => setImmediate(resolve));
      if (signal.aborted) break;
    }
  }
  return run.summary();
}

/** Refresh a tenant and write NDJSON lines to `output` (not ended afterwards); resolves to the summary. */
export async function refreshToStream(options: RefreshOptions, output: Writable | NodeJS.WritableStream, streamOptions: WriteRefreshOptions = {}): Promise<RefreshSummary> {
  return writeRefresh(createRefreshRunner(options), (batch) => writeWithBackpressure(output, batch.bytes ?? batch.text), streamOptions);
}
