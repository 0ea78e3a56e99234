// `identity-transforms evaluate <transform.json|-> (--fixtures <dir> | --tenant <baseUrl>) --identity <id|name> [--input <string>]`:
// prints the value as JSON (null for null); on error the code, message and pointer on stderr, exit 1.

import { createEngine } from '../engine/engine.js';
import { isTransformsError } from '../errors.js';
import { createMemoryProviders, loadFixtures } from '../providers/memory.js';
import type { Identity, Providers } from '../providers/types.js';
import { EXIT_INVALID, EXIT_OK, readStdin, readText, UsageError, type Output, parseCommandLine } from './io.js';
import { TENANT_HELP, tenantFromEnvironment } from './tenant.js';

export const EVALUATE_HELP = `Usage: identity-transforms evaluate <transform.json|-> (--fixtures <dir> | --tenant <url>) --identity <id|name> [options]

Evaluate one transform for one identity of a fixtures directory or of a tenant, and print the
value as JSON.

Options:
  --fixtures <dir>     Fixture tenant (sources.json, identities.json, accounts.json, transforms/)
  --tenant <url>       A platform tenant's API base URL instead of --fixtures (or a local \`serve\`)
  --identity <id|name> The identity to evaluate for
  --input <string>     The implicit input (what an identity profile mapping feeds the transform)
  --now <iso-date>     Fix the clock (dateMath, dateCompare "now")
  -h, --help           Show this help

On error: the code, message and JSON Pointer on stderr, exit code 1. Usage errors exit 2.

${TENANT_HELP}
`;

export async function evaluateCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseCommandLine('evaluate', {
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      fixtures: { type: 'string' },
      tenant: { type: 'string' },
      identity: { type: 'string' },
      input: { type: 'string' },
      now: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    io.out(EVALUATE_HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError('evaluate needs exactly one transform file (or - for standard input)');
  if (!values.fixtures && !values.tenant) throw new UsageError('evaluate needs --fixtures <dir> or --tenant <url>');
  if (values.fixtures && values.tenant) throw new UsageError('evaluate takes --fixtures or --tenant, not both');
  if (!values.identity) throw new UsageError('evaluate needs --identity <id|name>');
  let clock: (() => Date) | undefined;
  if (values.now !== undefined) {
    const t = new Date(values.now);
    if (Number.isNaN(t.getTime())) throw new UsageError(`--now must be an ISO 8601 date-time, not "${values.now}"`);
    clock = () => t;
  }
  const file = positionals[0]!;
  const text = file === '-' ? await readStdin() : readText(file);
  let transform: unknown;
  try {
    transform = JSON.parse(text);
  } catch (error) {
    io.err(`VALIDATE_JSON_SYNTAX ${file === '-' ? '<stdin>' : file} is not valid JSON: ${(error as Error).message}\n`);
    return EXIT_INVALID;
  }
  let providers: Providers;
  let identity: Identity | null | undefined;
  if (values.tenant) {
    const tenant = tenantFromEnvironment(values.tenant);
    providers = tenant;
    identity = await tenant.findIdentity(values.identity);
  } else {
    const fixtures = loadFixtures(values.fixtures!);
    providers = createMemoryProviders(fixtures);
    identity = fixtures.identities.find((i) => i.id === values.identity) ?? fixtures.identities.find((i) => i.name === values.identity);
  }
  if (!identity) throw new UsageError(`no identity with id or name "${values.identity}" in ${values.tenant ?? values.fixtures}`);
  const engine = createEngine({ providers, ...(clock ? { clock } : {}) });
  try {
    const value = await engine.evaluate(transform, { identity, ...(values.input !== undefined ? { input: values.input } : {}) });
    io.out(JSON.stringify(value ?? null) + '\n');
    return EXIT_OK;
  } catch (error) {
    if (!isTransformsError(error)) throw error;
    io.err(`${error.code} ${error.message}${error.path !== undefined ? ` (${error.path === '' ? '/' : error.path})` : ''}\n`);
    return EXIT_INVALID;
  }
}
