// `identity-transforms refresh --fixtures <dir> [options]`: the library's refresh (refresh/index.ts
// writeRefresh) with its options from the command line: NDJSON of every
// identity's profile attributes to stdout or --out (atomically), the summary on stderr, or with
// --summary a readable summary on stdout (and NDJSON only when --out is given).

import v8 from 'node:v8';
import { isTransformsError, TransformsError } from '../errors/index.js';
import { AtomicFileWriter } from '../refresh/ndjson-writer.js';
import { createProgressBar } from '../refresh/progress.js';
import { createRefreshRunner, writeRefresh, type BatchOutput, type RefreshRun } from '../refresh/index.js';
import type { RefreshOptions } from '../refresh/runner.js';
import { formatSummary } from '../refresh/summary.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, processOutput, integerOption, UsageError, type Output, parseCommandLine } from './io.js';
import { isDirectory } from '../json/paths.js';
import { refuseOutputOverInput } from './out-file.js';
import { signalExitCode, watchSignals } from './signals.js';
import { TENANT_HELP, tenantFromEnvironment } from './tenant.js';

export const REFRESH_HELP = `Usage: identity-transforms refresh (--fixtures <dir> | --tenant <url>) [options]

Evaluate an identity profile for every identity of a fixture tenant, streaming: one NDJSON line
{"identityId":…,"attributes":{…},"errors":[…]} per identity, in the order of identities.json
(with --tenant: in the order of identity ids).

Options:
  --fixtures <dir>     Fixture tenant (identities.json, accounts.json, sources.json, transforms/,
                       identity-profiles/)
  --tenant <url>       A platform tenant's API base URL instead of --fixtures (or a local
                       \`serve\`); evaluates on the main thread, accounts fetched per batch
  --profile <p>        A profile file, or the name, id or file name of a profile of the tenant
                       (default: the first file of <dir>/identity-profiles; with --tenant the
                       tenant's first identity profile)
  --out <file>         Write the NDJSON to <file> (replaced only when the run succeeds)
  --workers <n|auto>   Worker threads; 0 evaluates on the main thread. auto (default) chooses
                       from the work: the main thread for a tenant too small for threads to
                       pay for their start (under about 65,000 identities of the generated
                       tenant) and when fewer than 2 cores are idle, else one per idle core;
                       never more than the cores.
                       Each thread is a heap of its own: at 1,000,000 identities the process
                       peaks at 253-255 MiB with 2 workers, 207-209 MiB with 0
  --worker-heap <MB>   Each worker thread's heap limit (default 1024); a thread that reaches it
                       ends the run with REFRESH_WORKER_FAILED, --out left unwritten
  --batch-size <n>     Identities per worker task (default 256)
  --shard <i/n>        Refresh only shard i of n (0-based; FNV-1a of the identity id, mod n)
  --now <iso-date>     Fix the clock (dateMath, dateCompare "now")
  --summary            Print a readable summary on stdout; without --out no NDJSON is written
  --format <text|json> The summary's format (default text); json prints one JSON object with
                       the counts, errors by code, and on failure the error
  --fail-on-error      Exit 1 when any identity had attribute errors (the summary says how many)
  --rules <module>     Register rules for the rule operation: an ES module whose default export
                       (or export "rules") maps rule names to functions, as createEngine takes them
  --no-progress        Never draw the progress bar (drawn on stderr only when it is a terminal)
  --low-memory         Tune V8 for size (--optimize-for-size): a lower peak memory (with
                       --workers 0, 159-167 MiB instead of 207-209 MiB at 1,000,000
                       identities)
  -h, --help           Show this help

Without --summary the summary goes to stderr at the end. Attribute errors are part of the
output, not a failure: the exit code is 0 when the run completes (1 with --fail-on-error when
an identity had errors), 1 when it fails, 2 for a usage error or an unreadable tenant.

A profile that uses usernameGenerator gets a uniqueness provider over the tenant: a candidate is
taken when another identity has it as its name or uid, when (sourceCheck) another identity's
account has it as its native identity or name, or when it was issued earlier in the run. Such a
profile refreshes on one thread, in the order of identities.json: the main thread, or one worker
thread with --workers 1.

Ctrl-C (SIGINT) or SIGTERM stops the run: the partial output of --out is removed (an existing
file is kept), the number of identities done is printed, and the exit code is 130 or 143. With
--workers 0 and a --rules module, a rule that never returns yields to Ctrl-C only: SIGTERM then
ends the process at Node's default, leaving --out's partial file (JavaScript can be stopped from
outside by SIGINT alone).

${TENANT_HELP}
`;

export async function refreshCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseCommandLine('refresh', {
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      fixtures: { type: 'string' },
      tenant: { type: 'string' },
      profile: { type: 'string' },
      out: { type: 'string' },
      workers: { type: 'string' },
      'worker-heap': { type: 'string' },
      'batch-size': { type: 'string' },
      shard: { type: 'string' },
      now: { type: 'string' },
      summary: { type: 'boolean', default: false },
      format: { type: 'string', default: 'text' },
      'fail-on-error': { type: 'boolean', default: false },
      rules: { type: 'string' },
      'no-progress': { type: 'boolean', default: false },
      'low-memory': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    io.out(REFRESH_HELP);
    return EXIT_OK;
  }
  if (positionals.length > 0) throw new UsageError(`refresh takes no positional arguments (got "${positionals[0]}")`);
  if (values.out === '') throw new UsageError('--out needs a file name');
  // Checked before the run (which would only fail at its first write): a directory is a usage
  // mistake, said as one (the code stays the CLI_READ users already see, exit 2).
  if (values.out !== undefined && isDirectory(values.out)) {
    throw new TransformsError('CLI_READ', `--out ${values.out} is a directory: --out names the NDJSON file to write, e.g. --out ${join(values.out, 'identities.ndjson')}`, { details: { file: values.out } });
  }
  if (values.out !== undefined) refuseOutputOverInput(values.out, values.fixtures, [values.profile, values.rules]);
  const format = values.format;
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not "${format}"`);
  // Which of --fixtures and --tenant, and what goes with each, the library checks.
  const options: RefreshOptions = {};
  if (values.fixtures !== undefined) options.fixtures = values.fixtures;
  if (values.tenant !== undefined) options.tenant = tenantFromEnvironment(values.tenant);
  if (values.profile !== undefined) options.profile = values.profile;
  if (values.workers !== undefined) options.workers = values.workers === 'auto' ? 'auto' : integerOption('workers', values.workers, 0, 256);
  if (values['worker-heap'] !== undefined) options.workerHeapMb = integerOption('worker-heap', values['worker-heap'], 16, 65_536);
  if (values['batch-size'] !== undefined) options.batchSize = integerOption('batch-size', values['batch-size'], 1, 100_000);
  if (values.shard !== undefined) options.shard = values.shard;
  if (values.now !== undefined) options.now = values.now;
  if (values.rules !== undefined) options.rules = values.rules;
  // V8 lets the heap grow well past the live data (about 40 MB) before collecting; for a
  // process that only refreshes, collecting sooner lowers the peak, at a cost in speed.
  if (values['low-memory']) v8.setFlagsFromString('--optimize-for-size');
  const progressBar = !values['no-progress'] && process.stderr.isTTY === true ? createProgressBar(io.err, process.stderr.columns ?? 80) : null;
  if (progressBar) options.onProgress = (p) => progressBar.update(p);

  let runner: RefreshRun;
  try {
    runner = createRefreshRunner(options);
  } catch (error) {
    if (isTransformsError(error) && error.code === 'REFRESH_OPTION_INVALID') throw new UsageError(error.message);
    throw error;
  }

  // --summary alone is a look at the run: NDJSON goes nowhere unless --out names a file.
  const file = values.out !== undefined ? new AtomicFileWriter(values.out) : null;
  const toStdout = file === null && !values.summary;
  // A file takes the workers' UTF-8 bytes as they came; only stdout needs the text.
  const write = file ? (batch: BatchOutput) => file.write(batch.bytes ?? batch.text) : toStdout ? (batch: BatchOutput) => (batch.text === '' ? undefined : io.out(batch.text)) : () => undefined;
  // The run stops between two batches on Ctrl-C or SIGTERM (a Kubernetes Job being stopped), or
  // when a reader that stops early (`refresh … | head`) closes the pipe: quietly, then.
  const stop = new AbortController();
  // The listener stays: a write still queued when the run ends may fail after it. Writes to a
  // pipe are synchronous on Linux and the 'error' event only comes on a later tick, so the
  // stream's own state is checked after each batch as well.
  let closed: NodeJS.ErrnoException | null = null;
  const watchStdout = toStdout && io.out === processOutput.out;
  if (watchStdout) {
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      closed ??= error;
      stop.abort();
    });
  }
  const written = watchStdout
    ? async (batch: BatchOutput) => {
        await write(batch);
        if (process.stdout.destroyed) stop.abort();
      }
    : write;
  // A second signal ends the process at once, the partial file removed first.
  const signals = watchSignals(() => file?.abortSync(), () => stop.abort());
  try {
    await writeRefresh(runner, written, { signal: stop.signal });
    if (signals.received) {
      progressBar?.finish();
      await file?.abort();
      return interrupted(signals.received, runner, values.out, format, io, values.summary);
    }
    if (watchStdout && process.stdout.destroyed) closed ??= (process.stdout.errored as NodeJS.ErrnoException | null) ?? null;
    await file?.commit();
  } catch (error) {
    progressBar?.finish();
    await file?.abort();
    // Ctrl-C stopped a batch where it was (refresh/interruptible.ts): an interrupted run, said as one.
    if (signals.received && isTransformsError(error) && error.code === 'REFRESH_INTERRUPTED') return interrupted(signals.received, runner, values.out, format, io, values.summary);
    if (format === 'json' && isTransformsError(error)) {
      (file === null && !values.summary ? io.err : io.out)(JSON.stringify({ complete: false, error: error.toJSON() }) + '\n');
      return isUsage(error) ? EXIT_USAGE : EXIT_INVALID;
    }
    throw error;
  } finally {
    signals.dispose();
  }
  progressBar?.finish();
  const stdoutError = closed as NodeJS.ErrnoException | null;
  if (stdoutError && stdoutError.code !== 'EPIPE') {
    throw new TransformsError('CLI_READ', `cannot write to standard output: ${stdoutError.message}`, { cause: stdoutError });
  }
  const summary = runner.summary();
  const failed = values['fail-on-error'] && summary.identitiesWithErrors > 0;
  let text: string;
  if (format === 'json') text = JSON.stringify(summary) + '\n';
  else {
    text = formatSummary(summary);
    if (failed) text += `${summary.identitiesWithErrors.toLocaleString('en-US')} of ${summary.identities.toLocaleString('en-US')} identities had errors (--fail-on-error): exit code 1\n`;
  }
  // JSON goes where NDJSON does not: stdout unless the NDJSON is on it.
  if (values.summary || (format === 'json' && file !== null)) io.out(text);
  else io.err(text);
  return failed ? EXIT_INVALID : EXIT_OK;
}

function isUsage(error: { code: string }): boolean {
  return error.code.startsWith('CLI_') || error.code === 'REFRESH_OPTION_INVALID';
}

/** Say what an interrupted run did and did not write; exit 128 + the signal's number. */
function interrupted(signal: NodeJS.Signals, runner: RefreshRun, out: string | undefined, format: string, io: Output, summaryOnly: boolean): number {
  const summary = runner.summary();
  const code = signalExitCode(signal);
  const done = `${summary.identities.toLocaleString('en-US')} of ${summary.tenantIdentities.toLocaleString('en-US')} identities`;
  if (format === 'json') {
    const where = out === undefined && !summaryOnly ? io.err : io.out;
    where(JSON.stringify({ ...summary, complete: false, interrupted: signal, outputWritten: false }) + '\n');
  } else {
    const output = out !== undefined ? `${out} was not written (the partial output was removed${existsSync(out) ? '; the existing file is unchanged' : ''})` : 'the NDJSON on standard output is incomplete';
    io.err(`refresh interrupted by ${signal} after ${done}; ${output}\n`);
  }
  return code;
}
