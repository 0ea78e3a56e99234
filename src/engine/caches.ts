// The engine's caches (compiled transforms, regexes, templates, filters): lru-cache instances
// owned by one engine, with hit and miss counters for the refresh summary.

import { LRUCache } from 'lru-cache';

export interface CacheStats {
  size: number;
  max: number;
  hits: number;
  misses: number;
}

export class CountingCache<V extends {}> {
  /**
   * Created at the first value stored: lru-cache allocates its `max` slots up front (about
   * 0.2 ms for 1,000), and many engines fill few of their caches, or none (validateTransform
   * without an engine creates one per call).
   */
  private lru: LRUCache<string, V> | undefined = undefined;
  hits = 0;
  misses = 0;

  constructor(readonly max: number) {}

  /** The cached value for `key`, or the result of `build()` stored under it. */
  getOrBuild(key: string, build: () => V): V {
    const hit = this.lru?.get(key);
    if (hit !== undefined) {
      this.hits++;
      return hit;
    }
    this.misses++;
    const value = build();
    (this.lru ??= new LRUCache<string, V>({ max: Math.max(1, this.max) })).set(key, value);
    return value;
  }

  clear(): void {
    this.lru?.clear();
  }

  stats(): CacheStats {
    return { size: this.lru?.size ?? 0, max: this.max, hits: this.hits, misses: this.misses };
  }
}

export interface CacheSizes {
  transforms: number;
  regexes: number;
  templates: number;
  filters: number;
}

export const DEFAULT_CACHE_SIZES: CacheSizes = Object.freeze({
  transforms: 1000,
  regexes: 1000,
  templates: 2000,
  filters: 500,
});
