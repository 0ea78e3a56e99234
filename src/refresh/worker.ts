// The piscina worker of a refresh: one evaluator and one record reader per
// run (providers loaded and the profile compiled once per run and thread). A thread first
// prepares the run and takes its part of the pre-pass (scanAccounts); then each task is a batch
// plan (where its records are): the worker reads their bytes from the files itself, evaluates
// them in order and sends the NDJSON back as UTF-8 bytes whose buffer is transferred, not copied.

import { threadId, type MessagePort } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { isTransformsError, type ErrorCode } from '../errors/index.js';
import type { CacheStats } from '../engine/caches.js';
import type { Identity } from '../providers/types.js';
import { addCounts, createBatchEvaluator, emptyCounts, type BatchEvaluator, type EvaluatorConfig, type IdentityRefreshResult, type RefreshCounts } from './evaluator.js';
import { NdjsonEncoder } from './ndjson-writer.js';
import { evaluateToNdjson, slices } from './slices.js';
import type { RunOutput } from './tally.js';
import { releaseScanBuffers, runBuffers, scanRange, takeRange, type ScannedRange, type SharedRanges } from './fixture-stream/account-runs.js';
import { expectDetachedBuffers } from './fixture-stream/free-now.js';
import { RecordReader, type BatchPlan, type TenantFiles } from './fixture-stream/record-reader.js';
import { loadRulesModule } from '../engine/rules-module.js';
import type { RuleFunction } from '../engine/types.js';
import { readConfig, type SharedConfig } from './shared-config.js';
import { addComparison, emptyComparison, type ComparedBatch } from './stored-comparison.js';

export interface WorkerTask {
  /** Identifies the run: its evaluator and reader are built on the first batch and reused for the others. */
  runId: string;
  /** The run's config, read only by a thread that has not built the run yet. */
  config: SharedConfig;
  tenant: TenantFiles;
  /** Transferred with the task. */
  plan: BatchPlan;
  /** What the batch is answered as: its results, or their NDJSON encoded on this thread (transferred, not copied). */
  output: RunOutput;
}

/** prepare(): the run to build an evaluator for. */
export type PrepareTask = Pick<WorkerTask, 'runId' | 'config'>;

/** scanAccounts(): the ranges to take, and where to post each one's runs. */
export interface ScanTask {
  ranges: SharedRanges;
  port: MessagePort;
}

export interface WorkerResult {
  /** output 'ndjson': the batch's NDJSON lines as UTF-8 (its buffer is transferred). */
  bytes?: Uint8Array;
  /** output 'objects': the batch's results. */
  results?: IdentityRefreshResult[];
  /** output 'comparison' (and 'objects' with the compare config): the results compared with the stored attributes. */
  comparison?: ComparedBatch;
  counts: RefreshCounts;
  threadId: number;
  /** The cache counters of this thread's evaluator for the run, cumulative. */
  caches: Record<string, CacheStats>;
}

/** A coded error crosses the thread boundary as data (structured clone keeps only an Error's message). */
export interface WorkerFailure {
  error: { code: ErrorCode; message: string; path?: string; details?: Record<string, unknown> };
}

interface Run {
  config: EvaluatorConfig;
  evaluator: BatchEvaluator;
  encoder: NdjsonEncoder;
  /** Made on the first batch (the pre-pass makes the managers' index the reader needs). */
  reader: RecordReader | null;
}

// This thread transfers buffers with every batch: V8 is told so before it optimises anything (free-now.ts).
expectDetachedBuffers();

// A few runs may share the process's threads at once; finished runs' evaluators age out.
const runs = new LRUCache<string, Run>({ max: 4 });

/** piscina's protocol for a result whose buffers move to the main thread. */
class Transferred<T extends object> {
  constructor(
    private readonly result: T,
    private readonly buffers: ArrayBufferLike[],
  ) {}
  get [transferableSymbol](): ArrayBufferLike[] {
    return this.buffers;
  }
  get [valueSymbol](): T {
    return this.result;
  }
}

/** move() hands piscina the wrapper; the main thread receives the result. */
function transferred<T extends object>(result: T, buffers: ArrayBufferLike[]): T {
  return move(new Transferred(result, buffers)) as unknown as T;
}

/** The pre-pass (fixture-stream/account-runs.ts): take ranges of accounts.json until none is left, posting each one's runs. */
export function scanAccounts(task: ScanTask): number {
  let scanned = 0;
  for (let i = takeRange(task.ranges); i !== -1; i = takeRange(task.ranges), scanned++) {
    const runs = scanRange(task.ranges, i);
    task.port.postMessage({ index: i, runs } satisfies ScannedRange, runBuffers(runs) as ArrayBuffer[]);
  }
  releaseScanBuffers();
  task.port.close();
  return scanned;
}

/** Rules modules imported by this thread, by URL (importing is asynchronous; evaluating is not). */
const loadedRules = new Map<string, Record<string, RuleFunction>>();

/** Run `then` once the run's rules module (if any) is imported. */
function withRules<T>(config: EvaluatorConfig, then: () => T): T | Promise<T> {
  const url = config.rulesModule;
  if (url === undefined || loadedRules.has(url)) return then();
  return loadRulesModule(url).then((rules) => {
    loadedRules.set(url, rules);
    return then();
  });
}

function runOf(runId: string, config: EvaluatorConfig): Run {
  let run = runs.get(runId);
  if (!run) {
    const rules = config.rulesModule === undefined ? undefined : loadedRules.get(config.rulesModule);
    runs.set(runId, (run = { config, evaluator: createBatchEvaluator(config, rules), encoder: new NdjsonEncoder(), reader: null }));
  }
  return run;
}

/** A task's config: the run's, once this thread has built it, else read from the task. */
function configOf(task: PrepareTask): EvaluatorConfig {
  return runs.get(task.runId)?.config ?? readConfig(task.config);
}

function failure(error: unknown): WorkerFailure {
  if (!isTransformsError(error)) throw error;
  const { code, message, path, details } = error;
  return { error: { code, message, ...(path !== undefined ? { path } : {}), ...(details !== undefined ? { details } : {}) } };
}

/**
 * Sent to each thread as the pre-pass starts: build the run's evaluator and compile the profile
 * (one evaluation of an identity without accounts, its result dropped; its few cache lookups
 * count in the thread's statistics), so that the first batch finds them ready. Failures are
 * left for that batch to report.
 */
export function prepare(task: PrepareTask): boolean | Promise<boolean> {
  try {
    const config = configOf(task);
    const build = () => {
      try {
        const run = runOf(task.runId, config);
        // A usernameGenerator would issue a name to the blank identity: its run is built only.
        if (!config.uniqueness) run.evaluator.evaluate({ id: '', name: '', attributes: {} } as Identity, [], null);
        return true;
      } catch {
        return false;
      }
    };
    const done = withRules(config, build);
    return done instanceof Promise ? done.catch(() => false) : done;
  } catch {
    return false;
  }
}

export default function evaluateBatch(task: WorkerTask): WorkerResult | WorkerFailure | Promise<WorkerResult | WorkerFailure> {
  const config = configOf(task);
  const done = withRules(config, () => evaluateLoaded(task, config));
  return done instanceof Promise ? done.catch(failure) : done;
}

function evaluateLoaded(task: WorkerTask, config: EvaluatorConfig): WorkerResult | WorkerFailure {
  try {
    const run = runOf(task.runId, config);
    run.reader ??= new RecordReader(task.tenant);
    if (task.output === 'objects') {
      let output;
      try {
        output = run.evaluator.run(run.reader.records(task.plan));
      } finally {
        run.reader.close();
      }
      return { results: output.results, counts: output.counts, ...(output.comparison ? { comparison: output.comparison } : {}), threadId, caches: run.evaluator.cacheStats() };
    }
    if (task.output === 'comparison') {
      // Slice by slice as below: only the differences outlive a slice.
      const counts = emptyCounts();
      const comparison = emptyComparison();
      try {
        for (const slice of slices(run.reader.records(task.plan))) {
          const output = run.evaluator.run(slice);
          addCounts(counts, output.counts);
          addComparison(comparison, output.comparison!);
          for (const line of output.comparison!.lines) comparison.lines.push(line);
        }
      } finally {
        run.reader.close();
      }
      return { counts, comparison, threadId, caches: run.evaluator.cacheStats() };
    }
    let encoded;
    try {
      encoded = evaluateToNdjson(run.evaluator, run.encoder, run.reader.records(task.plan));
    } finally {
      run.reader.close();
    }
    const { bytes, counts } = encoded;
    return transferred({ bytes, counts, threadId, caches: run.evaluator.cacheStats() }, [bytes.buffer]);
  } catch (error) {
    return failure(error);
  }
}
