// The options both refresh runners read the same way (fixtures: runner.ts; a tenant over its
// API: tenant-runner.ts): batch size, shard, clock and progress callback, checked and resolved.

import { codedError } from '../errors/index.js';
import type { TransformDocument } from '../providers/types.js';
import type { Progress } from './progress.js';
import { checkShard, parseShard, type Shard } from './shard.js';

export const DEFAULT_BATCH_SIZE = 256;

export function invalidOption(message: string, option: string): never {
  throw codedError('REFRESH_OPTION_INVALID', message, { details: { option } });
}

export interface RunOptions {
  batchSize: number;
  shard: Shard | null;
  /** The fixed evaluation time as ISO 8601, or undefined for the system clock. */
  now: string | undefined;
  onProgress: ((progress: Progress) => void) | undefined;
}

export function resolveRunOptions(options: { batchSize?: number; shard?: Shard | string | null; now?: Date | string; onProgress?: (progress: Progress) => void }): RunOptions {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1 || batchSize > 100_000) invalidOption(`batchSize must be an integer from 1 to 100000, got ${String(batchSize)}`, 'batchSize');
  const shard = options.shard === undefined || options.shard === null ? null : typeof options.shard === 'string' ? parseShard(options.shard) : checkShard(options.shard);
  let now: string | undefined;
  if (options.now !== undefined) {
    const t = options.now instanceof Date ? options.now : new Date(options.now);
    if (Number.isNaN(t.getTime())) invalidOption(`now must be a valid date or ISO 8601 date-time, got ${String(options.now)}`, 'now');
    now = t.toISOString();
  }
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') invalidOption('onProgress must be a function', 'onProgress');
  return { batchSize, shard, now, onProgress: options.onProgress };
}

/**
 * The thread options a fixtures refresh reads (and impact passes on to its refreshes), checked:
 * workers 'auto' or 0–256, workerHeapMb 16–65536 when given (the pool applies its default).
 */
export function resolveThreadOptions(options: { workers?: number | 'auto'; workerHeapMb?: number }): { workers: number | 'auto'; workerHeapMb: number | undefined } {
  const workers = options.workers ?? 'auto';
  if (workers !== 'auto' && (!Number.isSafeInteger(workers) || workers < 0 || workers > 256)) invalidOption(`workers must be 'auto' or an integer from 0 to 256, got ${String(workers)}`, 'workers');
  const heap = options.workerHeapMb;
  if (heap !== undefined && (!Number.isSafeInteger(heap) || heap < 16 || heap > 65_536)) invalidOption(`workerHeapMb must be an integer from 16 to 65536 (MB), got ${String(heap)}`, 'workerHeapMb');
  return { workers, workerHeapMb: heap };
}

/** The `transforms` option: an array of transform documents, each with a string name. */
export function checkTransforms(transforms: unknown): TransformDocument[] {
  if (!Array.isArray(transforms)) invalidOption('transforms must be an array of transform documents', 'transforms');
  (transforms as unknown[]).forEach((t, i) => {
    if (t === null || typeof t !== 'object' || typeof (t as { name?: unknown }).name !== 'string') invalidOption(`transforms[${i}] must be a transform document with a string "name"`, 'transforms');
  });
  return [...(transforms as TransformDocument[])];
}
