// `identity-transforms impact --base <dir|git:ref> [--head <dir|git:ref>] (--fixtures <dir> |
// --tenant <url>)`: what a change to transforms or identity profiles would do to the tenant's
// identities, as a report in text, markdown, json or GitHub workflow commands; the exit code
// says whether the --fail-on policy holds.

import { isTransformsError } from '../errors/index.js';
import { formatImpact, impact, impactFailure, type ImpactFormat, type ImpactOptions } from '../impact/index.js';
import { createProgressBar } from '../refresh/progress.js';
import { EXIT_INVALID, EXIT_OK, integerOption, parseCommandLine, UsageError, type Output } from './io.js';
import { TENANT_HELP, tenantFromEnvironment } from './tenant.js';

export const IMPACT_HELP = `Usage: identity-transforms impact --base <dir|git:ref> [--head <dir|git:ref>]
                                  (--fixtures <dir> | --tenant <url>) [options]

What a change to transforms or identity profiles would do, before it is saved: which profile
attributes reach a changed transform or mapping (through reference, transitively), and for
each of them, evaluated in both versions over every identity, how many values change, become
or stop being null, and which errors appear or are fixed, with example identities.

A version is a directory laid out like a fixture tenant (transforms/*.json,
identity-profiles/*.json; other files ignored), a directory of transform and profile files,
or git:<ref>[:<path>] (that layout at a revision of the repository you run in; without a path,
the directory --head names). A version without profiles uses the tenant's profiles.

Options:
  --base <version>       The version before the change (required), e.g. git:origin/main
  --head <version>       The version after the change (default: . , the working tree)
  --fixtures <dir>       The tenant's records: a fixture tenant
  --tenant <url>         … or a platform tenant (or a local \`serve\`) over its API
  --profile <name>       Only this identity profile (default: every profile a change reaches)
  --format <f>           text (default), markdown (pull request comment, $GITHUB_STEP_SUMMARY),
                         json (the report object, docs/impact.md), github (annotations on the
                         changed transform files, then the text report)
  --fail-on <policy>     changes: exit 1 when any value or error changes; errors (default):
                         exit 1 when the change brings new errors; none: always exit 0
  --examples <n>         Example identities per attribute and kind of difference (default 5)
  --explain              Attach to each example how both versions computed it (the tree of
                         evaluate --explain); with --fixtures
  --workers <n|auto>     Worker threads, as refresh (default auto)
  --shard <i/n>          Only shard i of n of the identities, as refresh
  --now <iso-date>       Fix the clock (dateMath, dateCompare "now")
  --no-progress          Never draw the progress bar (drawn on stderr only when it is a terminal)
  -h, --help             Show this help

Exit codes: 0 the --fail-on policy holds, 1 it does not, 2 usage error or unreadable input.

${TENANT_HELP}
`;

const FORMATS = new Set<ImpactFormat>(['text', 'markdown', 'json', 'github']);
const POLICIES = new Set(['changes', 'errors', 'none']);

export async function impactCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseCommandLine('impact', {
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      base: { type: 'string' },
      head: { type: 'string' },
      fixtures: { type: 'string' },
      tenant: { type: 'string' },
      profile: { type: 'string' },
      format: { type: 'string', default: 'text' },
      'fail-on': { type: 'string', default: 'errors' },
      examples: { type: 'string' },
      explain: { type: 'boolean', default: false },
      workers: { type: 'string' },
      shard: { type: 'string' },
      now: { type: 'string' },
      'no-progress': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    io.out(IMPACT_HELP);
    return EXIT_OK;
  }
  if (positionals.length > 0) throw new UsageError(`impact takes no positional arguments (got "${positionals[0]}")`);
  if (!values.base) throw new UsageError('impact needs --base <dir|git:ref>, the version before the change');
  if (!values.fixtures === !values.tenant) throw new UsageError('impact needs the tenant\'s records: --fixtures <dir> or --tenant <url>');
  const format = values.format as ImpactFormat;
  if (!FORMATS.has(format)) throw new UsageError(`--format must be text, markdown, json or github, not "${values.format}"`);
  const failOn = values['fail-on'];
  if (!POLICIES.has(failOn)) throw new UsageError(`--fail-on must be changes, errors or none, not "${failOn}"`);
  const options: ImpactOptions = { base: values.base, ...(values.head !== undefined ? { head: values.head } : {}) };
  if (values.fixtures) options.fixtures = values.fixtures;
  else options.tenant = tenantFromEnvironment(values.tenant!);
  if (values.profile !== undefined) options.profile = values.profile;
  if (values.explain) {
    if (!values.fixtures) throw new UsageError('--explain explains the examples against --fixtures (a snapshot of the tenant), not --tenant');
    options.explain = true;
  }
  if (values.examples !== undefined) options.examples = integerOption('examples', values.examples, 0, 1000);
  if (values.workers !== undefined) options.workers = values.workers === 'auto' ? 'auto' : integerOption('workers', values.workers, 0, 256);
  if (values.shard !== undefined) options.shard = values.shard;
  if (values.now !== undefined) options.now = values.now;
  const progressBar = !values['no-progress'] && process.stderr.isTTY === true ? createProgressBar(io.err, process.stderr.columns ?? 80) : null;
  if (progressBar) options.onProgress = (p) => progressBar.update(p);
  let report;
  try {
    report = await impact(options);
  } catch (error) {
    if (isTransformsError(error) && (error.code === 'IMPACT_OPTION_INVALID' || error.code === 'REFRESH_OPTION_INVALID')) throw new UsageError(error.message);
    throw error;
  } finally {
    progressBar?.finish();
  }
  io.out(formatImpact(report, format));
  const failure = impactFailure(report, failOn as 'changes' | 'errors' | 'none');
  if (failure === undefined) return EXIT_OK;
  io.err(failure + '\n');
  return EXIT_INVALID;
}
