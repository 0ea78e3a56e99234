// snapshotTenant(): copy a platform tenant into a fixture directory that every other command
// reads (fixtures/README.md "Fixture format"), streamed, resumable, incremental (--since),
// optionally pseudonymized, and atomic. docs/snapshot.md describes it for users.

import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { codedError, isTransformsError } from '../errors/index.js';
import { SOURCE_SCHEMAS_FILE } from '../providers/fixtures.js';
import type { IdentityProfile } from '../providers/types.js';
import { createTenantProviders, SEARCH_PAGE_MAX, type TenantProviderOptions, type TenantProviders } from '../providers/tenant/index.js';
import type { Source, TransformDocument } from '../providers/types.js';
import { ArrayFileWriter, writeError } from './array-file-writer.js';
import { arrayText, CHECKPOINT, documentText, fileNames, MANIFEST, sortSources, sourceSchemaRecord, type SourceSchemaRecord } from './layout.js';
import {
  checkOutput, freshDirectory, readCheckpoint, readManifest, replaceOutput, sameIdentity, sameSince, SNAPSHOT_PARTS, workDirectory, writeJsonAtomically,
  type Checkpoint, type Manifest, type SnapshotIdentity, type SnapshotPart,
} from './output.js';
import { checkPseudonymizationKey, createPseudonymizer, type Pseudonymizer } from './pseudonymize.js';
import { checkAborted, copyRecords, MERGE_START, mergeRecords, type MergeCounts, type RecordWriters } from './records.js';

export interface SnapshotProgress {
  phase: 'sources' | 'transforms' | 'profiles' | 'identities' | 'done';
  /** Identities walked so far (copied, or compared with the previous snapshot under --since). */
  identities: number;
  /** The tenant's identity count when known (the bar's 100%). */
  total: number | null;
  /** Accounts written so far. */
  accounts: number;
  /** API requests sent so far (retries included). */
  requests: number;
  elapsedMs: number;
}

export interface SnapshotOptions {
  /** The tenant: client options ({ baseUrl, clientId, clientSecret, … }) or tenant providers. */
  tenant: TenantProviderOptions | TenantProviders;
  /** The snapshot directory: replaced only when the copy completes. */
  out: string;
  /** Copy only this identity profile (name or id) into identity-profiles/. */
  profile?: string;
  /** A previous snapshot: fetch only what changed since it was taken, and merge. */
  since?: string;
  /** Pseudonymize with this key (at least 16 bytes; the CLI reads it from --key-file). */
  pseudonymizationKey?: Uint8Array;
  /** The parts to copy. Default: all of sources, identities, accounts, transforms, profiles. */
  only?: readonly SnapshotPart[];
  /** At most this many requests per second (only when `tenant` is client options). */
  rate?: number;
  /**
   * Identities per search page (1 to 10,000). Default 1,000, and 10,000 (search's maximum) for
   * the walk of a `--since` copy, whose hits hold only an id, a timestamp and a count.
   */
  pageSize?: number;
  /** Resume an interrupted copy of the same tenant and options when its checkpoint is there. Default true. */
  resume?: boolean;
  /** Re-read changes from this long before the previous snapshot's time (clock skew, records written during it). Default 300,000 ms. */
  sinceMarginMs?: number;
  /** Milliseconds since the epoch, for the snapshot's time. Default Date.now. */
  now?: () => number;
  /** Interrupts the copy between pages (the partial copy is kept for a resume). */
  signal?: AbortSignal;
  onProgress?: (progress: SnapshotProgress) => void;
}

export interface SnapshotSummary {
  out: string;
  mode: 'full' | 'incremental';
  resumed: boolean;
  takenAt: string;
  counts: Manifest['counts'];
  /** Under --since: what was fetched again and what was found deleted. */
  merge: MergeCounts | null;
  requests: number;
  retries: number;
  /** Time every request was held back by the tenant's Retry-After. */
  pausedMs: number;
  elapsedMs: number;
}

/** The checkpoint of the identities and accounts is saved at most this often while pages are written. */
const CHECKPOINT_EVERY_MS = 1000;

const OPTION_KEYS = new Set(['tenant', 'out', 'profile', 'since', 'pseudonymizationKey', 'only', 'rate', 'pageSize', 'resume', 'sinceMarginMs', 'now', 'signal', 'onProgress']);

function invalid(message: string, option: string): never {
  throw codedError('SNAPSHOT_OPTIONS', message, { details: { option } });
}

function isProviders(value: unknown): value is TenantProviders {
  return typeof (value as TenantProviders | null)?.fetchAccountsOf === 'function';
}

function checkOptions(options: SnapshotOptions): { parts: SnapshotPart[]; pageSize: number; walkPageSize: number; margin: number } {
  if (options === null || typeof options !== 'object') invalid('snapshot options must be an object', '');
  for (const key of Object.keys(options)) if (!OPTION_KEYS.has(key)) invalid(`unknown snapshot option "${key}"`, key);
  if (options.tenant === null || typeof options.tenant !== 'object') invalid('tenant must be tenant options ({ baseUrl, clientId, clientSecret }) or tenant providers', 'tenant');
  if (typeof options.out !== 'string' || options.out === '') invalid('out must name a directory', 'out');
  if (options.since !== undefined && (typeof options.since !== 'string' || options.since === '')) invalid('since must name a previous snapshot directory', 'since');
  if (options.profile !== undefined && (typeof options.profile !== 'string' || options.profile === '')) invalid('profile must be a profile name or id', 'profile');
  const only = options.only ?? SNAPSHOT_PARTS;
  if (!Array.isArray(only) || only.length === 0 || !only.every((p) => (SNAPSHOT_PARTS as readonly string[]).includes(p))) {
    invalid(`only must list some of ${SNAPSHOT_PARTS.join(', ')}`, 'only');
  }
  const parts = SNAPSHOT_PARTS.filter((p) => only.includes(p));
  if (parts.includes('accounts') && !parts.includes('identities') && options.since !== undefined) invalid('an incremental snapshot of accounts needs identities as well (accounts are grouped by identity)', 'only');
  const int = (name: 'pageSize' | 'rate' | 'sinceMarginMs', min: number, max: number, fallback: number): number => {
    const v = options[name];
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) invalid(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`, name);
    return v;
  };
  const pageSize = int('pageSize', 1, 10_000, 1000);
  const margin = int('sinceMarginMs', 0, 86_400_000, 300_000);
  int('rate', 1, 100_000, 1);
  if (options.rate !== undefined && isProviders(options.tenant)) invalid('rate applies to tenant options; give the providers maxRequestsPerSecond instead', 'rate');
  if (options.pseudonymizationKey !== undefined) checkPseudonymizationKey(options.pseudonymizationKey);
  for (const f of ['now', 'onProgress'] as const) if (options[f] !== undefined && typeof options[f] !== 'function') invalid(`${f} must be a function`, f);
  return { parts, pageSize, walkPageSize: options.pageSize ?? SEARCH_PAGE_MAX, margin };
}

/** Copy a tenant into `options.out`. Resolves with a summary; rejects with a coded error, leaving the previous snapshot intact. */
export async function snapshotTenant(options: SnapshotOptions): Promise<SnapshotSummary> {
  const { parts, pageSize, walkPageSize, margin } = checkOptions(options);
  let providers: TenantProviders;
  try {
    providers = isProviders(options.tenant)
      ? options.tenant
      : createTenantProviders({ ...options.tenant, ...(options.rate !== undefined ? { maxRequestsPerSecond: options.rate } : {}), cache: false });
  } catch (error) {
    if (isTransformsError(error) && error.code === 'TENANT_OPTIONS') invalid(error.message, String(error.details?.option ?? 'tenant'));
    throw error;
  }
  const now = options.now ?? Date.now;
  const started = now();
  const out = checkOutput(options.out);
  const work = workDirectory(out);
  const pseudonymizer: Pseudonymizer | null = options.pseudonymizationKey ? createPseudonymizer(options.pseudonymizationKey) : null;
  const identity: SnapshotIdentity = { tenant: providers.client.baseUrl, parts, profile: options.profile ?? null, pseudonymized: pseudonymizer?.fingerprint ?? null };

  let previous: { dir: string; manifest: Manifest } | null = null;
  if (options.since !== undefined) {
    const dir = resolve(options.since);
    const manifest = readManifest(dir);
    if (!sameIdentity(manifest, identity)) {
      throw codedError('SNAPSHOT_PREVIOUS', `${options.since} was taken of ${manifest.tenant} with parts ${manifest.parts.join(',')}, profile ${manifest.profile ?? '(all)'} and ${manifest.pseudonymized ? 'a pseudonymization key' : 'no pseudonymization'}: a --since snapshot must match the tenant, --only, --profile and the key`, {
        details: { file: join(dir, MANIFEST) },
      });
    }
    // Everything modified after takenAt (less the margin) is fetched again: a time later than
    // now, beyond the margin for clock skew, would keep stale lines as if nothing had changed.
    if (Date.parse(manifest.takenAt) - margin > started) {
      throw codedError('SNAPSHOT_PREVIOUS', `${options.since} says it was taken at ${manifest.takenAt}, after now (${new Date(started).toISOString()}): its manifest was edited or its clock was wrong; take a full snapshot instead of --since`, {
        details: { file: join(dir, MANIFEST) },
      });
    }
    previous = { dir, manifest };
  }

  // A checkpoint of the same copy (the same previous snapshot under --since) is resumed;
  // anything else in the work directory is discarded.
  const found = options.resume !== false ? readCheckpoint(work) : null;
  const resumed = found !== null && sameIdentity(found, identity) && sameSince(found, previous);
  if (!resumed) freshDirectory(work, out);
  const checkpoint: Checkpoint = resumed
    ? found!
    : {
        ...identity, format: 1, takenAt: new Date(started).toISOString(), done: [], identities: { bytes: 0, count: 0, lastId: null }, accounts: { bytes: 0, count: 0 },
        counts: { sources: 0, identities: 0, accounts: 0, transforms: 0, profiles: 0 },
        since: previous === null ? null : { previous: previous.dir, previousTakenAt: previous.manifest.takenAt, progress: MERGE_START() },
      };
  let savedAt = performance.now();
  const save = () => {
    writeJsonAtomically(join(work, CHECKPOINT), checkpoint);
    savedAt = performance.now();
  };
  save();

  let total: number | null = null;
  let phase: SnapshotProgress['phase'] = 'sources';
  const report = (walked: number) =>
    options.onProgress?.({ phase, identities: walked, total, accounts: checkpoint.accounts.count, requests: providers.client.stats().requests, elapsedMs: now() - started });
  const wants = (part: SnapshotPart) => parts.includes(part) && !checkpoint.done.includes(part);

  if (wants('sources')) {
    const sources: Source[] = [];
    for await (const page of providers.client.list<Source>('/v3/sources')) sources.push(...page);
    const records = sortSources(sources).map((s) => (pseudonymizer ? pseudonymizer.source(s) : s));
    writeFile(join(work, 'sources.json'), arrayText(records));
    writeFile(join(work, SOURCE_SCHEMAS_FILE), arrayText(await sourceSchemas(providers, sources)));
    checkpoint.counts.sources = records.length;
    checkpoint.done.push('sources');
    save();
  }
  checkAborted(options.signal);
  if (wants('transforms')) {
    phase = 'transforms';
    report(0);
    const transforms: TransformDocument[] = [];
    for await (const page of providers.client.list<TransformDocument>('/v3/transforms')) transforms.push(...page);
    writeDocuments(join(work, 'transforms'), transforms);
    checkpoint.counts.transforms = transforms.length;
    checkpoint.done.push('transforms');
    save();
  }
  checkAborted(options.signal);
  if (wants('profiles')) {
    phase = 'profiles';
    report(0);
    let profiles = await providers.listIdentityProfiles();
    if (options.profile !== undefined) {
      const wanted = profiles.filter((p) => p.name === options.profile || p.id === options.profile);
      if (wanted.length === 0) {
        throw codedError('SNAPSHOT_PROFILE', `--profile "${options.profile}" is not an identity profile of ${providers.client.baseUrl} (available: ${profiles.map((p) => JSON.stringify(p.name)).join(', ') || 'none'})`, {
          details: { profile: options.profile },
        });
      }
      profiles = wanted;
    }
    writeDocuments(join(work, 'identity-profiles'), profiles.map((p) => (pseudonymizer ? pseudonymizer.profile(p) : p)) as IdentityProfile[]);
    checkpoint.counts.profiles = profiles.length;
    checkpoint.done.push('profiles');
    save();
  }
  checkAborted(options.signal);

  let merge: MergeCounts | null = null;
  if (wants('identities') || wants('accounts')) {
    phase = 'identities';
    total = await providers.countIdentities();
    report(checkpoint.identities.count);
    const writers: RecordWriters = { identities: null, accounts: null };
    try {
      if (parts.includes('identities')) writers.identities = await ArrayFileWriter.open(join(work, 'identities.json'), checkpoint.identities.bytes, checkpoint.identities.count);
      if (parts.includes('accounts')) writers.accounts = await ArrayFileWriter.open(join(work, 'accounts.json'), checkpoint.accounts.bytes, checkpoint.accounts.count);
      const context = {
        providers,
        pageSize,
        walkPageSize,
        pseudonymizer,
        signal: options.signal,
        pageDone: (walked: number, lastId: string) => {
          checkpoint.identities = { bytes: writers.identities?.bytes ?? 0, count: writers.identities?.elements ?? 0, lastId };
          checkpoint.accounts = { bytes: writers.accounts?.bytes ?? 0, count: writers.accounts?.elements ?? 0 };
          checkpoint.counts.identities = walked;
          // Saved at most once a second (and when the copy stops): each save is a write and a rename.
          if (performance.now() - savedAt >= CHECKPOINT_EVERY_MS) save();
          report(walked);
        },
      };
      if (previous === null) await copyRecords(context, writers, checkpoint.identities.lastId, checkpoint.counts.identities);
      else {
        const cutoff = new Date(Date.parse(previous.manifest.takenAt) - margin).toISOString();
        merge = await mergeRecords(context, writers, previous.dir, cutoff, checkpoint.since!.progress, checkpoint.identities.lastId, checkpoint.counts.identities);
      }
      await writers.identities?.finish();
      await writers.accounts?.finish();
    } catch (error) {
      // The checkpoint in memory is the last page written whole: a resume starts after it.
      try {
        save();
      } catch {
        // The copy's own error is the one to report.
      }
      throw error;
    } finally {
      await writers.identities?.close();
      await writers.accounts?.close();
    }
    checkpoint.counts.identities = writers.identities?.elements ?? 0;
    checkpoint.counts.accounts = writers.accounts?.elements ?? 0;
    checkpoint.accounts.count = checkpoint.counts.accounts;
  }

  // The time the copy started (an interrupted one's when resumed): the next --since fetches what changed from then on.
  const takenAt = checkpoint.takenAt;
  const manifest: Manifest = { format: 1, ...identity, takenAt, counts: checkpoint.counts };
  writeJsonAtomically(join(work, MANIFEST), manifest);
  removeFile(join(work, CHECKPOINT));
  checkAborted(options.signal);
  replaceOutput(work, out);
  phase = 'done';
  report(checkpoint.counts.identities);
  const stats = providers.client.stats();
  return { out, mode: previous === null ? 'full' : 'incremental', resumed, takenAt, counts: checkpoint.counts, merge, requests: stats.requests, retries: stats.retries, pausedMs: stats.pausedMs, elapsedMs: now() - started };
}

/**
 * The schemas each source declares (https://developer.sailpoint.com/docs/api/v3/get-source-schemas),
 * in the order of the sources, each schema with its source's id: the attribute names an
 * account schema declares, whether or not an account carries them yet.
 */
async function sourceSchemas(providers: TenantProviders, sources: readonly Source[]): Promise<SourceSchemaRecord[]> {
  const out: SourceSchemaRecord[] = [];
  for (const source of sortSources([...sources])) {
    // One answer, not a paged collection: the endpoint takes no query parameters.
    const { body } = await providers.client.request<unknown>('GET', `/v3/sources/${encodeURIComponent(source.id)}/schemas`);
    if (!Array.isArray(body)) continue;
    for (const schema of body) if (schema !== null && typeof schema === 'object') out.push(sourceSchemaRecord(source.id, schema as Record<string, unknown>));
  }
  return out;
}

function writeFile(file: string, text: string): void {
  try {
    writeFileSync(file, text);
  } catch (error) {
    throw writeError(file, error);
  }
}

function removeFile(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch (error) {
    throw writeError(file, error);
  }
}

/** One file per named record (transforms, identity profiles), named as sailpoint-cli names them. */
function writeDocuments(dir: string, records: readonly { name?: unknown; id?: unknown }[]): void {
  freshDirectory(dir);
  for (const { file, record } of fileNames(records)) writeFile(join(dir, file), documentText(record));
}
