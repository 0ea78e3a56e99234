// The worker pool of a refresh (every core at work): piscina threads, each with its own
// evaluator; batch plans (a few numbers per identity, worker.ts reads the records) are
// dispatched with a bounded window and the results yielded in batch order, so the output order
// is the input order whatever thread finishes first.
//
// The threads live as long as the process: re2's native addon (re2@1.23) crashes the whole
// process ("Check failed: node->IsInUse()" in WrappedRE2Set::Init) when a thread loads it after
// another thread that had loaded it has exited — uhop/node-re2#235. So pools are created once
// per thread count and heap limit, kept, and never destroyed; piscina unrefs idle threads, so
// they do not keep the process alive. Each run sends its own evaluator config (in shared
// memory, shared-config.ts), keyed by a run id.
//
// A thread that dies (its heap limit reached, an uncaught error, process.exit in a rules
// module) is not replaced: its run ends with REFRESH_WORKER_FAILED naming the batch, the pool
// is stopped, and no thread is started in this process again (worker-gate.ts keeps the one
// piscina starts in its place from loading re2); docs/decisions.md.

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
import type { GateData } from './worker-gate.js';
import { compiledWorker } from './worker-bundle.js';
import { expectDetachedBuffers } from './fixture-stream/free-now.js';

/** Whether the threads load TypeScript through tsx (this file runs as TypeScript): they then start several times slower. */
export function threadsLoadTypeScript(): boolean {
  return import.meta.url.endsWith('.ts');
}

/**
 * The worker module. From the built package it is worker.bundle.js next to this file, the
 * worker and everything it imports in one file (scripts/build-worker-bundle.ts): each thread
 * then reads and compiles one module instead of resolving a graph of some 170. A compiled tree
 * without it (tsc alone), or whose bundle does not belong to its worker.js (tsc run again over a
 * built tree, a bundle changed since), loads worker.js (worker-bundle.ts). When this file runs
 * as TypeScript (tests, tsx scripts) the worker is the .ts file and threads load it through tsx, which is then installed (it is a dev dependency).
 * worker-gate.ts, which piscina starts, loads the module `worker` names.
 */
function workerLocation(): { filename: string; execArgv: string[]; worker: GateData['worker'] } {
  const here = import.meta.url;
  if (!threadsLoadTypeScript()) return { filename: new URL('./worker-gate.js', here).href, execArgv: [], worker: compiledWorker(here) };
  const loader = pathToFileURL(createRequire(here).resolve('tsx')).href;
  return { filename: new URL('./worker-gate.ts', here).href, execArgv: ['--import', loader], worker: './worker.js' };
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

/** One pool of `threads` threads with one heap limit; `lost` once one of its threads has died. */
interface Threads {
  piscina: Piscina<Task, Reply>;
  lost: boolean;
}

const pools = new Map<string, Threads>();

/**
 * Batches a thread holds at once: the one it evaluates and the next, already posted to it, so
 * that it starts the next as soon as it finishes one instead of waiting for this thread to take
 * its result and post another (a wait that grows with the load of the machine: on 2 cores this
 * thread needs a core to answer, and both are busy with the workers).
 */
const BATCHES_PER_THREAD = 2;

type Balancer = NonNullable<NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer']>;

/**
 * piscina's least-busy choice, but for the pre-pass tasks (prepare, scanAccounts) only an idle
 * thread: those are meant one per thread, so that every thread takes its part of the pre-pass,
 * and a thread that was ready first must not take another's.
 */
const balancer: Balancer = (task, workers) => {
  const batch = task.name === 'default';
  let candidate: (typeof workers)[number] | null = null;
  for (const worker of workers) {
    if (worker.currentUsage === 0) return worker;
    if (!batch || worker.isRunningAbortableTask || worker.currentUsage >= BATCHES_PER_THREAD) continue;
    if (candidate === null || worker.currentUsage < candidate.currentUsage) candidate = worker;
  }
  return candidate;
};

/** 1 once a refresh thread of this process has died: worker-gate.ts reads it as a thread starts. */
const died = new Int32Array(new SharedArrayBuffer(4));

/**
 * Each thread's young generation, in MB (V8's default is 48 on 64 bits: 16 MB semi-spaces). A
 * worker encodes a batch a few records at a time (worker.ts), so little of it is alive when the
 * young generation is collected: 12 MB (4 MB semi-spaces) then costs no more CPU than the
 * default and takes some 40 MiB per thread off the peak RSS (docs/bench-refresh.md). With whole
 * batches alive it had cost a tenth more CPU: more of each batch was promoted.
 */
const YOUNG_GENERATION_MB = 12;

/**
 * Each thread's old generation limit, in MB, by default. V8 grows a heap after a full
 * collection by a factor that it caps by the heap's limit: 4 from 2 GB (what a thread gets by
 * default on a machine with 16 GB or more), between 1.3 and 2 below. With a 1 GB limit (a cap
 * of 1.6) a 2-worker refresh of a million identities peaked 30-40 MiB lower at the same speed,
 * as with 256 or 512 MB (docs/bench-refresh.md); 1 GB leaves the most room. A thread holds one
 * batch and its run's caches, tens of MB; one that reaches the limit is stopped and its run
 * fails with REFRESH_WORKER_FAILED.
 */
export const DEFAULT_WORKER_HEAP_MB = 1024;

/** piscina's error for the tasks of the threads it terminates (Piscina#destroy): the run was stopped, it did not fail there. */
const TERMINATED = 'Terminating worker thread';

function isTermination(error: unknown): boolean {
  return error instanceof Error && error.message === TERMINATED;
}

/** Whether a pool of `threads` threads with that heap limit can run: it exists, or no refresh thread of this process has died. */
export function canStartThreads(threads: number, heapMb = DEFAULT_WORKER_HEAP_MB): boolean {
  return pools.has(`${threads}/${heapMb}`) || Atomics.load(died, 0) === 0;
}

function poolOf(threads: number, heapMb: number): Threads {
  const key = `${threads}/${heapMb}`;
  const existing = pools.get(key);
  if (existing) return existing;
  if (Atomics.load(died, 0) !== 0) {
    throw codedError(
      'REFRESH_WORKER_FAILED',
      'a refresh worker thread of this process died earlier, and no thread is started again in this process (re2 would crash it): refresh with workers 0',
      { details: { workers: threads } },
    );
  }
  const { filename, execArgv, worker } = workerLocation();
  const piscina = new Piscina<Task, Reply>({
    filename,
    execArgv,
    minThreads: threads,
    maxThreads: threads,
    // Evaluation is synchronous CPU work: a thread runs one batch while the next waits in its queue.
    concurrentTasksPerWorker: BATCHES_PER_THREAD,
    loadBalancer: balancer,
    // Never retire a thread (see the header): idle threads are unref'd, not terminated.
    idleTimeout: Number.MAX_SAFE_INTEGER,
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, maxOldGenerationSizeMb: heapMb },
    workerData: { died, worker } satisfies GateData,
  });
  const pool: Threads = { piscina, lost: false };
  // piscina destroys a thread only when it died (idle threads are kept, pools never closed),
  // and then starts one in its place: the flag is set first, so that the new thread does not
  // load re2, and the pool is stopped, its other threads' tasks failing at once.
  piscina.on('workerDestroy', () => {
    if (pool.lost) return;
    pool.lost = true;
    Atomics.store(died, 0, 1);
    pools.delete(key);
    void piscina.destroy();
  });
  // A thread that dies with no task is reported as an 'error' event, which must have a
  // listener; its runs learn of it from `lost`.
  piscina.on('error', () => undefined);
  pools.set(key, pool);
  return pool;
}

/** The first failure of a run's tasks: the batch (null: the pre-pass), where it starts in identities.json, and the error. */
interface Failure {
  batch: number | null;
  first: number | null;
  error: unknown;
}

export class RefreshPool {
  private readonly pool: Threads;

  /** Settles when every thread's prepare task has. */
  private prepared: Promise<unknown> = Promise.resolve();

  /** What every task of the run carries: the config, serialised once (shared-config.ts). */
  private readonly shared: SharedConfig;

  private failure: Failure | null = null;

  /** Threads start loading now, so that they are ready when the tenant's pre-pass needs them. */
  constructor(
    readonly threads: number,
    private readonly runId: string,
    config: EvaluatorConfig,
    readonly heapMb = DEFAULT_WORKER_HEAP_MB,
  ) {
    this.pool = poolOf(threads, heapMb);
    // The pre-pass and the hand-over transfer buffers on this thread too (free-now.ts).
    expectDetachedBuffers();
    this.shared = shareConfig(config);
    this.ordered = config.uniqueness === true;
  }

  /**
   * Whether batches must be evaluated strictly one after the other: a usernameGenerator's names
   * are issued in identities.json's order (one thread, runner.ts), and two batches in flight on
   * a thread do not always start in the order they were sent.
   */
  private readonly ordered: boolean;

  /** Keep the first failure that is not the pool being stopped after it. */
  private noted<T>(task: Promise<T>, batch: number | null, first: number | null): Promise<T> {
    task.catch((error: unknown) => {
      if (!isTermination(error)) this.failure ??= { batch, first, error };
    });
    return task;
  }

  /**
   * Have each thread build the run's evaluator (worker.ts prepare()) while this thread starts
   * the pre-pass: an idle thread takes one task at a time, so the `threads` tasks spread over
   * the threads, each then taking its part of the pre-pass.
   */
  prepare(): void {
    const task: PrepareTask = { runId: this.runId, config: this.shared };
    this.prepared = Promise.allSettled(Array.from({ length: this.threads }, () => this.noted(this.pool.piscina.run(task, { name: 'prepare' }), null, null)));
  }

  /** Have a thread of the pool scan ranges of accounts.json for the pre-pass (fixture-stream/stream.ts RangeScanner). */
  scanAccounts(ranges: SharedRanges, port: MessagePort): Promise<unknown> {
    if (this.pool.lost) {
      port.close();
      return Promise.reject(this.failed(null));
    }
    return this.noted(this.pool.piscina.run({ ranges, port }, { name: 'scanAccounts', ...transferring(port) }), null, null);
  }

  /**
   * Evaluate batches on the pool, at most `threads × 4` in flight (so memory stays bounded:
   * each is a plan going and its NDJSON coming back), yielding results in the order of the
   * batches. Two of them are on each thread (BATCHES_PER_THREAD); the others wait in the pool's
   * queue for the thread that frees first, so that a thread ahead of the batch awaited here
   * keeps working. Each plan's buffer is transferred.
   */
  async *run(batches: Iterable<BatchPlan>, tenant: TenantFiles, output: RunOutput): AsyncGenerator<WorkerResult, void, undefined> {
    const window = this.ordered ? 1 : this.threads * 2 * BATCHES_PER_THREAD;
    const pending = new Map<number, Promise<WorkerResult | WorkerFailure>>();
    const iterator = batches[Symbol.iterator]();
    let issued = 0;
    let next = 0;
    let exhausted = false;
    try {
      for (;;) {
        while (!exhausted && pending.size < window) {
          // A pool that lost a thread runs nothing more (a task would start a thread).
          if (this.pool.lost) throw this.failed(next);
          const step = iterator.next();
          if (step.done) {
            exhausted = true;
            break;
          }
          const plan = step.value;
          // The plan's first number is its first identity's position; the buffer moves to the thread.
          const first = plan[0] ?? null;
          // The default export (evaluateBatch) answers a batch.
          const task = this.pool.piscina.run({ runId: this.runId, config: this.shared, tenant, plan, output }, transferring(plan.buffer)) as Promise<WorkerResult | WorkerFailure>;
          // Awaited in order below; noted() also keeps a later batch's failure from being "unhandled" meanwhile.
          pending.set(issued, this.noted(task, issued, first));
          issued++;
        }
        const head = pending.get(next);
        if (!head) return;
        let result: WorkerResult | WorkerFailure;
        try {
          result = await head;
        } catch (error) {
          // When a thread died, the pool's other tasks fail at once; the batch it died on is
          // the one to name, whichever batch was awaited here.
          await Promise.allSettled(pending.values());
          throw this.failed(next, error);
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

  /** REFRESH_WORKER_FAILED for the run's first failure (or, lacking one, `error` on batch `batch`). */
  private failed(batch: number | null, error?: unknown): TransformsError {
    const failure = this.failure ?? { batch, first: null, error };
    const where =
      failure.batch === null
        ? 'before its first batch'
        : `on batch ${failure.batch}${failure.first !== null ? ` (its first identity is element ${failure.first} of identities.json)` : ''}`;
    const cause = failure.error as (Error & { code?: unknown }) | undefined;
    const exit = cause instanceof Error ? /^worker exited with code: (-?\d+)$/.exec(cause.message) : null;
    let why: string;
    let reason: 'heap' | 'exit' | 'error';
    if (cause instanceof Error && cause.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      reason = 'heap';
      why = `the thread reached its heap limit of ${this.heapMb} MB and was stopped; raise it (--worker-heap, the option workerHeapMb) or refresh with workers 0`;
    } else if (exit) {
      reason = 'exit';
      why = `the thread exited with code ${exit[1]}`;
    } else {
      reason = 'error';
      why = cause instanceof Error ? cause.message : 'the thread died';
    }
    const what = this.pool.lost ? 'a refresh worker thread died' : 'a refresh worker failed';
    return codedError('REFRESH_WORKER_FAILED', `${what} ${where}: ${why}`, {
      ...(cause !== undefined ? { cause } : {}),
      details: { ...(failure.batch !== null ? { batch: failure.batch } : {}), ...(failure.first !== null ? { element: failure.first } : {}), reason, ...(reason === 'heap' ? { heapMb: this.heapMb } : {}) },
    });
  }
}
