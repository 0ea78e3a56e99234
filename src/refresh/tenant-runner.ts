// A refresh of a platform tenant over its API (`refresh --tenant`): identities paged
// from search in id order, each batch's accounts and managers fetched in bulk before it is
// evaluated, so that evaluation reads from the providers' cache; NDJSON lines in id order.
// Evaluation stays on the calling thread: the tenant's answers, not the CPU, bound the rate.

import { existsSync, statSync } from 'node:fs';
import { createEngine } from '../engine/engine.js';
import { loadRulesModule } from '../engine/rules-module.js';
import type { CacheStats } from '../engine/caches.js';
import { createMemoryProviders } from '../providers/memory.js';
import { readJsonFile } from '../providers/fixtures.js';
import type { IdentityProfile } from '../providers/types.js';
import { createTenantProviders, type TenantProviderOptions, type TenantProviders } from '../providers/tenant/index.js';
import type { Identity, TransformProvider } from '../providers/types.js';
import { countedResult, emptyCounts, type BatchOutput, type EvaluatedBatch, type IdentityRefreshResult } from './evaluator.js';
import { checkProfile } from './profile-source.js';
import type { RefreshOptions } from './runner.js';
import { checkTransforms, invalidOption as invalid, resolveRunOptions } from './run-options.js';
import { shardOf, type Shard } from './shard.js';
import type { RefreshSummary } from './summary.js';
import { comparisonBatches, ndjsonBatches, resultBatches, RunTally } from './tally.js';
import { compareIdentity, emptyComparison, type ComparedBatch } from './stored-comparison.js';

// workerHeapMb is accepted and has nothing to limit: a tenant refreshes on the calling thread.
const OPTION_KEYS = new Set(['tenant', 'profile', 'workers', 'workerHeapMb', 'batchSize', 'shard', 'now', 'cacheSizes', 'limits', 'transforms', 'onProgress', 'rules', 'compare']);


export function isProviders(value: TenantProviderOptions | TenantProviders): value is TenantProviders {
  return typeof (value as TenantProviders).listIdentities === 'function';
}

/** `--profile` against a tenant: a profile object, a file, or a tenant profile's name or id; absent, the tenant's first profile. */
export async function tenantProfile(providers: TenantProviders, profile: string | IdentityProfile | undefined): Promise<IdentityProfile> {
  if (profile !== undefined && typeof profile !== 'string') return checkProfile(profile);
  if (profile !== undefined && existsSync(profile) && statSync(profile).isFile()) return checkProfile(readJsonFile(profile), profile);
  const available = await providers.listIdentityProfiles();
  const found = profile === undefined ? available[0] : available.find((p) => p.name === profile || p.id === profile);
  if (!found) {
    const names = available.map((p) => JSON.stringify(p.name)).join(', ') || 'none';
    if (profile === undefined) invalid(`the tenant ${providers.client.baseUrl} has no identity profile; pass --profile <file>`, 'profile');
    invalid(`--profile "${profile}" is neither a file nor a profile of ${providers.client.baseUrl} (available: ${names})`, 'profile');
  }
  return checkProfile(found, `${providers.client.baseUrl}/v3/identity-profiles/${String(found.id ?? found.name)}`);
}

export class TenantRefreshRunner {
  private readonly providers: TenantProviders;
  private readonly batchSize: number;
  private readonly shard: Shard | null;
  private readonly clock: (() => Date) | undefined;
  private readonly options: RefreshOptions;
  /** The `transforms` option's provider, which replaces the tenant's saved transforms. */
  private readonly transforms: TransformProvider | null;
  private readonly tally: RunTally;
  private caches: Record<string, CacheStats> = {};
  private resolvedProfile: IdentityProfile | null = null;
  private total = 0;
  private managers = 0;

  constructor(options: RefreshOptions) {
    for (const key of Object.keys(options)) if (!OPTION_KEYS.has(key)) invalid(key === 'fixtures' ? 'refresh takes either fixtures or tenant, not both' : `unknown refresh option "${key}"`, key);
    const tenant = options.tenant;
    if (tenant === null || typeof tenant !== 'object') invalid('tenant must be tenant options ({ baseUrl, clientId, clientSecret }) or tenant providers', 'tenant');
    if (options.workers !== undefined && options.workers !== 'auto' && options.workers !== 0) {
      invalid('a refresh of a tenant evaluates on the calling thread (the API bounds the rate): --workers must be 0 or auto', 'workers');
    }
    const { batchSize, shard, now } = resolveRunOptions(options);
    this.batchSize = batchSize;
    this.shard = shard;
    if (now !== undefined) {
      const t = new Date(now);
      this.clock = () => t;
    }
    this.providers = isProviders(tenant!) ? tenant : createTenantProviders(tenant!);
    this.transforms = options.transforms === undefined ? null : createMemoryProviders({ sources: [], identities: [], accounts: [], transforms: checkTransforms(options.transforms) }).transforms;
    this.options = options;
    this.tally = new RunTally(options.onProgress);
  }

  /** The identity profile being evaluated; known once iteration has started. */
  get profile(): IdentityProfile | null {
    return this.resolvedProfile;
  }

  /** The run's batches as NDJSON, serialised by the writer. */
  batches(): AsyncGenerator<BatchOutput, void, undefined> {
    return ndjsonBatches(this.counted());
  }

  /** The run's batches as result objects, in the order of identity ids. */
  results(): AsyncGenerator<readonly IdentityRefreshResult[], void, undefined> {
    return resultBatches(this.counted());
  }

  /** The run's batches compared with the stored attributes (the compare option), in the order of identity ids. */
  comparisons(): AsyncGenerator<ComparedBatch, void, undefined> {
    return comparisonBatches(this.counted());
  }

  private counted(): AsyncGenerator<EvaluatedBatch, void, undefined> {
    return this.tally.count(
      () => this.produce(),
      (done) => Math.max(this.shard === null ? this.total : Math.round(this.total / this.shard.count), done),
    );
  }

  private async *produce(): AsyncGenerator<EvaluatedBatch, void, undefined> {
    const profile = await tenantProfile(this.providers, this.options.profile);
    this.resolvedProfile = profile;
    const engine = createEngine({
      providers: this.transforms ? { sources: this.providers.sources, accounts: this.providers.accounts, identities: this.providers.identities, transforms: this.transforms } : this.providers,
      ...(this.clock ? { clock: this.clock } : {}),
      ...(this.options.cacheSizes ? { cacheSizes: this.options.cacheSizes } : {}),
      ...(this.options.limits ? { limits: this.options.limits } : {}),
      ...(this.options.rules !== undefined ? { rules: await loadRulesModule(this.options.rules) } : {}),
    });
    this.total = await this.providers.countIdentities();
    let batch: Identity[] = [];
    const run = async (identities: Identity[]): Promise<EvaluatedBatch> => {
      const ids = identities.map((i) => i.id);
      const managerIds = identities.map((i) => i.managerId).filter((m): m is string => typeof m === 'string' && m !== '');
      this.managers += new Set(managerIds).size;
      await Promise.all([this.providers.prefetchAccounts(ids), this.providers.prefetchIdentities(managerIds)]);
      const evaluated = await Promise.all(identities.map((identity) => engine.evaluateProfile(profile, identity)));
      const counts = emptyCounts();
      const results = identities.map((identity, i) => countedResult(counts, identity.id, evaluated[i]!));
      this.caches = engine.cacheStats();
      const compare = this.options.compare;
      if (compare === undefined) return { results, counts };
      // The accounts were fetched for the batch: the providers answer from their cache.
      const accounts = await Promise.all(identities.map((identity) => this.providers.accounts.listAccounts({ identityId: identity.id })));
      const comparison = emptyComparison();
      identities.forEach((identity, i) => compareIdentity(comparison, compare, identity, accounts[i]!, evaluated[i]!));
      return { results, counts, comparison };
    };
    for await (const page of this.providers.listIdentities()) {
      for (const identity of page) {
        if (this.shard !== null && shardOf(identity.id, this.shard.count) !== this.shard.index) continue;
        batch.push(identity);
        if (batch.length === this.batchSize) {
          yield await run(batch);
          batch = [];
        }
      }
    }
    if (batch.length > 0) yield await run(batch);
  }

  summary(): RefreshSummary {
    const stats = this.providers.stats();
    return this.tally.summary({
      profile: String(this.resolvedProfile?.name ?? (typeof this.options.profile === 'string' ? this.options.profile : '')),
      fixtures: this.providers.client.baseUrl,
      shard: this.shard,
      workers: 0,
      batchSize: this.batchSize,
      tenantIdentities: this.total,
      accounts: stats.accounts,
      accountsIndex: 'api',
      managers: this.managers,
      caches: [this.caches],
      api: { requests: stats.requests, retries: stats.retries, tokens: stats.tokens },
    });
  }
}
