// The piscina worker of a refresh (issue 6 "All cores"): builds one evaluator from workerData
// (providers and the compiled profile live for the worker's lifetime) and evaluates batches.

import { threadId, workerData } from 'node:worker_threads';
import { createBatchEvaluator, type BatchOutput, type EvaluatorConfig } from './evaluator.js';
import type { CacheStats } from '../engine/caches.js';
import type { TenantRecord } from './tenant-stream.js';

export interface WorkerTask {
  records: TenantRecord[];
}

export interface WorkerResult extends BatchOutput {
  threadId: number;
  /** This worker's cumulative cache counters. */
  caches: Record<string, CacheStats>;
}

const evaluator = createBatchEvaluator(workerData as EvaluatorConfig);

export default function evaluateBatch(task: WorkerTask): WorkerResult {
  const output = evaluator.run(task.records);
  return { ...output, threadId, caches: evaluator.cacheStats() };
}
