// The end-of-run summary of a refresh: identities, attributes, errors by code,
// throughput and cache hit rates, as data and as readable text.

import { terminalLines } from '../errors/terminal.js';
import type { CacheStats } from '../engine/caches.js';
import type { Shard } from './shard.js';

export interface CacheSummary extends CacheStats {
  /** hits / (hits + misses), or null before the first lookup. */
  hitRate: number | null;
}

export interface RefreshSummary {
  /** The profile's name. */
  profile: string;
  fixtures: string;
  shard: Shard | null;
  /** Worker threads (0: evaluated on the calling thread). */
  workers: number;
  batchSize: number;
  /** Identities in identities.json (every shard). */
  tenantIdentities: number;
  /** Identities refreshed (this shard). */
  identities: number;
  /** False when the consumer stopped before the end (the counts are then partial). */
  complete: boolean;
  identitiesWithErrors: number;
  /** Attribute values computed without error. */
  attributes: number;
  /** Attribute errors. */
  errors: number;
  errorsByCode: Record<string, number>;
  accounts: number;
  /** How accounts were joined: a merge join over grouped files, a byte-offset index, or fetched from a tenant's API. */
  accountsIndex: 'merge' | 'offsets' | 'api';
  /** Manager identities kept in memory. */
  managers: number;
  elapsedMs: number;
  identitiesPerSecond: number;
  /** Cache counters summed over every engine (one per worker). */
  caches: Record<string, CacheSummary>;
  /** Peak resident set size of the process, in bytes. */
  peakRssBytes: number;
  /** A refresh of a tenant over its API: requests sent (retries included), retries, tokens obtained. */
  api?: { requests: number; retries: number; tokens: number };
}

/** Sum the cache counters of several engines. */
export function sumCaches(perEngine: Iterable<Record<string, CacheStats>>): Record<string, CacheSummary> {
  const out: Record<string, CacheSummary> = {};
  for (const stats of perEngine) {
    for (const [name, s] of Object.entries(stats)) {
      const o = (out[name] ??= { size: 0, max: 0, hits: 0, misses: 0, hitRate: null });
      o.size += s.size;
      o.max += s.max;
      o.hits += s.hits;
      o.misses += s.misses;
    }
  }
  for (const o of Object.values(out)) o.hitRate = o.hits + o.misses === 0 ? null : o.hits / (o.hits + o.misses);
  return out;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const percent = (r: number | null) => (r === null ? 'n/a' : `${(r * 100).toFixed(r === 1 || r === 0 ? 0 : 1)}%`);

/** A readable multi-line summary. */
export function formatSummary(s: RefreshSummary): string {
  const lines: string[] = [];
  const shard = s.shard ? `, shard ${s.shard.index}/${s.shard.count}` : '';
  lines.push(`Identity refresh of ${s.fixtures} with profile "${s.profile}"${shard}`);
  const of = !s.complete ? ` (stopped early; ${int(s.tenantIdentities)} in the tenant)` : s.shard ? ` (of ${int(s.tenantIdentities)}; the others are in other shards)` : '';
  lines.push(`  identities   ${int(s.identities)}${of}, ${int(s.identitiesWithErrors)} with errors`);
  lines.push(`  attributes   ${int(s.attributes)} computed, ${int(s.errors)} errors`);
  const codes = Object.entries(s.errorsByCode).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  for (const [code, n] of codes) lines.push(`    ${code.padEnd(30)} ${int(n)}`);
  const joined = s.accountsIndex === 'merge' ? 'streamed with the identities' : s.accountsIndex === 'offsets' ? 'byte-offset index' : 'fetched from the tenant';
  lines.push(`  accounts     ${int(s.accounts)} (${joined}), ${int(s.managers)} managers ${s.accountsIndex === 'api' ? 'fetched' : 'kept'}`);
  if (s.api) lines.push(`  API          ${int(s.api.requests)} requests, ${int(s.api.retries)} retries, ${int(s.api.tokens)} token${s.api.tokens === 1 ? '' : 's'}`);
  const threads = s.workers === 0 ? 'main thread' : `${s.workers} worker${s.workers === 1 ? '' : 's'}`;
  lines.push(`  throughput   ${int(s.identitiesPerSecond)} identities/s (${(s.elapsedMs / 1000).toFixed(2)} s, ${threads}, batches of ${s.batchSize})`);
  const caches = Object.entries(s.caches)
    .map(([name, c]) => `${name} ${percent(c.hitRate)} (${int(c.hits)}/${int(c.hits + c.misses)})`)
    .join(', ');
  lines.push(`  cache hits   ${caches || 'n/a'}`);
  lines.push(`  peak RSS     ${(s.peakRssBytes / (1 << 20)).toFixed(0)} MiB`);
  return terminalLines(lines);
}
