// A batch evaluated on the calling thread (`--workers 0`) with rules from a rules module: a rule
// is the one piece of code a refresh runs that no budget bounds (a rule that never returns holds
// the thread, and a signal's JavaScript listener only runs between batches). Such a batch runs
// through a vm Script with breakOnSigint (https://nodejs.org/api/vm.html#scriptruninthiscontextoptions):
// Ctrl-C (SIGINT) then stops it where it is, and the signal is handed on as if it had come
// between two batches: to the process's SIGINT listeners (the CLI's stop and clean-up), or, with
// none, to Node's default handling (the process ends, as it would have). The run then fails with
// REFRESH_INTERRUPTED; the batch's partial work is dropped.
//
// Only SIGINT: V8 can stop running JavaScript from outside only through Node's SIGINT watchdog
// and vm's timeout, and SIGTERM has neither, so a rule that never returns under `--workers 0`
// yields to SIGTERM only at Node's default (a second SIGTERM is not seen either). With worker
// threads the calling thread stays free and both signals stop the run.

import vm from 'node:vm';
import { codedError } from '../errors/index.js';

const BATCH = Symbol.for('identity-transforms.interruptible-batch');
type Slot = { [BATCH]?: () => unknown };

// The Script only calls the function stored under BATCH, so that the batch runs inside it.
const script = new vm.Script(`globalThis[Symbol.for(${JSON.stringify(BATCH.description)})]()`, { filename: 'identity-transforms:interruptible-batch' });

function interrupted(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED';
}

/** Run `batch` so that SIGINT stops it (REFRESH_INTERRUPTED, the signal handed on), else return its result. */
export function interruptible<T>(batch: () => T): T {
  const slot = globalThis as Slot;
  const outer = slot[BATCH];
  slot[BATCH] = batch;
  try {
    return script.runInThisContext({ breakOnSigint: true }) as T;
  } catch (error) {
    if (!interrupted(error)) throw error;
    if (process.listenerCount('SIGINT') > 0) process.emit('SIGINT', 'SIGINT');
    else process.kill(process.pid, 'SIGINT');
    throw codedError('REFRESH_INTERRUPTED', 'the refresh was interrupted by SIGINT while a batch was being evaluated', { details: { signal: 'SIGINT' } });
  } finally {
    slot[BATCH] = outer;
  }
}
