// The process one playground impact run happens in (impact-process.ts starts it): it takes the
// run's options as its one message, answers the report or the run's error, and exits. A process
// of its own, because only a process can be stopped whatever it is doing — in the middle of an
// evaluation, of a batch, of the tenant's pre-pass — and bounded in memory by its own heap
// limit; a refresh thread cannot be terminated (re2 forbids loading it again in the process,
// src/refresh/pool.ts).

import { impact, type ImpactOptions } from '../impact/index.js';
import { isTransformsError } from '../errors/index.js';
import type { ChildAnswer } from './impact-process.js';

// The play command gone (its process ended, the channel with it): the run has no one to answer.
process.once('disconnect', () => process.exit(1));

process.once('message', (options: ImpactOptions) => {
  impact(options)
    .then(
      (report): ChildAnswer => ({ report }),
      (error: unknown): ChildAnswer =>
        isTransformsError(error)
          ? { coded: { code: error.code, message: error.message, ...(error.path !== undefined ? { path: error.path } : {}), ...(error.details !== undefined ? { details: error.details } : {}) } }
          : { failed: error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error) },
    )
    .then((answer) => {
      // Started by fork(): the channel is there.
      const send = process.send!.bind(process);
      send(answer, undefined, undefined, () => {
        process.removeAllListeners('disconnect');
        process.disconnect!();
      });
    });
});
