// `identity-transforms verify (--fixtures <dir> | --tenant <url>)`: recompute each identity's
// profile and compare with the attributes the platform stored (docs/verify.md), as a report in
// text, markdown or json, or as NDJSON lines written as they are found; the exit code says
// whether the --fail-on policy holds.

import { codedError, isTransformsError } from '../errors/index.js';
import { createProgressBar } from '../refresh/progress.js';
import { formatVerify, MAX_PREVIEW_IDENTITIES, type CaseFile, previewLineJson, verify, verifyLineJson, verifyPasses, type VerifyFormat, type VerifyOptions } from '../verify/index.js';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, integerOption, parseCommandLine, UsageError, type Output } from './io.js';
import { TENANT_HELP, tenantFromEnvironment } from './tenant.js';
import { isDirectory } from '../json/paths.js';
import { writeFileWhole } from '../json/write-file.js';
import { join } from 'node:path';

export const VERIFY_HELP = `Usage: identity-transforms verify (--fixtures <dir> | --tenant <url>) [options]

Does this engine agree with your tenant? Recompute every identity's profile and compare each
attribute with the value the platform stored for the identity. Nothing is written to the
tenant. Per attribute: how many values agree, differ, or are not comparable and why (kind
time: reads the clock; random: uuid, random*; unique: usernameGenerator; rule: a rule not
registered here; stale: the identity's accounts changed after the platform computed it;
missing: the identity has nothing stored). Differences are grouped by the pair of values, or
by the kind of edit (case, whitespace, a suffix or prefix, null on one side, different).
docs/verify.md says how values are compared.

Options:
  --fixtures <dir>       The tenant as a snapshot (or any fixture tenant with stored attributes)
  --tenant <url>         … or a platform tenant (or a local \`serve\`) over its API
  --profile <name>       The identity profile: a file, or a tenant profile's name or id
                         (default: the tenant's first); identities of other profiles are left out
  --identity <id|name>   Only this identity (repeatable)
  --attributes <a,b>     Only these attributes of the profile
  --format <f>           text (default), markdown (for an issue or a pull request), json (the
                         report), ndjson (one line per differing identity × attribute:
                         identityId, identityName, attribute, platform, ours, kind)
  --fail-on <policy>     differences: exit 1 when any value differs; none (default): exit 0
  --examples <n>         Example identities per group of differences (default 3)
  --explain              Attach how this engine computed one example of each group (the tree of
                         evaluate --explain); with --fixtures
  --preview <n>          With --tenant: ask the tenant's identity preview to compute the
                         profile's attributes afresh for n identities (the first example of
                         each group of differences, then stale ones, then a sample; nothing is
                         written) and compare those values with ours: staleness gone
  --cases <file>         Write each group of differences as a self-contained case (the mapping,
                         the transforms it references, only the inputs it read, the platform's
                         value and ours; identity ids and names replaced) to send us. The
                         inputs are personal data: review them before sending
  --pseudonymize         With --cases: replace the input values too (a case whose value is
                         computed from them is marked not reproducible)
  --rules <module.js>    Rules to run as the platform's (other rules: kind rule)
  --workers <n|auto>     Worker threads, as refresh (default auto)
  --shard <i/n>          Only shard i of n of the identities, as refresh
  --now <iso-date>       Fix the clock (attributes that read it are kind time either way)
  --no-progress          Never draw the progress bar (drawn on stderr only when it is a terminal)
  -h, --help             Show this help

Exit codes: 0 the --fail-on policy holds, 1 it does not, 2 usage error, unreadable input, a
tenant where no identity has stored attributes (VERIFY_NOTHING_STORED), or a preview the tenant
refused (VERIFY_PREVIEW_REFUSED; the report is written first).

${TENANT_HELP}
`;

/** Write the case file whole or not at all (a temporary file renamed); the note for stderr on what it holds. */
function writeCases(file: string, cases: CaseFile): string {
  try {
    writeFileWhole(file, JSON.stringify(cases, null, 2) + '\n');
  } catch (error) {
    throw codedError('VERIFY_CASES_WRITE', `could not write the cases to ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error, details: { file } });
  }
  const n = cases.cases.length;
  const open = cases.cases.filter((c) => !c.reproducible).length;
  if (cases.pseudonymized) return `wrote ${n} case(s) to ${file}, identity ids, names and input values replaced; ${open} not reproducible (computed from the replaced inputs: the platform's value is withheld). Source ids and names are kept.\n`;
  return `wrote ${n} case(s) to ${file}. They hold the input values the transforms read (identity and account attributes): personal data. Review them before you send them, or write them with --pseudonymize.\n`;
}

const FORMATS = new Set<VerifyFormat>(['text', 'markdown', 'json', 'ndjson']);
const POLICIES = new Set(['differences', 'none']);
/** NDJSON lines written to stdout at once. */
const LINES_PER_WRITE = 256;

export async function verifyCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseCommandLine('verify', {
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      fixtures: { type: 'string' },
      tenant: { type: 'string' },
      profile: { type: 'string' },
      identity: { type: 'string', multiple: true },
      attributes: { type: 'string' },
      format: { type: 'string', default: 'text' },
      'fail-on': { type: 'string', default: 'none' },
      examples: { type: 'string' },
      explain: { type: 'boolean', default: false },
      preview: { type: 'string' },
      cases: { type: 'string' },
      pseudonymize: { type: 'boolean', default: false },
      rules: { type: 'string' },
      workers: { type: 'string' },
      shard: { type: 'string' },
      now: { type: 'string' },
      'no-progress': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    io.out(VERIFY_HELP);
    return EXIT_OK;
  }
  if (positionals.length > 0) throw new UsageError(`verify takes no positional arguments (got "${positionals[0]}")`);
  if (!values.fixtures === !values.tenant) throw new UsageError('verify needs the tenant: --fixtures <dir> or --tenant <url>');
  const format = values.format as VerifyFormat;
  if (!FORMATS.has(format)) throw new UsageError(`--format must be text, markdown, json or ndjson, not "${values.format}"`);
  const failOn = values['fail-on'];
  if (!POLICIES.has(failOn)) throw new UsageError(`--fail-on must be differences or none, not "${failOn}"`);
  if (values.explain && !values.fixtures) throw new UsageError('--explain explains the examples against --fixtures (a snapshot of the tenant), not --tenant');
  const options: VerifyOptions = values.fixtures ? { fixtures: values.fixtures } : { tenant: tenantFromEnvironment(values.tenant!) };
  if (values.profile !== undefined) options.profile = values.profile;
  if (values.identity !== undefined) options.identity = values.identity;
  if (values.attributes !== undefined) options.attributes = values.attributes.split(',').map((a) => a.trim()).filter((a) => a !== '');
  if (values.examples !== undefined) options.examples = integerOption('examples', values.examples, 0, 100);
  if (values.explain) options.explain = true;
  if (values.preview !== undefined) {
    if (!values.tenant) throw new UsageError('--preview asks the tenant\'s identity preview: it needs --tenant <url>, not --fixtures');
    options.preview = integerOption('preview', values.preview, 1, MAX_PREVIEW_IDENTITIES);
  }
  if (values.pseudonymize && values.cases === undefined) throw new UsageError('--pseudonymize replaces the input values of --cases: give --cases <file>');
  if (values.cases !== undefined) {
    // Checked before the run, which would only fail at the write, after it.
    if (isDirectory(values.cases)) throw new UsageError(`--cases ${values.cases} is a directory: --cases names the JSON file to write, e.g. --cases ${join(values.cases, 'cases.json')}`);
    options.cases = true;
    if (values.pseudonymize) options.pseudonymize = true;
  }
  if (values.rules !== undefined) options.rules = values.rules;
  if (values.workers !== undefined) options.workers = values.workers === 'auto' ? 'auto' : integerOption('workers', values.workers, 0, 256);
  if (values.shard !== undefined) options.shard = values.shard;
  if (values.now !== undefined) options.now = values.now;
  const progressBar = !values['no-progress'] && process.stderr.isTTY === true ? createProgressBar(io.err, process.stderr.columns ?? 80) : null;
  if (progressBar) options.onProgress = (p) => progressBar.update(p);
  let job;
  try {
    job = verify(options);
    let pending: string[] = [];
    for await (const line of job) {
      if (format !== 'ndjson') continue;
      pending.push(verifyLineJson(line));
      if (pending.length === LINES_PER_WRITE) {
        io.out(pending.join('\n') + '\n');
        pending = [];
      }
    }
    if (pending.length > 0) io.out(pending.join('\n') + '\n');
  } catch (error) {
    if (isTransformsError(error) && (error.code === 'VERIFY_OPTION_INVALID' || error.code === 'REFRESH_OPTION_INVALID')) throw new UsageError(error.message);
    throw error;
  } finally {
    progressBar?.finish();
  }
  const report = job.report();
  if (format !== 'ndjson') io.out(formatVerify(report, format));
  else if (report.preview && report.preview.lines.length > 0) io.out(report.preview.lines.map(previewLineJson).join('\n') + '\n');
  const cases = job.cases();
  if (cases !== null) io.err(writeCases(values.cases!, cases));
  if (report.preview?.error) {
    io.err(`${report.preview.error.code} ${report.preview.error.message}\n`);
    return EXIT_USAGE;
  }
  return verifyPasses(report, failOn as 'differences' | 'none') ? EXIT_OK : EXIT_INVALID;
}
