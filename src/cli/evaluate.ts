// `identity-transforms evaluate <transform.json|-> --fixtures <dir> --identity <id|name> [--input <string>]`:
// prints the value as JSON (null for null); on error the code, message and pointer on stderr, exit 1.

import { parseArgs } from 'node:util';
import { createEngine } from '../engine/engine.js';
import { isTransformsError } from '../errors.js';
import { createMemoryProviders, loadFixtures } from '../providers/memory.js';
import { EXIT_INVALID, EXIT_OK, readStdin, readText, UsageError, type Output } from './io.js';

export const EVALUATE_HELP = `Usage: identity-transforms evaluate <transform.json|-> --fixtures <dir> --identity <id|name> [options]

Evaluate one transform for one identity of a fixtures directory and print the value as JSON.

Options:
  --fixtures <dir>     Fixture tenant (sources.json, identities.json, accounts.json, transforms/)
  --identity <id|name> The identity to evaluate for
  --input <string>     The implicit input (what an identity profile mapping feeds the transform)
  --now <iso-date>     Fix the clock (dateMath, dateCompare "now")
  -h, --help           Show this help

On error: the code, message and JSON Pointer on stderr, exit code 1. Usage errors exit 2.
`;

export async function evaluateCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      fixtures: { type: 'string' },
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
  if (!values.fixtures) throw new UsageError('evaluate needs --fixtures <dir>');
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
  const fixtures = loadFixtures(values.fixtures);
  const providers = createMemoryProviders(fixtures);
  const identity =
    fixtures.identities.find((i) => i.id === values.identity) ?? fixtures.identities.find((i) => i.name === values.identity);
  if (!identity) throw new UsageError(`no identity with id or name "${values.identity}" in ${values.fixtures}`);
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
