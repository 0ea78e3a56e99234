// The worker pool of a refresh (issue 6 "All cores"): piscina threads, each with its own
// evaluator; batches are dispatched with a bounded window and yielded in batch order, so the
// output order is the input order whatever thread finishes first.

import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { codedError } from '../errors.js';
import type { EvaluatorConfig } from './evaluator.js';
import type { TenantRecord } from './tenant-stream.js';
import type { WorkerResult, WorkerTask } from './worker.js';

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

export class RefreshPool {
  private readonly piscina: Piscina<WorkerTask, WorkerResult>;

  constructor(
    readonly threads: number,
    config: EvaluatorConfig,
  ) {
    const { filename, execArgv } = workerLocation();
    this.piscina = new Piscina<WorkerTask, WorkerResult>({
      filename,
      execArgv,
      workerData: config,
      minThreads: threads,
      maxThreads: threads,
      // One batch at a time per thread: evaluation is synchronous CPU work.
      concurrentTasksPerWorker: 1,
      idleTimeout: 60_000,
    });
  }

  /**
   * Evaluate batches on the pool, at most `threads × 2` in flight (so memory stays bounded),
   * yielding results in the order of the batches.
   */
  async *run(batches: Iterable<TenantRecord[]>): AsyncGenerator<WorkerResult, void, undefined> {
    const window = this.threads * 2;
    const pending = new Map<number, Promise<WorkerResult>>();
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
          const task = this.piscina.run({ records: step.value });
          // Awaited in order below; this keeps a later batch's failure from being "unhandled" meanwhile.
          task.catch(() => undefined);
          pending.set(issued++, task);
        }
        const head = pending.get(next);
        if (!head) return;
        let result: WorkerResult;
        try {
          result = await head;
        } catch (error) {
          throw codedError('REFRESH_WORKER_FAILED', `a refresh worker failed on batch ${next}: ${(error as Error).message}`, { cause: error, details: { batch: next } });
        }
        pending.delete(next++);
        yield result;
      }
    } finally {
      iterator.return?.();
    }
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}
