// The piscina worker of a refresh (issue 6 "All cores"): one evaluator per run (providers
// loaded and the profile compiled once per run and thread), batches evaluated in order.

import { threadId } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import { isTransformsError } from '../errors.js';
import { createBatchEvaluator, type BatchEvaluator, type BatchOutput, type EvaluatorConfig } from './evaluator.js';
import type { CacheStats } from '../engine/caches.js';
import type { TenantRecord } from './tenant-stream.js';

export interface WorkerTask {
  /** Identifies the run: its evaluator is built on the first batch and reused for the others. */
  runId: string;
  config: EvaluatorConfig;
  records: TenantRecord[];
}

export interface WorkerResult extends BatchOutput {
  threadId: number;
  /** The cache counters of this thread's evaluator for the run, cumulative. */
  caches: Record<string, CacheStats>;
}

/** A coded error crosses the thread boundary as data (structured clone keeps only an Error's message). */
export interface WorkerFailure {
  error: { code: string; message: string; path?: string; details?: Record<string, unknown> };
}

// A few runs may share the process's threads at once; finished runs' evaluators age out.
const evaluators = new LRUCache<string, BatchEvaluator>({ max: 4 });

export default function evaluateBatch(task: WorkerTask): WorkerResult | WorkerFailure {
  try {
    let evaluator = evaluators.get(task.runId);
    if (!evaluator) evaluators.set(task.runId, (evaluator = createBatchEvaluator(task.config)));
    const output = evaluator.run(task.records);
    return { ...output, threadId, caches: evaluator.cacheStats() };
  } catch (error) {
    if (!isTransformsError(error)) throw error;
    const { code, message, path, details } = error;
    return { error: { code, message, ...(path !== undefined ? { path } : {}), ...(details !== undefined ? { details } : {}) } };
  }
}
