// A playground impact run under the budget of one request (decision G10 in docs/decisions.md):
// the run happens in a child process (impact-child.ts) with a heap limit, which is killed when
// the run's time is up, when the request is cancelled (its client went away, or the page
// started another run), or when the run is over. Each evaluation keeps its own limits
// (SERVER_EVALUATION_LIMITS); the budget bounds what they add up to — a pasted profile of
// thousands of attributes, each spending an evaluation's whole budget on every identity.

import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { codedError, type ErrorCode, type TransformsError } from '../errors/index.js';
import type { ImpactOptions, ImpactReport } from '../impact/index.js';

/** What one playground impact run may take. */
export interface ImpactBudget {
  /** Milliseconds of wall time, from the start of the run's process to its report. */
  maxTime: number;
  /** MB of JavaScript heap (V8's old generation) of the run's process, and of each of its refresh threads. */
  maxHeapMb: number;
}

/** The budget of a run of the play command: a minute and 512 MB, far above the bundled tenant's run (under a second) and a snapshot's of 100,000 identities. */
export const DEFAULT_IMPACT_BUDGET: Readonly<ImpactBudget> = Object.freeze({ maxTime: 60_000, maxHeapMb: 512 });

/** What the child answers: the report, the run's coded error, or the detail of a failure of its own. */
export type ChildAnswer =
  | { report: ImpactReport }
  | { coded: { code: ErrorCode; message: string; path?: string; details?: Record<string, unknown> } }
  | { failed: string };

/** The run's options as they can be posted to another process (no callback). */
export type ChildOptions = Omit<ImpactOptions, 'onProgress'>;

/** Characters of the child's standard error kept for the log (V8's out-of-memory report ends it). */
const STDERR_KEPT = 8192;

/** The child's module: the compiled .js, or, when this file runs as TypeScript (tests), the .ts file loaded through tsx. */
function childModule(): { path: URL; execArgv: string[] } {
  if (!import.meta.url.endsWith('.ts')) return { path: new URL('./impact-child.js', import.meta.url), execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { path: new URL('./impact-child.ts', import.meta.url), execArgv: ['--import', tsx] };
}

/**
 * Run impact in a child process within the budget; `signal` cancels it (its reason, a coded
 * error, is what the run then rejects with). Rejects with PLAY_IMPACT_BUDGET when the time or
 * the heap runs out.
 */
export function impactInProcess(options: ChildOptions, budget: ImpactBudget, signal: AbortSignal): Promise<ImpactReport> {
  signal.throwIfAborted();
  const { path, execArgv } = childModule();
  const child = fork(path, [], {
    execArgv: [...execArgv, `--max-old-space-size=${budget.maxHeapMb}`],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-STDERR_KEPT)));
  return new Promise<ImpactReport>((resolve, reject) => {
    let answer: ChildAnswer | undefined;
    let stopped: TransformsError | undefined;
    const stop = (reason: TransformsError) => {
      stopped ??= reason;
      child.kill('SIGKILL');
    };
    const onAbort = () => stop(signal.reason as TransformsError);
    signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () => stop(codedError('PLAY_IMPACT_BUDGET', `the impact run took more than its ${budget.maxTime / 1000} s: edit fewer attributes, or run \`identity-transforms impact\`, which has no such budget`, { details: { limit: 'maxTime', max: budget.maxTime } })),
      budget.maxTime,
    );
    child.on('message', (message: ChildAnswer) => (answer = message));
    child.on('close', (code, exitSignal) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (stopped) return reject(stopped);
      if (answer && 'report' in answer) return resolve(answer.report);
      if (answer && 'coded' in answer) {
        const { code: errorCode, message, ...rest } = answer.coded;
        return reject(codedError(errorCode, message, rest));
      }
      if (/heap limit|heap out of memory/i.test(stderr)) {
        return reject(codedError('PLAY_IMPACT_BUDGET', `the impact run needed more than its ${budget.maxHeapMb} MB of memory: edit fewer attributes, or run \`identity-transforms impact\`, which has no such budget`, { details: { limit: 'maxHeapMb', max: budget.maxHeapMb } }));
      }
      reject(new Error(answer && 'failed' in answer ? answer.failed : `the impact process ended (exit code ${code}, signal ${exitSignal}) without a report: ${stderr}`));
    });
    child.send(options);
  });
}
