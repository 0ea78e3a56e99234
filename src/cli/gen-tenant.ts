// `identity-transforms gen-tenant --identities N --out DIR [--seed S]`: writes a deterministic
// synthetic tenant in the fixture format (src/testing/generator/index.ts). The generator needs
// no fast-check, so this command works without the `/testing` peer dependency.

import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replaceDirectory, siblingOf } from '../json/write-file.js';
import { MAX_IDENTITIES, storeComputedAttributes, writeTenant, type PlantedDifference } from '../testing/generator/index.js';
import { comparableAttributes } from '../verify/index.js';
import { EXIT_INVALID, EXIT_OK, UsageError, parseCommandLine, type Output } from './io.js';

/** What gen-tenant writes in --out: a directory holding nothing else is one it may replace. */
const GENERATED = new Set(['sources.json', 'identities.json', 'accounts.json', 'transforms', 'identity-profiles']);

/**
 * What --out holds besides what gen-tenant writes: the fixture format's other files (the API
 * server's users.json, oauth-clients.json, …), a README, a project's files. They are the user's:
 * gen-tenant keeps them and replaces only its own parts (see writeInto).
 */
function othersIn(out: string): string[] {
  if (!existsSync(out)) return [];
  if (!statSync(out).isDirectory()) throw new UsageError(`--out ${out} exists and is not a directory`);
  return readdirSync(out).filter((name) => !GENERATED.has(name)).sort();
}

/**
 * Move the tenant written in `work` into `out`, whose other files stay: each part gen-tenant
 * writes is renamed into place (the old one moved aside first, then removed), and a part the new
 * tenant has not (transforms/ with --no-copy) is removed, so no part of the old tenant is left.
 */
function writeInto(work: string, out: string, fail: (message: string, cause: unknown) => Error): void {
  for (const part of GENERATED) {
    const target = join(out, part);
    if (existsSync(join(work, part))) replaceDirectory(join(work, part), target, siblingOf(target, `gen-tenant-previous-${process.pid}`), fail);
    else rmSync(target, { recursive: true, force: true });
  }
  rmSync(work, { recursive: true, force: true });
}

/** The bundled tenant: fixtures/ of the package (shipped with it), next to dist/ and src/. */
const BUNDLED_FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

export const GEN_TENANT_HELP = `Usage: identity-transforms gen-tenant --identities <n> --out <dir> [options]

Write a deterministic synthetic tenant in the fixture format: sources.json, identities.json,
accounts.json, and the bundled transforms/ and identity-profiles/.

Options:
  --identities <n>   Number of identities, 1 to ${MAX_IDENTITIES.toLocaleString('en-US')}
  --out <dir>        Output directory. The new tenant is written beside it, then renamed into
                     place: a tenant gen-tenant wrote is replaced whole; in a directory that
                     holds other files too (users.json, a README), those are kept and named,
                     and only sources.json, identities.json, accounts.json, transforms/ and
                     identity-profiles/ are replaced
  --seed <s>         Any string; the same seed and n give byte-identical files (default "1")
  --fixtures <dir>   Where transforms/ and identity-profiles/ are copied from (default: the
                     package's bundled fixtures)
  --no-copy          Write only sources.json, identities.json and accounts.json
  --special-cases    Append the hand-written identities of the documented examples (as the
                     bundled fixtures have them)
  --stored           Store what the identity profile computes as each identity's attributes,
                     with its modified and identityProfile: the tenant as the platform leaves it
                     (what verify compares with)
  --plant            With --stored: plant differences verify must find (one identity in 40
                     of those nobody reports to, in a comparable attribute; the first of them
                     with an account is stale), listed on stdout
  --profile <p>      With --stored: the profile (default the first in identity-profiles/)
  --now <iso-date>   With --stored: when the platform computed them (default
                     2026-01-15T12:00:00Z, the generator's epoch)
  --quiet            Print nothing on success
  -h, --help         Show this help

Exit codes: 0 written, 1 the files could not be written, 2 usage error.
`;

export async function genTenantCommand(argv: string[], io: Output): Promise<number> {
  const { values } = parseCommandLine('gen-tenant', {
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
      stored: { type: 'boolean' },
      plant: { type: 'boolean' },
      profile: { type: 'string' },
      now: { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    io.out(GEN_TENANT_HELP);
    return EXIT_OK;
  }
  if (values.identities === undefined) throw new UsageError('gen-tenant needs --identities <n>');
  // Digits only: "1e3", "0x10", "12abc" and "-5" are mistakes, not numbers to guess at.
  if (!/^\d+$/.test(values.identities)) throw new UsageError(`--identities must be a positive integer, got "${values.identities}"`);
  const identities = Number(values.identities);
  if (identities < 1 || identities > MAX_IDENTITIES) {
    throw new UsageError(`--identities must be between 1 and ${MAX_IDENTITIES}, got ${values.identities}`);
  }
  if (values.out === undefined || values.out === '') throw new UsageError('gen-tenant needs --out <dir>');
  const seed = values.seed ?? '1';
  if (seed === '') throw new UsageError('--seed must not be empty');
  if (values['no-copy'] === true && values.fixtures !== undefined) throw new UsageError('--fixtures and --no-copy contradict each other');
  const copyFrom = values['no-copy'] === true ? undefined : (values.fixtures ?? BUNDLED_FIXTURES);
  const stored = values.stored === true;
  for (const option of ['plant', 'profile', 'now'] as const) if (values[option] !== undefined && !stored) throw new UsageError(`--${option} goes with --stored`);
  if (stored && copyFrom === undefined) throw new UsageError('--stored needs an identity profile: leave out --no-copy');
  if (values.now !== undefined && Number.isNaN(Date.parse(values.now))) throw new UsageError(`--now must be an ISO 8601 date-time, got "${values.now}"`);
  if (copyFrom !== undefined && !existsSync(copyFrom)) throw new UsageError(`--fixtures ${copyFrom} does not exist`);
  // Every option is checked before --out: a usage mistake is named as itself.
  const others = othersIn(values.out);

  const started = process.hrtime.bigint();
  const out = values.out;
  // The tenant is written beside --out and renamed into place: a failure leaves the old one whole.
  const work = siblingOf(out, `gen-tenant-${process.pid}`);
  let summary;
  let planted: PlantedDifference[] = [];
  try {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    summary = writeTenant(work, { identities, seed, specialCases: values['special-cases'] === true, ...(copyFrom === undefined ? {} : { copyFrom }) });
    if (stored) {
      const plantIn = values.plant === true ? comparableAttributes(work, values.profile) : undefined;
      const now = values.now === undefined ? undefined : new Date(values.now).toISOString();
      planted = (await storeComputedAttributes(work, { ...(values.profile !== undefined ? { profile: values.profile } : {}), ...(now !== undefined ? { now } : {}), ...(plantIn ? { plantIn } : {}) })).planted;
    }
    const fail = (message: string, cause: unknown) => Object.assign(new Error(message), { code: (cause as NodeJS.ErrnoException).code ?? 'EIO' });
    if (others.length === 0) replaceDirectory(work, out, siblingOf(out, `gen-tenant-previous-${process.pid}`), fail);
    else writeInto(work, out, fail);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    // Coded errors go to main's report; what is left is the file system (EACCES, ENOSPC, …).
    const errno = (error as NodeJS.ErrnoException).code;
    if (typeof errno !== 'string' || !/^E[A-Z]+$/.test(errno)) throw error;
    io.err(`gen-tenant: ${errno}: ${(error as Error).message}\n`);
    return EXIT_INVALID;
  }
  if (values.quiet !== true) {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    io.out(
      `gen-tenant: wrote ${summary.identities} identities, ${summary.accounts} accounts, ${summary.sources} sources ` +
        `(${summary.files.length} files) to ${values.out} in ${seconds.toFixed(1)} s (seed "${seed}")${stored ? ', stored attributes as the profile computes them' : ''}\n`,
    );
    if (others.length > 0) io.out(`gen-tenant: kept what ${values.out} held besides the tenant: ${others.slice(0, 5).map((n) => JSON.stringify(n)).join(', ')}${others.length > 5 ? `, … (${others.length} in all)` : ''}\n`);
    for (const p of planted) io.out(`planted ${p.kind} ${p.attribute} of ${p.identityName} (${p.identityId}): platform ${JSON.stringify(p.platform)}, ours ${JSON.stringify(p.ours)}\n`);
  }
  return EXIT_OK;
}
