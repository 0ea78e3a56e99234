// `identity-transforms evaluate <transform.json|-> (--fixtures <dir> | --tenant <baseUrl>) --identity <id|name> [--input <string>]`:
// prints the value as JSON (null for null); on error the code, message and pointer on stderr, exit 1.

import { createEngine } from '../engine/engine.js';
import { MAX_TRANSFORM_BYTES, tooLargeIssue } from '../engine/validate.js';
import { formatExplanation } from '../engine/explain-text.js';
import { checkAccountAttributeNames } from '../engine/name-checks.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isTransformsError } from '../errors/index.js';
import { createMemoryProviders } from '../providers/memory.js';
import { FIXTURE_RECORDS, loadFixtures } from '../providers/fixtures.js';
import { findIdentity } from '../providers/identity-lookup.js';
import type { Identity, Providers } from '../providers/types.js';
import { EXIT_INVALID, EXIT_OK, readStdin, readText, shownPointer, syntaxError, UsageError, type Output, parseCommandLine } from './io.js';
import { loadRulesModule } from '../engine/rules-module.js';
import { createFixtureUniqueness } from '../providers/uniqueness.js';
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
  --rules <module>     Register rules for the rule operation: an ES module whose default export
                       (or export "rules") maps rule names to functions, as createEngine takes them
  --source <name|id>   The source a usernameGenerator fills (a create profile's source): with
                       sourceCheck, only its accounts are checked (default: every source)
  --explain            Print the evaluation as a tree: every node's type, JSON Pointer, input,
                       value or error, and its decisions (accountAttribute's candidate accounts
                       and filters, lookup's key, the referenced transform); with --fixtures
  --format <text|json> text prints the value as JSON; json prints {"value":…} or
                       {"error":{"code","message","path"}} on stdout (default text); with
                       --explain, the explanation as data
  -h, --help           Show this help

With --fixtures, usernameGenerator checks its candidates against the fixtures: a candidate is
taken when another identity has it as its name or uid, or (sourceCheck) another identity's
account has it as its native identity or account name.

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
      explain: { type: 'boolean', default: false },
      rules: { type: 'string' },
      source: { type: 'string' },
      format: { type: 'string', default: 'text' },
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
  const format = values.format;
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, not "${format}"`);
  if (values.source !== undefined && values.tenant) throw new UsageError('--source applies to --fixtures (a tenant checks uniqueness itself)');
  // Explaining records every node synchronously; a tenant's API answers asynchronously.
  if (values.explain && values.tenant) throw new UsageError('--explain evaluates against --fixtures (a snapshot of the tenant), not --tenant');
  let clock: (() => Date) | undefined;
  if (values.now !== undefined) {
    const t = new Date(values.now);
    if (Number.isNaN(t.getTime())) throw new UsageError(`--now must be an ISO 8601 date-time, not "${values.now}"`);
    clock = () => t;
  }
  const file = positionals[0]!;
  const text = file === '-' ? await readStdin(MAX_TRANSFORM_BYTES) : readText(file, MAX_TRANSFORM_BYTES);
  const fail = (error: { code: string; message: string; path?: string | undefined }): number => {
    if (format === 'json') io.out(JSON.stringify({ error: { code: error.code, message: error.message, ...(error.path !== undefined ? { path: error.path } : {}) } }) + '\n');
    else io.err(`${error.code} ${error.message}${error.path !== undefined ? ` (${shownPointer(error.path)})` : ''}\n`);
    return EXIT_INVALID;
  };
  // A transform the platform would not store is not evaluated: its size bounds what compiling it takes.
  if (typeof text !== 'string') return fail(tooLargeIssue(text.bytes, { unread: true, atLeast: file === '-' }));
  let transform: unknown;
  try {
    transform = JSON.parse(text);
  } catch {
    const found = syntaxError(text);
    const where = `${file === '-' ? '<stdin>' : file}:${found?.position.line ?? 1}:${found?.position.column ?? 1}`;
    return fail({ code: 'VALIDATE_JSON_SYNTAX', message: `${where}: the file is not valid JSON: ${found?.message ?? 'invalid JSON'}` });
  }
  const rules = values.rules !== undefined ? await loadRulesModule(values.rules) : undefined;
  let providers: Providers;
  let identity: Identity | null | undefined;
  if (values.tenant) {
    const tenant = tenantFromEnvironment(values.tenant);
    providers = tenant;
    identity = await tenant.findIdentity(values.identity);
  } else {
    const fixtures = loadFixtures(values.fixtures!);
    // A missing file reads as no records: the identity would be "not found" in a directory that
    // has none. Said as what it is, with the code users already see for an identity not found.
    const identitiesFile = join(values.fixtures!, FIXTURE_RECORDS.identities.file);
    if (!existsSync(identitiesFile)) {
      throw new UsageError(`${identitiesFile} is missing: --fixtures names a fixture tenant (sources.json, identities.json, accounts.json) and --identity is looked up in its identities.json`);
    }
    let sourceId: string | undefined;
    if (values.source !== undefined) {
      const source = fixtures.sources.find((s) => s.id === values.source) ?? fixtures.sources.find((s) => s.name === values.source);
      if (!source) throw new UsageError(`--source: no source with id or name "${values.source}" in ${values.fixtures}`);
      sourceId = source.id;
    }
    const memory = createMemoryProviders(fixtures);
    providers = { ...memory, uniqueness: createFixtureUniqueness(fixtures, sourceId === undefined ? {} : { sourceId }) };
    identity = findIdentity(memory.identities, values.identity) as Identity | null;
  }
  if (!identity) throw new UsageError(`no identity with id or name "${values.identity}" in ${values.tenant ?? values.fixtures}`);
  const engine = createEngine({ providers, ...(clock ? { clock } : {}), ...(rules ? { rules } : {}) });
  // Names the fixtures know and the transform misspells: on stderr, or beside the value as data.
  const warnings = checkAccountAttributeNames(transform, providers);
  if (format === 'text') for (const w of warnings) io.err(`warning ${w.code} ${w.message} (${shownPointer(w.path)})\n`);
  const withWarnings = <T extends object>(out: T) => (warnings.length > 0 ? { ...out, warnings } : out);
  if (values.explain) {
    const explanation = engine.explain(transform, { identity, ...(values.input !== undefined ? { input: values.input } : {}) });
    io.out(format === 'json' ? JSON.stringify(withWarnings(explanation), null, 2) + '\n' : formatExplanation(explanation));
    return explanation.error ? EXIT_INVALID : EXIT_OK;
  }
  try {
    const value = await engine.evaluate(transform, { identity, ...(values.input !== undefined ? { input: values.input } : {}) });
    io.out((format === 'json' ? JSON.stringify(withWarnings({ value: value ?? null })) : JSON.stringify(value ?? null)) + '\n');
    return EXIT_OK;
  } catch (error) {
    if (!isTransformsError(error)) throw error;
    return fail(error);
  }
}
