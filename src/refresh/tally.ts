// What both refresh runners (fixtures: runner.ts; a tenant over its API: tenant-runner.ts) share
// once a batch is evaluated: one iteration per run, timed; the counters and the progress
// callback; the summary; and the two ways of handing batches out — as result objects, or as
// NDJSON serialised by the writer (ndjson-writer.ts).

import type { CacheStats } from '../engine/caches.js';
import { addCounts, EncodedBatch, emptyCounts, type BatchOutput, type IdentityRefreshResult, type RefreshCounts } from './evaluator.js';
import { encodeResults, NdjsonEncoder } from './ndjson-writer.js';
import type { Progress } from './progress.js';
import { invalidOption } from './run-options.js';
import { sumCaches, type RefreshSummary } from './summary.js';
import type { ComparedBatch } from './stored-comparison.js';

/**
 * How a run hands its batches out: result objects, NDJSON (which a worker thread encodes
 * itself), or only their comparison with the stored attributes (`verify`: the results stay in
 * the thread that compared them).
 */
export type RunOutput = 'objects' | 'ndjson' | 'comparison';

/** A batch as a runner produces it: its results, or (output 'ndjson', from a worker thread) their NDJSON already encoded. */
export interface ProducedBatch {
  readonly counts: RefreshCounts;
  readonly results?: readonly IdentityRefreshResult[];
  readonly bytes?: Uint8Array;
  readonly comparison?: ComparedBatch;
}

/** The summary's members that describe the run rather than count it. */
export type RunFacts = Pick<RefreshSummary, 'profile' | 'fixtures' | 'shard' | 'workers' | 'batchSize' | 'tenantIdentities' | 'accounts' | 'accountsIndex' | 'managers' | 'api'> & {
  /** Cache counters of every engine of the run. */
  caches: Iterable<Record<string, CacheStats>>;
};

/** The counters of one run, and its timing. */
export class RunTally {
  private readonly counts = emptyCounts();
  private started = 0;
  private elapsed = 0;
  private iterated = false;
  private complete = false;

  constructor(private readonly onProgress: ((progress: Progress) => void) | undefined) {}

  /**
   * Iterate a run's batches (once per run), counting each and reporting progress (`total`: the
   * identities expected, given those done); complete when the batches ended without the consumer stopping.
   */
  async *count<T extends ProducedBatch>(batches: () => AsyncIterable<T>, total: (done: number) => number): AsyncGenerator<T, void, undefined> {
    if (this.iterated) invalidOption('a refresh run can be iterated only once', '');
    this.iterated = true;
    this.started = performance.now();
    try {
      for await (const batch of batches()) {
        addCounts(this.counts, batch.counts);
        const done = this.counts.identities;
        this.onProgress?.({ done, total: total(done), elapsedMs: performance.now() - this.started });
        yield batch;
      }
      this.complete = true;
    } finally {
      this.elapsed = performance.now() - this.started;
    }
  }

  summary(facts: RunFacts): RefreshSummary {
    const elapsedMs = this.elapsed > 0 ? this.elapsed : this.started > 0 ? performance.now() - this.started : 0;
    const c = this.counts;
    return {
      profile: facts.profile,
      fixtures: facts.fixtures,
      shard: facts.shard,
      workers: facts.workers,
      batchSize: facts.batchSize,
      tenantIdentities: facts.tenantIdentities,
      identities: c.identities,
      complete: this.complete,
      identitiesWithErrors: c.identitiesWithErrors,
      attributes: c.attributes,
      errors: c.errors,
      errorsByCode: { ...c.errorsByCode },
      accounts: facts.accounts,
      accountsIndex: facts.accountsIndex,
      managers: facts.managers,
      elapsedMs,
      identitiesPerSecond: elapsedMs > 0 ? (c.identities * 1000) / elapsedMs : 0,
      caches: sumCaches(facts.caches),
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      ...(facts.api ? { api: facts.api } : {}),
    };
  }
}

/** Batches of result objects. */
export async function* resultBatches(batches: AsyncIterable<ProducedBatch>): AsyncGenerator<readonly IdentityRefreshResult[], void, undefined> {
  for await (const batch of batches) yield batch.results ?? [];
}

/** Batches as NDJSON: serialised here by the writer, unless a worker thread sent them encoded. */
export async function* ndjsonBatches(batches: AsyncIterable<ProducedBatch>): AsyncGenerator<BatchOutput, void, undefined> {
  const encoder = new NdjsonEncoder();
  for await (const batch of batches) yield new EncodedBatch(batch.bytes ?? encodeResults(encoder, batch.results ?? []), batch.counts);
}

/** Batches' comparisons with the stored attributes (a run with the `compare` option). */
export async function* comparisonBatches(batches: AsyncIterable<ProducedBatch>): AsyncGenerator<ComparedBatch, void, undefined> {
  for await (const batch of batches) {
    if (batch.comparison === undefined) invalidOption('comparisons() needs the compare option', 'compare');
    yield batch.comparison;
  }
}
