// The streaming refresh runner of a fixture tenant: options validated and frozen, the tenant
// streamed in batches to the calling thread's evaluator or to a piscina pool, batches yielded in
// input order as result objects or as NDJSON (tally.ts), cache statistics gathered for the summary.

import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { CacheSizes, CacheStats } from '../engine/caches.js';
import type { Limits } from '../engine/types.js';
import type { IdentityProfile } from '../providers/types.js';
import type { TransformDocument } from '../providers/types.js';
import type { TenantProviderOptions, TenantProviders } from '../providers/tenant/index.js';
import { createBatchEvaluator, loadStaticFixtures, type BatchOutput, type EvaluatorConfig, type IdentityRefreshResult } from './evaluator.js';
import { loadRulesModule, rulesModuleUrl } from '../engine/rules-module.js';
import { reachesType } from '../engine/references.js';
import { autoThreads, busyCores, estimateWork, freeCores } from './auto-workers.js';
import { canStartThreads, DEFAULT_WORKER_HEAP_MB, RefreshPool, threadsLoadTypeScript } from './pool.js';
import { resolveProfile } from './profile-source.js';
import type { Progress } from './progress.js';
import { checkTransforms, resolveRunOptions, resolveThreadOptions, invalidOption as invalid } from './run-options.js';
import type { Shard } from './shard.js';
import type { RefreshSummary } from './summary.js';
import { comparisonBatches, ndjsonBatches, resultBatches, RunTally, type ProducedBatch, type RunOutput } from './tally.js';
import type { ComparedBatch, ComparisonConfig } from './stored-comparison.js';
import { RecordReader, type BatchPlan } from './fixture-stream/record-reader.js';
import { NdjsonEncoder } from './ndjson-writer.js';
import { evaluateToNdjson } from './slices.js';
import { interruptible } from './interruptible.js';
import { TenantStream, type TenantScan } from './fixture-stream/stream.js';

export interface RefreshOptions {
  /** The fixtures directory (identities.json, accounts.json, sources.json, transforms/, identity-profiles/). */
  fixtures?: string;
  /**
   * Instead of fixtures: a platform tenant, by its API credentials or as tenant providers
   * (createTenantProviders). Its identities are paged from search in id order.
   */
  tenant?: TenantProviderOptions | TenantProviders;
  /** A profile object, a profile file, or the name, id (or, in fixtures, file name) of a tenant profile. Default: the tenant's first profile. */
  profile?: string | IdentityProfile;
  /** Worker threads; 0 evaluates on the calling thread. Default 'auto': chosen from the work, at most one per core, 0 for a tenant too small for threads to pay (auto-workers.ts). */
  workers?: number | 'auto';
  /**
   * Each worker thread's heap limit (V8's old generation), in MB; default 1024. A thread that
   * reaches it is stopped and the run fails with REFRESH_WORKER_FAILED.
   */
  workerHeapMb?: number;
  /** Identities per batch (per worker task). Default 256. */
  batchSize?: number;
  /** Refresh only this shard: `{ index, count }` or "i/n". */
  shard?: Shard | string | null;
  /** Fixed evaluation time (dateMath and dateCompare "now"). Default: the system clock. */
  now?: Date | string;
  cacheSizes?: Partial<CacheSizes>;
  limits?: Partial<Limits>;
  /**
   * The transforms that `reference` resolves, instead of the tenant's (fixtures: transforms/;
   * a tenant: its saved transforms). Impact analysis evaluates a pull request's versions so.
   */
  transforms?: readonly TransformDocument[];
  /** Called after each batch. */
  onProgress?: (progress: Progress) => void;
  /**
   * Compare each result with the identity's stored attributes, where it is evaluated (on a
   * worker thread too): what `verify` runs; read with comparisons().
   */
  compare?: ComparisonConfig;
  /**
   * A rules module (a file path): an ES module whose default export, or export `rules`, is an
   * object of rule functions by name (createEngine's `rules`). Each worker thread imports it.
   */
  rules?: string;
}

export { DEFAULT_BATCH_SIZE } from './run-options.js';
const OPTION_KEYS = new Set(['fixtures', 'profile', 'workers', 'workerHeapMb', 'batchSize', 'shard', 'now', 'cacheSizes', 'limits', 'transforms', 'onProgress', 'rules', 'compare']);


interface Resolved {
  fixtures: string;
  profile: IdentityProfile;
  workers: number | 'auto';
  workerHeapMb: number;
  batchSize: number;
  shard: Shard | null;
  config: EvaluatorConfig;
  onProgress: ((progress: Progress) => void) | undefined;
}

function resolveOptions(options: RefreshOptions): Resolved {
  if (options === null || typeof options !== 'object') invalid('refresh options must be an object', '');
  if (options.tenant !== undefined) invalid('RefreshRunner refreshes a fixtures directory; refresh a tenant with refresh(), refreshToStream() or TenantRefreshRunner', 'tenant');
  for (const key of Object.keys(options)) if (!OPTION_KEYS.has(key)) invalid(`unknown refresh option "${key}"`, key);
  if (typeof options.fixtures !== 'string' || options.fixtures === '') invalid('refresh needs --fixtures <dir> or --tenant <url> (the option fixtures or tenant)', 'fixtures');
  const threads = resolveThreadOptions(options);
  const workers = threads.workers;
  const workerHeapMb = threads.workerHeapMb ?? DEFAULT_WORKER_HEAP_MB;
  const { batchSize, shard, now } = resolveRunOptions(options);
  const fixtures = resolve(options.fixtures!);
  const profile = resolveProfile(fixtures, options.profile);
  if (options.rules !== undefined && (typeof options.rules !== 'string' || options.rules === '')) invalid('rules must name a rules module file', 'rules');
  // A usernameGenerator checks its candidates against the whole tenant and the names issued in
  // this run: one provider, on the one thread that evaluates in identities.json's order (this
  // one, or a single worker thread, which a server takes to keep its own thread answering).
  const transforms = options.transforms !== undefined ? checkTransforms(options.transforms) : loadStaticFixtures(fixtures).transforms;
  const byName = new Map(transforms.map((t) => [t.name, t]));
  const uniqueness = reachesType(profile, 'usernameGenerator', (name) => byName.get(name));
  if (uniqueness && workers !== 'auto' && workers > 1) {
    invalid('the profile uses usernameGenerator, whose names must stay unique across the run: it refreshes on one thread (workers 0, 1 or auto)', 'workers');
  }
  const config: EvaluatorConfig = {
    fixtures,
    profile,
    ...(now !== undefined ? { now } : {}),
    ...(options.cacheSizes ? { cacheSizes: { ...options.cacheSizes } } : {}),
    ...(options.limits ? { limits: { ...options.limits } } : {}),
    ...(options.transforms !== undefined ? { transforms } : {}),
    ...(options.rules !== undefined ? { rulesModule: rulesModuleUrl(options.rules) } : {}),
    ...(uniqueness ? { uniqueness: true } : {}),
    ...(options.compare !== undefined ? { compare: options.compare } : {}),
  };
  return { fixtures: options.fixtures!, profile, workers, workerHeapMb, batchSize, shard, config, onProgress: options.onProgress };
}

/**
 * One refresh run. `batches()` may be iterated once; `summary()` describes the run so far and
 * is complete when the iteration has ended.
 */
export class RefreshRunner {
  private readonly options: Resolved;
  private readonly tally: RunTally;
  private readonly caches = new Map<number, Record<string, CacheStats>>();
  private scan: TenantScan | null = null;
  private workers = 0;

  constructor(options: RefreshOptions) {
    this.options = resolveOptions(options);
    this.tally = new RunTally(this.options.onProgress);
  }

  /** The identity profile being evaluated. */
  get profile(): IdentityProfile {
    return this.options.profile;
  }

  /** The run's batches as NDJSON (serialised by the writer, or encoded by the worker threads). */
  batches(): AsyncGenerator<BatchOutput, void, undefined> {
    return ndjsonBatches(this.counted('ndjson'));
  }

  /** The run's batches as result objects, in the order of identities.json. */
  results(): AsyncGenerator<readonly IdentityRefreshResult[], void, undefined> {
    return resultBatches(this.counted('objects'));
  }

  /** The run's batches compared with the stored attributes (the compare option), in the order of identities.json. */
  comparisons(): AsyncGenerator<ComparedBatch, void, undefined> {
    return comparisonBatches(this.counted('comparison'));
  }

  private counted(output: RunOutput): AsyncGenerator<ProducedBatch, void, undefined> {
    return this.tally.count(() => this.produce(output), () => this.scan?.selected ?? 0);
  }

  private async *produce(output: RunOutput): AsyncGenerator<ProducedBatch, void, undefined> {
    const { config, batchSize } = this.options;
    let pool: RefreshPool | null = null;
    // Built on this thread in both modes: a tenant that cannot load fails here, once, with its own
    // error. Names issued on a worker thread (workers 1) need no uniqueness index here: building it
    // reads both files, which would hold this thread (a server's) for as long.
    const onWorker = config.uniqueness === true && this.options.workers === 1;
    const local = createBatchEvaluator(onWorker ? { ...config, uniqueness: false } : config, config.rulesModule === undefined ? undefined : await loadRulesModule(config.rulesModule));
    this.workers = await this.threadCount();
    // Started before the pre-passes, so that the threads load while this thread scans.
    if (this.workers > 0) pool = new RefreshPool(this.workers, randomUUID(), config, this.options.workerHeapMb);
    const stream = await this.open(pool);
    this.scan = stream.scan;
    if (pool === null) {
      const reader = new RecordReader(stream.files);
      try {
        const encoder = output === 'ndjson' ? new NdjsonEncoder() : null;
        const evaluate = (plan: BatchPlan) => (encoder !== null ? evaluateToNdjson(local, encoder, reader.records(plan)) : local.run(reader.records(plan)));
        // A rule from a rules module is the one unbounded piece of a batch: Ctrl-C stops it there.
        const guarded = config.rulesModule === undefined ? evaluate : (plan: BatchPlan) => interruptible(() => evaluate(plan));
        for (const plan of stream.plans(batchSize)) {
          const batch = guarded(plan);
          this.caches.set(0, local.cacheStats());
          yield batch;
        }
      } finally {
        reader.close();
      }
    } else {
      for await (const result of pool.run(stream.plans(batchSize), stream.files, output)) {
        this.caches.set(result.threadId, result.caches);
        yield result;
      }
    }
  }

  /**
   * Scan the tenant: on this thread, or with the pool's threads scanning accounts.json too, each
   * once it has built the run's evaluator (prepare() first: a thread slow to be ready then
   * simply takes fewer ranges). This thread and the scanning threads together need no more than
   * the cores: on 2 cores with 2 workers, a second scanning thread would only share the cores
   * with the other two, and its isolate would compile the scan's code once more (some 15
   * optimising compilations) and run its first ranges slower, before that code is ready.
   */
  private open(pool: RefreshPool | null): TenantStream | Promise<TenantStream> {
    const { config, shard } = this.options;
    if (pool === null) return new TenantStream(config.fixtures, shard);
    pool.prepare();
    const scanners = Math.min(pool.threads, availableParallelism() - 1);
    return TenantStream.scanned(config.fixtures, shard, scanners, (ranges, port) => pool.scanAccounts(ranges, port));
  }

  /**
   * 'auto': chosen from the work and the cores other processes leave idle (auto-workers.ts), 0
   * in a process where a refresh thread died (no thread is started again there: pool.ts).
   */
  private async threadCount(): Promise<number> {
    const workers = this.options.workers;
    if (this.options.config.uniqueness) return workers === 1 ? 1 : 0;
    const cores = availableParallelism();
    // More threads than cores only add heaps and start-up (64 threads: 1.2 GB and a minute for
    // one batch) to CPU-bound batches: an explicit count is capped at the cores.
    if (workers !== 'auto') return Math.min(workers, cores);
    const { config, shard } = this.options;
    const work = estimateWork(config.fixtures, config.profile, shard);
    const typescript = threadsLoadTypeScript();
    // The idle cores are sampled only when the work would take threads on every core.
    let threads = autoThreads({ work, cores, typescript });
    if (threads > 0) threads = autoThreads({ work, cores: freeCores(cores, await busyCores(cores)), typescript });
    return threads > 0 && canStartThreads(threads, this.options.workerHeapMb) ? threads : 0;
  }

  summary(): RefreshSummary {
    const scan = this.scan;
    return this.tally.summary({
      profile: String(this.options.profile.name),
      fixtures: this.options.fixtures,
      shard: this.options.shard,
      workers: this.workers,
      batchSize: this.options.batchSize,
      tenantIdentities: scan?.total ?? 0,
      accounts: scan?.accounts ?? 0,
      accountsIndex: scan?.accountsIndex ?? 'merge',
      managers: scan?.managers ?? 0,
      caches: this.caches.values(),
    });
  }
}
