// The worker pool of a refresh (every core at work): piscina threads, each with its own
// evaluator; batch plans (a few numbers per identity, worker.ts reads the records) are
// dispatched with a bounded window and the results yielded in batch order, so the output order
// is the input order whatever thread finishes first.
//
// The threads live as long as the process: re2's native addon (re2@1.23) crashes the whole
// process ("Check failed: node->IsInUse()" in WrappedRE2Set::Init) when a thread loads it after
// another thread that had loaded it has exited — uhop/node-re2#235. So pools are created once
// per thread count, kept, and never destroyed; piscina unrefs idle threads, so they do not keep
// the process alive. Each run sends its own evaluator config (in shared memory,
// shared-config.ts), keyed by a run id.

import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { codedError, TransformsError } from '../errors/index.js';
import type { EvaluatorConfig } from './evaluator.js';
import { shareConfig, type SharedConfig } from './shared-config.js';
import type { RunOutput } from './tally.js';
import type { MessagePort } from 'node:worker_threads';
import type { SharedRanges } from './fixture-stream/account-runs.js';
import type { BatchPlan, TenantFiles } from './fixture-stream/record-reader.js';
import type { PrepareTask, ScanTask, WorkerFailure, WorkerResult, WorkerTask } from './worker.js';

/**
 * The worker module. From the built package it is worker.js next to this file; when this file
 * runs as TypeScript (tests, tsx scripts) the worker is the .ts file and threads load it
 * through tsx, which is then installed (it is a dev dependency).
 */
function workerLocation(): { filename: string; execArgv: string[] } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { filename: new URL('./worker.js', here).href, execArgv: [] };
  const loader = pathToFileURL(createRequire(here).resolve('tsx')).href;
  return { filename: new URL('./worker.ts', here).href, execArgv: ['--import', loader] };
}

/**
 * Run options that transfer `item`. piscina 5 types transferList by inferring from
 * MessagePort.postMessage, which @types/node overloads, and the inference picks the options
 * overload; the array is what piscina passes on to postMessage.
 */
function transferring(item: ArrayBufferLike | MessagePort): Parameters<Piscina['run']>[1] {
  return { transferList: [item] } as unknown as Parameters<Piscina['run']>[1];
}

/** What the threads are sent (worker.ts: a batch, prepare(), scanAccounts()) and answer. */
type Task = WorkerTask | PrepareTask | ScanTask;
type Reply = WorkerResult | WorkerFailure | boolean | number;

const pools = new Map<number, Piscina<Task, Reply>>();

/**
 * Each thread's young generation, in MB (V8's default is 48 on 64 bits: 16 MB semi-spaces). A
 * worker encodes a batch a few records at a time (worker.ts), so little of it is alive when the
 * young generation is collected: 12 MB (4 MB semi-spaces) then costs no more CPU than the
 * default and takes some 40 MiB per thread off the peak RSS (docs/bench-refresh.md). With whole
 * batches alive it had cost a tenth more CPU: more of each batch was promoted.
 */
const YOUNG_GENERATION_MB = 12;

function poolOf(threads: number): Piscina<Task, Reply> {
  let pool = pools.get(threads);
  if (!pool) {
    const { filename, execArgv } = workerLocation();
    pool = new Piscina<Task, Reply>({
      filename,
      execArgv,
      minThreads: threads,
      maxThreads: threads,
      // One batch at a time per thread: evaluation is synchronous CPU work.
      concurrentTasksPerWorker: 1,
      // Never retire a thread (see the header): idle threads are unref'd, not terminated.
      idleTimeout: Number.MAX_SAFE_INTEGER,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    pools.set(threads, pool);
  }
  return pool;
}

export class RefreshPool {
  private readonly piscina: Piscina<Task, Reply>;

  /** Settles when every thread's prepare task has. */
  private prepared: Promise<unknown> = Promise.resolve();

  /** What every task of the run carries: the config, serialised once (shared-config.ts). */
  private readonly shared: SharedConfig;

  /** Threads start loading now, so that they are ready when the tenant's pre-pass needs them. */
  constructor(
    readonly threads: number,
    private readonly runId: string,
    config: EvaluatorConfig,
  ) {
    this.piscina = poolOf(threads);
    this.shared = shareConfig(config);
  }

  /**
   * Have each thread build the run's evaluator (worker.ts prepare()) while this thread starts
   * the pre-pass: an idle thread takes one task at a time, so the `threads` tasks spread over
   * the threads, each then taking its part of the pre-pass.
   */
  prepare(): void {
    const task: PrepareTask = { runId: this.runId, config: this.shared };
    this.prepared = Promise.allSettled(Array.from({ length: this.threads }, () => this.piscina.run(task, { name: 'prepare' })));
  }

  /** Have a thread of the pool scan ranges of accounts.json for the pre-pass (fixture-stream/stream.ts RangeScanner). */
  scanAccounts(ranges: SharedRanges, port: MessagePort): Promise<unknown> {
    return this.piscina.run({ ranges, port }, { name: 'scanAccounts', ...transferring(port) });
  }

  /**
   * Evaluate batches on the pool, at most `threads × 2` in flight (so memory stays bounded),
   * yielding results in the order of the batches. Each plan's buffer is transferred.
   */
  async *run(batches: Iterable<BatchPlan>, tenant: TenantFiles, output: RunOutput): AsyncGenerator<WorkerResult, void, undefined> {
    const window = this.threads * 2;
    const pending = new Map<number, Promise<WorkerResult | WorkerFailure>>();
    const iterator = batches[Symbol.iterator]();
    let issued = 0;
    let next = 0;
    let exhausted = false;
    try {
      for (;;) {
        while (!exhausted && pending.size < window) {
          const step = iterator.next();
          if (step.done) {
            exhausted = true;
            break;
          }
          const plan = step.value;
          // The default export (evaluateBatch) answers a batch.
          const task = this.piscina.run({ runId: this.runId, config: this.shared, tenant, plan, output }, transferring(plan.buffer)) as Promise<WorkerResult | WorkerFailure>;
          // Awaited in order below; this keeps a later batch's failure from being "unhandled" meanwhile.
          task.catch(() => undefined);
          pending.set(issued++, task);
        }
        const head = pending.get(next);
        if (!head) return;
        let result: WorkerResult | WorkerFailure;
        try {
          result = await head;
        } catch (error) {
          throw codedError('REFRESH_WORKER_FAILED', `a refresh worker failed on batch ${next}: ${(error as Error).message}`, { cause: error, details: { batch: next } });
        }
        if ('error' in result) {
          const { code, message, path, details } = result.error;
          throw new TransformsError(code, message, { ...(path !== undefined ? { path } : {}), ...(details !== undefined ? { details } : {}) });
        }
        pending.delete(next++);
        yield result;
      }
    } finally {
      iterator.return?.();
      // Let the tasks still in flight settle, so that the next run starts on idle threads.
      await Promise.allSettled([this.prepared, ...pending.values()]);
    }
  }
}
