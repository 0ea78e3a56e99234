// Deterministic synthetic tenants in the fixture format (README "Fixture format"). Identities are
// built one at a time from (seed, index) and written as they are built, so a 1,000,000-identity
// tenant never sits in memory.

import { cpSync, existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TransformsError } from '../../errors/index.js';
import type { Source } from '../../providers/types.js';
import { identityId, tenantSources } from './data.js';
import { person, personCache, tenantShape } from './person.js';
import { generateRecords, type GeneratedIdentity } from './records.js';
import { specialCases } from './special-cases.js';
import { JsonArrayWriter } from './array-writer.js';

export type { GeneratedIdentity } from './records.js';
export { SOURCE_IDS, asciiFold } from './data.js';
export { specialCases } from './special-cases.js';
export { storeComputedAttributes, type PlantedDifference, type StoreOptions, type StoreSummary } from './stored.js';

/** Largest tenant the generator accepts (ids and employee numbers stay well formed below it). */
export const MAX_IDENTITIES = 10_000_000;

export interface TenantOptions {
  /** Number of identities, 1 … 10,000,000. */
  identities: number;
  /** Any string (numbers are used as their decimal string): the same seed gives the same tenant. */
  seed: string | number;
}

export interface WriteTenantOptions extends TenantOptions {
  /** A fixtures directory whose transforms/ and identity-profiles/ are copied into the tenant. */
  copyFrom?: string;
  /** Append the hand-written identities of the documented examples (the bundled fixtures have them). */
  specialCases?: boolean;
}

export interface TenantSummary {
  identities: number;
  accounts: number;
  sources: number;
  /** Account count per source id. */
  accountsBySource: Record<string, number>;
  /** Files written, relative to the output directory. */
  files: string[];
}

function usage(message: string, option: string): TransformsError {
  return new TransformsError('CLI_USAGE', message, { details: { option } });
}

function checkOptions(options: TenantOptions): { identities: number; seed: string } {
  const { identities, seed } = options;
  if (!Number.isSafeInteger(identities) || identities < 1 || identities > MAX_IDENTITIES) {
    throw usage(`identities must be an integer from 1 to ${MAX_IDENTITIES}, got ${String(identities)}`, 'identities');
  }
  if (typeof seed === 'number' ? !Number.isFinite(seed) : typeof seed !== 'string' || seed.length === 0) {
    throw usage('seed must be a non-empty string or a finite number', 'seed');
  }
  return { identities, seed: String(seed) };
}

/** The sources of a tenant generated with `seed` (owned by its identity #0). */
export function generateSources(seed: string | number): Source[] {
  const shape = tenantShape(String(seed));
  const owner = person(shape, 0);
  return tenantSources({ id: owner.id, name: owner.uid });
}

/**
 * The identities of a tenant, one at a time, each with its accounts. Lazy and O(1) in memory:
 * a manager is recomputed from its index rather than remembered.
 */
export function* generateIdentities(options: TenantOptions): Generator<GeneratedIdentity, void, undefined> {
  const { identities, seed } = checkOptions(options);
  const shape = tenantShape(seed);
  const managerOf = personCache(shape);
  for (let index = 0; index < identities; index++) {
    const p = person(shape, index);
    yield generateRecords(shape, p, p.managerIndex === null ? null : managerOf(p.managerIndex));
  }
}

function* chain<T>(...parts: Iterable<T>[]): Generator<T, void, undefined> {
  for (const part of parts) yield* part;
}

function copyDirectory(from: string, to: string, name: string, files: string[]): void {
  const source = join(from, name);
  if (!existsSync(source)) return;
  mkdirSync(join(to, name), { recursive: true });
  for (const entry of readdirSync(source).sort()) {
    if (!entry.endsWith('.json')) continue;
    cpSync(join(source, entry), join(to, name, entry));
    files.push(`${name}/${entry}`);
  }
}

/**
 * Generate a tenant into `dir` (created when missing): sources.json, identities.json,
 * accounts.json, and — with `copyFrom` — the transforms/ and identity-profiles/ of that
 * fixtures directory. Files are written under a temporary name and renamed when complete.
 */
export function writeTenant(dir: string, options: WriteTenantOptions): TenantSummary {
  const { identities, seed } = checkOptions(options);
  mkdirSync(dir, { recursive: true });
  const sources = generateSources(seed);
  const accountsBySource: Record<string, number> = Object.fromEntries(sources.map((s) => [s.id, 0]));

  const parts = ['sources.json', 'identities.json', 'accounts.json'];
  const sourcesOut = new JsonArrayWriter(join(dir, 'sources.json.partial'));
  for (const s of sources) sourcesOut.write(s);
  sourcesOut.close();

  const identitiesOut = new JsonArrayWriter(join(dir, 'identities.json.partial'));
  const accountsOut = new JsonArrayWriter(join(dir, 'accounts.json.partial'));
  let accountCount = 0;
  const extra = options.specialCases === true ? specialCases(identityId(0)) : [];
  for (const { identity, accounts } of chain(generateIdentities({ identities, seed }), extra)) {
    identitiesOut.write(identity);
    for (const account of accounts) {
      accountsOut.write(account);
      accountsBySource[account.sourceId] = (accountsBySource[account.sourceId] ?? 0) + 1;
    }
    accountCount += accounts.length;
  }
  identitiesOut.close();
  accountsOut.close();
  for (const file of parts) renameSync(join(dir, `${file}.partial`), join(dir, file));

  const files = [...parts];
  // Copying a fixtures directory onto itself would be a no-op at best.
  if (options.copyFrom !== undefined && resolve(options.copyFrom) !== resolve(dir)) {
    copyDirectory(options.copyFrom, dir, 'transforms', files);
    copyDirectory(options.copyFrom, dir, 'identity-profiles', files);
  }
  return { identities: identities + extra.length, accounts: accountCount, sources: sources.length, accountsBySource, files };
}
