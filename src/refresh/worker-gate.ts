// The module a refresh thread starts with (pool.ts points piscina at it): the thread's first
// task loads the worker (worker.ts, and with it the engine and re2) unless a refresh thread of
// this process has died by then. re2's native addon (re2@1.23) aborts the whole process
// ("Check failed: node->IsInUse()" in WrappedRE2Set::Init, uhop/node-re2#235) when a thread
// loads it after another thread that had loaded it has exited; piscina starts a thread in place
// of one that died, so that thread must not load it. It answers every task with
// REFRESH_WORKER_FAILED instead; the run that lost a thread has already failed (decision R17
// in docs/decisions.md).

import { workerData, type MessagePort } from 'node:worker_threads';
import type { PrepareTask, ScanTask, WorkerFailure, WorkerResult, WorkerTask } from './worker.js';

/** What pool.ts passes every thread: a shared flag, 1 once a thread of the process has died, and the worker module to load. */
export interface GateData {
  died: Int32Array;
  /** Relative to this file: './worker.bundle.js' (the built package's one-file worker) or './worker.js'. */
  worker: './worker.bundle.js' | './worker.js';
}

const { died, worker: location } = workerData as GateData;

type Worker = typeof import('./worker.js');

/** The worker module, loaded by the thread's first task unless a thread has died by then. */
let worker: Worker | Promise<Worker> | null = null;

/**
 * Compiled, this is an ES module and imports the worker (bundled or not). Run from TypeScript,
 * piscina requires it, tsx having compiled it to CommonJS (its ES module hooks do not reach
 * threads on Node 20), so it requires the worker too.
 */
function importWorker(): Worker | Promise<Worker> {
  if (typeof require === 'function') return require('./worker.js') as Worker;
  return import(location) as Promise<Worker>;
}

function load<T>(then: (worker: Worker) => T | Promise<T>, refuse: () => T): T | Promise<T> {
  if (worker === null) {
    if (Atomics.load(died, 0) !== 0) return refuse();
    const loaded = importWorker();
    worker = loaded instanceof Promise ? loaded.then((w) => (worker = w)) : loaded;
  }
  return worker instanceof Promise ? worker.then(then) : then(worker);
}

function refused(): WorkerFailure {
  return {
    error: {
      code: 'REFRESH_WORKER_FAILED',
      message: 'a refresh worker thread of this process died, so no other thread loads the engine in this process (re2 would crash it); refresh with workers 0',
    },
  };
}

export default function evaluateBatch(task: WorkerTask): WorkerResult | WorkerFailure | Promise<WorkerResult | WorkerFailure> {
  return load((w) => w.default(task), refused);
}

export function prepare(task: PrepareTask): boolean | Promise<boolean> {
  return load((w) => w.prepare(task), () => false);
}

export function scanAccounts(task: ScanTask): number | Promise<number> {
  return load(
    (w) => w.scanAccounts(task),
    () => {
      // The ranges are left to the other scanners and the walking thread.
      (task.port as MessagePort).close();
      return 0;
    },
  );
}
