// `identity-transforms snapshot --tenant <url> --out <dir> [options]`: copy a tenant into a
// fixture directory with snapshotTenant(); a progress bar on stderr when it is a terminal, a
// summary at the end. Ctrl-C stops between pages and keeps the partial copy for a resume.

import { codedError, isTransformsError } from '../errors/index.js';
import { readBoundedBytes } from '../json/read-file.js';
import { announcePartialCopy, MIN_KEY_BYTES, snapshotTenant, SNAPSHOT_PARTS, type SnapshotPart, type SnapshotProgress, type SnapshotSummary } from '../snapshot/index.js';
import { EXIT_OK, UsageError, parseCommandLine, type Output } from './io.js';
import { TENANT_HELP, tenantFromEnvironment } from './tenant.js';

export const SNAPSHOT_HELP = `Usage: identity-transforms snapshot --tenant <url> --out <dir> [options]

Copy a tenant into a fixture directory that validate, evaluate, refresh and serve read:
sources.json, identities.json, accounts.json, transforms/<Name>.json (named as sailpoint-cli
names downloaded transforms), identity-profiles/<Name>.json, and .snapshot.json (the manifest).
The directory is replaced only when the copy completes; an interrupted copy resumes when the
same command runs again.

Options:
  --tenant <url>         The tenant's API base URL (or a local \`serve\`)
  --out <dir>            The snapshot directory (absent, empty, or an earlier snapshot)
  --profile <name|id>    Copy only this identity profile into identity-profiles/
  --since <dir>          An earlier snapshot: fetch only what changed since it, merge, and
                         drop what was deleted (same bytes as a full copy)
  --pseudonymize         Replace names, e-mails, phones, DNs and free text (docs/snapshot.md)
  --key-file <file>      The pseudonymization key (at least 16 bytes); required by --pseudonymize
  --only <parts>         Comma-separated parts: ${SNAPSHOT_PARTS.join(',')}
  --rate <n>             At most n requests per second (the tenant's 429 Retry-After is
                         always followed)
  --page-size <n>        Identities per search page (default 1000; 10000 for the --since walk)
  --restart              Discard an interrupted copy instead of resuming it
  --no-progress          Never draw the progress bar (drawn on stderr only when it is a terminal)
  -h, --help             Show this help

Exit codes: 0 done, 1 failed (the previous snapshot is left as it was; the error says where
the copy so far is kept, to resume with the same command or discard with --restart), 2 usage
error, 130 interrupted (run the same command to resume).

${TENANT_HELP}
`;

export const EXIT_INTERRUPTED = 130;

function integer(name: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, not "${text}"`);
  return Number(text);
}

function parts(text: string): SnapshotPart[] {
  const list = text.split(',').map((p) => p.trim()).filter((p) => p !== '');
  const unknown = list.find((p) => !(SNAPSHOT_PARTS as readonly string[]).includes(p));
  if (list.length === 0 || unknown !== undefined) throw new UsageError(`--only takes a comma-separated list of ${SNAPSHOT_PARTS.join(', ')}${unknown ? ` (not "${unknown}")` : ''}`);
  return list as SnapshotPart[];
}

/** Bytes a key file may hold: a key is 16 bytes or more, 32 from /dev/urandom; /dev/urandom itself is refused, not read without end. */
const MAX_KEY_BYTES = 64 * 1024;

function readKey(file: string): Uint8Array {
  const read = readBoundedBytes(file, MAX_KEY_BYTES);
  if (!read.ok) throw codedError('SNAPSHOT_KEY', `cannot read the key file ${file}: ${read.message}`, { ...('cause' in read ? { cause: read.cause } : {}), details: { file } });
  const key = read.bytes;
  if (key.length < MIN_KEY_BYTES) throw codedError('SNAPSHOT_KEY', `the key file ${file} holds ${key.length} bytes; a key needs at least ${MIN_KEY_BYTES} (e.g. head -c 32 /dev/urandom > ${file})`, { details: { file } });
  return key;
}

const count = (n: number) => n.toLocaleString('en-US');

function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * One line of progress. The rate is shown once two seconds have passed, and the ETA only then
 * and after a tenth of the identities: before that, the first pages (token, sources,
 * transforms) make any estimate meaningless.
 */
export function renderSnapshotProgress(p: SnapshotProgress, columns = 80): string {
  if (p.phase !== 'identities') return `snapshot: ${p.phase}…`;
  const seconds = p.elapsedMs / 1000;
  const rate = seconds >= 2 ? p.identities / seconds : null;
  const ratio = p.total ? Math.min(1, p.identities / p.total) : 0;
  const eta = rate && p.total && ratio >= 0.1 ? ` ETA ${duration((p.total - p.identities) / rate)}` : '';
  const text = ` ${count(p.identities)}/${p.total === null ? '?' : count(p.total)} identities, ${count(p.accounts)} accounts${rate ? `, ${count(Math.round(rate))}/s` : ''}${eta}`;
  const width = Math.max(10, Math.min(30, columns - text.length - 3));
  const filled = Math.round(ratio * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]${text}`;
}

export function formatSnapshotSummary(s: SnapshotSummary): string {
  const c = s.counts;
  const lines = [
    `snapshot ${s.mode}${s.resumed ? ' (resumed)' : ''} of ${s.out} taken at ${s.takenAt}`,
    `  ${count(c.identities)} identities, ${count(c.accounts)} accounts, ${count(c.sources)} sources, ${count(c.transforms)} transforms, ${count(c.profiles)} identity profiles`,
  ];
  if (s.merge) lines.push(`  since the previous snapshot: ${count(s.merge.fetched)} identities fetched again, ${count(s.merge.deleted)} deleted, ${count(s.merge.modifiedAccounts)} accounts modified`);
  const seconds = s.elapsedMs / 1000;
  lines.push(
    `  ${count(s.requests)} requests (${count(s.retries)} retried${s.pausedMs > 0 ? `, ${duration(s.pausedMs / 1000)} held back by Retry-After` : ''}) in ${seconds.toFixed(1)} s` +
      (seconds > 0 ? `, ${count(Math.round(c.identities / seconds))} identities/s` : ''),
  );
  return lines.join('\n') + '\n';
}

export async function snapshotCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseCommandLine('snapshot', {
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      tenant: { type: 'string' },
      out: { type: 'string' },
      profile: { type: 'string' },
      since: { type: 'string' },
      pseudonymize: { type: 'boolean', default: false },
      'key-file': { type: 'string' },
      only: { type: 'string' },
      rate: { type: 'string' },
      'page-size': { type: 'string' },
      restart: { type: 'boolean', default: false },
      'no-progress': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    io.out(SNAPSHOT_HELP);
    return EXIT_OK;
  }
  if (positionals.length > 0) throw new UsageError(`snapshot takes no positional arguments (got "${positionals[0]}")`);
  if (!values.tenant) throw new UsageError('snapshot needs --tenant <url>');
  if (!values.out) throw new UsageError('snapshot needs --out <dir>');
  if (values.pseudonymize !== (values['key-file'] !== undefined)) {
    throw new UsageError(values.pseudonymize ? '--pseudonymize needs --key-file <file>' : '--key-file applies to --pseudonymize only');
  }
  const rate = values.rate !== undefined ? integer('rate', values.rate, 1, 100_000) : undefined;
  const tenant = tenantFromEnvironment(values.tenant, process.env, { cache: false, ...(rate !== undefined ? { maxRequestsPerSecond: rate } : {}) });
  // Every option is read before the signal handlers are installed: a key file that is a pipe
  // with no writer blocks in open(2), and Ctrl-C must still end the process then (nothing has
  // been written yet).
  const pseudonymizationKey = values.pseudonymize ? readKey(values['key-file']!) : undefined;
  const only = values.only !== undefined ? parts(values.only) : undefined;
  const pageSize = values['page-size'] !== undefined ? integer('page-size', values['page-size'], 1, 10_000) : undefined;
  const abort = new AbortController();
  const stop = () => abort.abort(new Error('interrupted'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const bar = !values['no-progress'] && process.stderr.isTTY === true;
  let lastDraw = 0;
  try {
    const summary = await snapshotTenant({
      tenant,
      out: values.out,
      ...(values.profile !== undefined ? { profile: values.profile } : {}),
      ...(values.since !== undefined ? { since: values.since } : {}),
      ...(pseudonymizationKey !== undefined ? { pseudonymizationKey } : {}),
      ...(only !== undefined ? { only } : {}),
      ...(pageSize !== undefined ? { pageSize } : {}),
      resume: !values.restart,
      signal: abort.signal,
      onProgress: bar
        ? (p) => {
            if (p.elapsedMs - lastDraw < 100 && p.phase === 'identities') return;
            lastDraw = p.elapsedMs;
            io.err('\r' + renderSnapshotProgress(p, process.stderr.columns ?? 80) + '\x1b[K');
          }
        : undefined,
    });
    if (bar) io.err('\r\x1b[K');
    io.err(formatSnapshotSummary(summary));
    return EXIT_OK;
  } catch (error) {
    if (bar) io.err('\r\x1b[K');
    if (isTransformsError(error) && error.code === 'SNAPSHOT_OPTIONS') throw new UsageError(error.message);
    if (isTransformsError(error) && error.code === 'SNAPSHOT_ABORTED') {
      io.err(`${error.code} ${error.message}\n`);
      return EXIT_INTERRUPTED;
    }
    if (isTransformsError(error)) throw announcePartialCopy(error, values.out!);
    throw error;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
