// The streaming refresh runner (issue 6): options validated and frozen, the tenant streamed in
// batches to the calling thread's evaluator or to a piscina pool, batches yielded as NDJSON text
// in input order, counters and cache statistics gathered for the summary.

import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CacheSizes, CacheStats } from '../engine/caches.js';
import type { Limits } from '../engine/types.js';
import { codedError } from '../errors/index.js';
import type { IdentityProfile } from '../providers/memory.js';
import type { TransformDocument } from '../providers/types.js';
import type { TenantProviderOptions, TenantProviders } from '../providers/tenant/index.js';
import { addCounts, createBatchEvaluator, emptyCounts, EncodedBatch, loadStaticFixtures, type BatchOutput, type EvaluatorConfig } from './evaluator.js';
import { loadRulesModule, rulesModuleUrl } from '../engine/rules-module.js';
import { usesOperation } from '../providers/uniqueness.js';
import { RefreshPool } from './pool.js';
import { resolveProfile } from './profile-source.js';
import type { Progress } from './progress.js';
import { checkTransforms, resolveRunOptions, DEFAULT_BATCH_SIZE, invalidOption as invalid } from './run-options.js';
import type { Shard } from './shard.js';
import { sumCaches, type RefreshSummary } from './summary.js';
import { RecordReader } from './record-reader.js';
import { TenantStream, type TenantScan } from './tenant-stream.js';

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
  /** Worker threads; 0 evaluates on the calling thread. Default 'auto': one per core, or 0 when identities.json is under 1 MiB. */
  workers?: number | 'auto';
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
   * A rules module (a file path): an ES module whose default export, or export `rules`, is an
   * object of rule functions by name (createEngine's `rules`). Each worker thread imports it.
   */
  rules?: string;
}

export { DEFAULT_BATCH_SIZE } from './run-options.js';
const AUTO_THREADS_MIN_BYTES = 1 << 20;
const OPTION_KEYS = new Set(['fixtures', 'profile', 'workers', 'batchSize', 'shard', 'now', 'cacheSizes', 'limits', 'transforms', 'onProgress', 'rules']);


interface Resolved {
  fixtures: string;
  profile: IdentityProfile;
  workers: number | 'auto';
  batchSize: number;
  shard: Shard | null;
  config: EvaluatorConfig;
  onProgress: ((progress: Progress) => void) | undefined;
}

function resolveOptions(options: RefreshOptions): Resolved {
  if (options === null || typeof options !== 'object') invalid('refresh options must be an object', '');
  if (options.tenant !== undefined) invalid('RefreshRunner refreshes a fixtures directory; refresh a tenant with refresh(), refreshToStream() or TenantRefreshRunner', 'tenant');
  for (const key of Object.keys(options)) if (!OPTION_KEYS.has(key)) invalid(`unknown refresh option "${key}"`, key);
  if (typeof options.fixtures !== 'string' || options.fixtures === '') invalid('fixtures must name a directory (or give tenant)', 'fixtures');
  const workers = options.workers ?? 'auto';
  if (workers !== 'auto' && (!Number.isSafeInteger(workers) || workers < 0 || workers > 256)) invalid(`workers must be 'auto' or an integer from 0 to 256, got ${String(workers)}`, 'workers');
  const { batchSize, shard, now } = resolveRunOptions(options);
  const fixtures = resolve(options.fixtures!);
  const profile = resolveProfile(fixtures, options.profile);
  if (options.rules !== undefined && (typeof options.rules !== 'string' || options.rules === '')) invalid('rules must name a rules module file', 'rules');
  // A usernameGenerator checks its candidates against the whole tenant and the names issued in
  // this run: one provider, on the thread that evaluates in identities.json's order.
  const transforms = options.transforms !== undefined ? checkTransforms(options.transforms) : loadStaticFixtures(fixtures).transforms;
  const byName = new Map(transforms.map((t) => [t.name, t]));
  const uniqueness = usesOperation(profile, 'usernameGenerator', (name) => byName.get(name));
  if (uniqueness && workers !== 'auto' && workers > 0) {
    invalid('the profile uses usernameGenerator, whose names must stay unique across the run: it refreshes on the calling thread (workers 0 or auto)', 'workers');
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
  };
  return { fixtures: options.fixtures!, profile, workers, batchSize, shard, config, onProgress: options.onProgress };
}

/**
 * One refresh run. `batches()` may be iterated once; `summary()` describes the run so far and
 * is complete when the iteration has ended.
 */
export class RefreshRunner {
  private readonly options: Resolved;
  private readonly counts = emptyCounts();
  private readonly caches = new Map<number, Record<string, CacheStats>>();
  private scan: TenantScan | null = null;
  private workers = 0;
  private started = 0;
  private elapsed = 0;
  private iterated = false;
  private complete = false;

  constructor(options: RefreshOptions) {
    this.options = resolveOptions(options);
  }

  /** The identity profile being evaluated. */
  get profile(): IdentityProfile {
    return this.options.profile;
  }

  async *batches(): AsyncGenerator<BatchOutput, void, undefined> {
    if (this.iterated) throw codedError('REFRESH_OPTION_INVALID', 'a refresh run can be iterated only once', { details: { option: '' } });
    this.iterated = true;
    const { config, batchSize } = this.options;
    this.started = performance.now();
    let pool: RefreshPool | null = null;
    try {
      // Built on this thread in both modes: a tenant that cannot load fails here, once, with its own error.
      const local = createBatchEvaluator(config, config.rulesModule === undefined ? undefined : await loadRulesModule(config.rulesModule));
      this.workers = this.threadCount();
      // Started before the pre-passes, so that the threads load while this thread scans.
      if (this.workers > 0) pool = new RefreshPool(this.workers, randomUUID(), config);
      const stream = await this.open(pool);
      this.scan = stream.scan;
      if (pool === null) {
        const reader = new RecordReader(stream.files);
        try {
          for (const plan of stream.plans(batchSize)) {
            const output = local.run(reader.records(plan));
            this.caches.set(0, local.cacheStats());
            yield this.account(output);
          }
        } finally {
          reader.close();
        }
      } else {
        for await (const result of pool.run(stream.plans(batchSize), stream.files)) {
          this.caches.set(result.threadId, result.caches);
          yield this.account(new EncodedBatch(result.bytes, result.counts));
        }
      }
      this.complete = true;
    } finally {
      this.elapsed = performance.now() - this.started;
    }
  }

  /**
   * Scan the tenant: on this thread, or with the pool's threads scanning accounts.json too, each
   * once it has built the run's evaluator (prepare() first: a thread slow to be ready then
   * simply takes fewer ranges).
   */
  private open(pool: RefreshPool | null): TenantStream | Promise<TenantStream> {
    const { config, shard } = this.options;
    if (pool === null) return new TenantStream(config.fixtures, shard);
    pool.prepare();
    return TenantStream.scanned(config.fixtures, shard, pool.threads, (ranges, port) => pool.scanAccounts(ranges, port));
  }

  /** 'auto': every core, except for a small tenant (identities.json under 1 MiB, about 2,000 identities) where threads cost more than they save. */
  private threadCount(): number {
    const workers = this.options.workers;
    if (this.options.config.uniqueness) return 0;
    if (workers !== 'auto') return workers;
    const file = join(this.options.config.fixtures, 'identities.json');
    const size = existsSync(file) ? statSync(file).size : 0;
    return size < AUTO_THREADS_MIN_BYTES ? 0 : availableParallelism();
  }

  private account(output: BatchOutput): BatchOutput {
    addCounts(this.counts, output.counts);
    this.options.onProgress?.({ done: this.counts.identities, total: this.scan?.selected ?? 0, elapsedMs: performance.now() - this.started });
    return output;
  }

  summary(): RefreshSummary {
    const scan = this.scan;
    const elapsedMs = this.elapsed > 0 ? this.elapsed : this.started > 0 ? performance.now() - this.started : 0;
    const c = this.counts;
    return {
      profile: String(this.options.profile.name),
      fixtures: this.options.fixtures,
      shard: this.options.shard,
      workers: this.workers,
      batchSize: this.options.batchSize,
      tenantIdentities: scan?.total ?? 0,
      identities: c.identities,
      complete: this.complete,
      identitiesWithErrors: c.identitiesWithErrors,
      attributes: c.attributes,
      errors: c.errors,
      errorsByCode: { ...c.errorsByCode },
      accounts: scan?.accounts ?? 0,
      accountsIndex: scan?.accountsIndex ?? 'merge',
      managers: scan?.managers ?? 0,
      elapsedMs,
      identitiesPerSecond: elapsedMs > 0 ? (c.identities * 1000) / elapsedMs : 0,
      caches: sumCaches(this.caches.values()),
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
    };
  }
}
