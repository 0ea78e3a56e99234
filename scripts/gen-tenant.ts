// `npm run gen:tenant -- --identities N --seed S --out DIR` (issue 6 "Tenant generator"):
// writes a deterministic synthetic tenant in the fixture format. Usage errors exit 2.

import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { TransformsError } from '../src/errors.js';
import { MAX_IDENTITIES, writeTenant } from '../src/testing/tenant-generator.js';

const USAGE = `Usage: npm run gen:tenant -- --identities N --out DIR [--seed S] [--fixtures DIR] [--no-copy] [--special-cases] [--quiet]

  --identities N   number of identities, 1 to ${MAX_IDENTITIES.toLocaleString('en-US')}
  --out DIR        output directory (created when missing; its tenant files are replaced)
  --seed S         any string; the same seed and N give byte-identical files (default "1")
  --fixtures DIR   where transforms/ and identity-profiles/ are copied from (default: the bundled fixtures/)
  --no-copy        write only sources.json, identities.json and accounts.json
  --special-cases  append the hand-written identities of the documented examples (as in fixtures/)
  --quiet          print nothing on success
  --help           show this help`;

class UsageError extends Error {}

interface Parsed {
  identities: number;
  seed: string;
  out: string;
  copyFrom: string | undefined;
  quiet: boolean;
  specialCases: boolean;
}

function parse(argv: string[]): Parsed | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        identities: { type: 'string' },
        seed: { type: 'string' },
        out: { type: 'string' },
        fixtures: { type: 'string' },
        'no-copy': { type: 'boolean' },
        'special-cases': { type: 'boolean' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help === true) return 'help';
  if (values.identities === undefined) throw new UsageError('--identities is required');
  // Digits only: "1e3", "0x10", "12abc" and "-5" are mistakes, not numbers to guess at.
  if (!/^\d+$/.test(values.identities)) throw new UsageError(`--identities must be a positive integer, got "${values.identities}"`);
  const identities = Number(values.identities);
  if (identities < 1 || identities > MAX_IDENTITIES) {
    throw new UsageError(`--identities must be between 1 and ${MAX_IDENTITIES}, got ${values.identities}`);
  }
  if (values.out === undefined || values.out === '') throw new UsageError('--out is required');
  if (existsSync(values.out) && !statSync(values.out).isDirectory()) throw new UsageError(`--out ${values.out} exists and is not a directory`);
  const seed = values.seed ?? '1';
  if (seed === '') throw new UsageError('--seed must not be empty');
  if (values['no-copy'] === true && values.fixtures !== undefined) throw new UsageError('--fixtures and --no-copy contradict each other');
  const copyFrom = values['no-copy'] === true ? undefined : (values.fixtures ?? fileURLToPath(new URL('../fixtures/', import.meta.url)));
  if (copyFrom !== undefined && !existsSync(copyFrom)) throw new UsageError(`--fixtures ${copyFrom} does not exist`);
  return { identities, seed, out: values.out, copyFrom, quiet: values.quiet === true, specialCases: values['special-cases'] === true };
}

function main(argv: string[]): number {
  let parsed: Parsed | 'help';
  try {
    parsed = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`gen-tenant: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const started = process.hrtime.bigint();
  try {
    const summary = writeTenant(parsed.out, { identities: parsed.identities, seed: parsed.seed, specialCases: parsed.specialCases, ...(parsed.copyFrom === undefined ? {} : { copyFrom: parsed.copyFrom }) });
    if (!parsed.quiet) {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      process.stdout.write(
        `gen-tenant: wrote ${summary.identities} identities, ${summary.accounts} accounts, ${summary.sources} sources ` +
          `(${summary.files.length} files) to ${parsed.out} in ${seconds.toFixed(1)} s (seed "${parsed.seed}")\n`,
      );
    }
    return 0;
  } catch (error) {
    // Option errors were caught above; what is left is the file system (EACCES, ENOSPC, …).
    const label = error instanceof TransformsError ? error.code : ((error as NodeJS.ErrnoException).code ?? 'error');
    process.stderr.write(`gen-tenant: ${label}: ${(error as Error).message}\n`);
    return error instanceof TransformsError && error.code === 'CLI_USAGE' ? 2 : 1;
  }
}

process.exitCode = main(process.argv.slice(2));
