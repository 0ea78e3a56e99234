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

/** The `transforms` option: an array of transform documents, each with a string name. */
export function checkTransforms(transforms: unknown): TransformDocument[] {
  if (!Array.isArray(transforms)) invalidOption('transforms must be an array of transform documents', 'transforms');
  (transforms as unknown[]).forEach((t, i) => {
    if (t === null || typeof t !== 'object' || typeof (t as { name?: unknown }).name !== 'string') invalidOption(`transforms[${i}] must be a transform document with a string "name"`, 'transforms');
  });
  return [...(transforms as TransformDocument[])];
}
