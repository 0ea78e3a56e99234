// Evaluating a batch of tenant records against an identity profile: the work one
// piscina task (or the in-process runner) does. Each evaluator owns one engine built over the
// tenant's sources and transforms, loaded once; accounts and the manager come with each record.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine, type Engine, type Explanation } from '../engine/engine.js';
import type { CacheSizes, CacheStats } from '../engine/caches.js';
import { synchronousRules } from '../engine/rules-module.js';
import type { Limits, RuleFunction, Value } from '../engine/types.js';
import { codedError } from '../errors/index.js';
import { checkFixtureRecord, FIXTURE_DOCUMENTS, FIXTURE_RECORDS, readFixtureDocuments } from '../providers/fixtures.js';
import { createMemoryProviders } from '../providers/memory.js';
import { createStreamedRecordProviders } from '../providers/streamed.js';
import type { Account, Identity, IdentityProfile, Source, TransformDocument, UniquenessProvider } from '../providers/types.js';
import { FixtureUniquenessBuilder } from '../providers/uniqueness.js';
import type { ProfileError, ProfileResult } from '../engine/profile.js';
import { JsonArrayReader, parseObjectElement } from './fixture-stream/json-array-reader.js';
import { accountsRecordError, identityRecordError, managerRecordError } from './fixture-stream/record-errors.js';
import { fileError } from '../json/positions.js';
import type { TenantRecord } from './fixture-stream/record-reader.js';
import { MAX_JSON_DEPTH, checkJsonDepth } from '../json/depth.js';
import { compareIdentity, emptyComparison, type ComparedBatch, type ComparisonConfig } from './stored-comparison.js';

/** Everything an evaluator needs; plain data, so that it can be posted to a worker. */
export interface EvaluatorConfig {
  /** The fixtures directory (sources.json and transforms/ are read from it). */
  fixtures: string;
  profile: IdentityProfile;
  /** Fixed evaluation time (ISO 8601); absent means the system clock. */
  now?: string;
  cacheSizes?: Partial<CacheSizes>;
  limits?: Partial<Limits>;
  /** The transforms `reference` resolves, instead of the fixtures' transforms/. */
  transforms?: TransformDocument[];
  /** A rules module's file URL (engine/rules-module.ts); each thread imports it. */
  rulesModule?: string;
  /**
   * Give usernameGenerator a uniqueness provider over the tenant's identities and accounts
   * (providers/uniqueness.ts), built by reading both files; set when the profile uses one.
   */
  uniqueness?: boolean;
  /** Compare each result with the identity's stored attributes (stored-comparison.ts), for `verify`. */
  compare?: ComparisonConfig;
}

/** Counters of one batch (or of a whole run, once merged). */
export interface RefreshCounts {
  identities: number;
  /** Identities with at least one attribute error. */
  identitiesWithErrors: number;
  /** Attribute values computed without error. */
  attributes: number;
  /** Attribute errors. */
  errors: number;
  errorsByCode: Record<string, number>;
}

/** One identity's result: its attributes and its per-attribute errors (an NDJSON line, once serialised). */
export interface IdentityRefreshResult {
  identityId: string;
  attributes: Record<string, Value>;
  errors: ProfileError[];
}

/** A batch as evaluated: one result per record, in the records' order, and its counters. */
export interface EvaluatedBatch {
  readonly results: IdentityRefreshResult[];
  readonly counts: RefreshCounts;
  /** With the `compare` config: the results compared with the stored attributes. */
  readonly comparison?: ComparedBatch;
}

/** A batch as NDJSON (what `batches()` of a run yields). */
export interface BatchOutput {
  /** One NDJSON line per record, in the records' order. */
  readonly text: string;
  /** The same lines as UTF-8, when a worker thread sent them so: written as they are, not encoded again. */
  readonly bytes?: Uint8Array;
  counts: RefreshCounts;
}

/** A batch's NDJSON as UTF-8 bytes; the text is decoded only for a consumer that asks for it. */
export class EncodedBatch implements BatchOutput {
  private decoded: string | null = null;

  constructor(
    readonly bytes: Uint8Array,
    readonly counts: RefreshCounts,
  ) {}

  get text(): string {
    return (this.decoded ??= Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString('utf8'));
  }
}

export function emptyCounts(): RefreshCounts {
  return { identities: 0, identitiesWithErrors: 0, attributes: 0, errors: 0, errorsByCode: {} };
}

export function addCounts(into: RefreshCounts, more: RefreshCounts): void {
  into.identities += more.identities;
  into.identitiesWithErrors += more.identitiesWithErrors;
  into.attributes += more.attributes;
  into.errors += more.errors;
  for (const [code, n] of Object.entries(more.errorsByCode)) into.errorsByCode[code] = (into.errorsByCode[code] ?? 0) + n;
}

/** sources.json (streamed: it can be large too) and transforms/*.json of a fixtures directory. */
export function loadStaticFixtures(dir: string): { sources: Source[]; transforms: TransformDocument[] } {
  const sources: Source[] = [];
  const sourcesFile = join(dir, FIXTURE_RECORDS.sources.file);
  if (existsSync(sourcesFile)) {
    let index = 0;
    for (const element of new JsonArrayReader(sourcesFile)) {
      const item = parseObjectElement(sourcesFile, element, index);
      const problem = checkFixtureRecord('sources', item, index);
      if (problem !== null) throw fileError(sourcesFile, element.offset, problem.message, { path: problem.pointer });
      sources.push(item as Source);
      index++;
    }
  }
  const transforms = readFixtureDocuments<TransformDocument>(join(dir, FIXTURE_DOCUMENTS.transforms)).map((d) => d.doc);
  return { sources, transforms };
}

type RecordErrorAt = (fixtures: string, record: TenantRecord, cause?: unknown) => Error;

/** The uniqueness provider over a fixture tenant's identities.json and accounts.json, read once, record by record. */
export function tenantUniqueness(dir: string): UniquenessProvider {
  const builder = new FixtureUniquenessBuilder();
  for (const [name, add] of [
    [FIXTURE_RECORDS.identities.file, (item: Record<string, unknown>) => builder.addIdentity(item as unknown as Identity)],
    [FIXTURE_RECORDS.accounts.file, (item: Record<string, unknown>) => builder.addAccount(item as unknown as Account)],
  ] as const) {
    const file = join(dir, name);
    if (!existsSync(file)) continue;
    let index = 0;
    for (const element of new JsonArrayReader(file)) add(parseObjectElement(file, element, index++));
  }
  return builder.build();
}

function parseRecordPart(text: string, fixtures: string, record: TenantRecord, errorAt: RecordErrorAt): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw errorAt(fixtures, record, error);
  }
  try {
    checkJsonDepth(value, MAX_JSON_DEPTH, `the record of ${fixtures}`);
  } catch (error) {
    throw errorAt(fixtures, record, error);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw errorAt(fixtures, record);
  const item = value as Record<string, unknown>;
  if (item.attributes === undefined || item.attributes === null) item.attributes = {};
  return item;
}

function parseAccounts(fixtures: string, record: TenantRecord): Account[] {
  let value: unknown;
  try {
    value = JSON.parse(record.accounts);
  } catch (error) {
    throw accountsRecordError(fixtures, record, error);
  }
  checkJsonDepth(value, MAX_JSON_DEPTH, `the accounts of a record of ${fixtures}`);
  const accounts = value as Record<string, unknown>[];
  for (const account of accounts) {
    if (account === null || typeof account !== 'object' || Array.isArray(account)) throw accountsRecordError(fixtures, record);
    if (account.attributes === undefined || account.attributes === null) account.attributes = {};
  }
  return accounts as Account[];
}

/** One identity's result, counted. */
export function countedResult(counts: RefreshCounts, identityId: string, result: ProfileResult): IdentityRefreshResult {
  counts.identities++;
  counts.errors += result.errors.length;
  if (result.errors.length === 0) {
    counts.attributes += Object.keys(result.attributes).length;
  } else {
    counts.identitiesWithErrors++;
    const errored = new Set(result.errors.map((e) => e.attribute));
    for (const name of Object.keys(result.attributes)) if (!errored.has(name)) counts.attributes++;
    for (const e of result.errors) counts.errorsByCode[e.code] = (counts.errorsByCode[e.code] ?? 0) + 1;
  }
  return { identityId, attributes: result.attributes, errors: result.errors };
}

export interface BatchEvaluator {
  readonly engine: Engine;
  /** Evaluate records in order (read lazily: only the current one need be in memory). */
  run(records: Iterable<TenantRecord>): EvaluatedBatch;
  /** Evaluate the profile for one identity given as objects (what run() does after parsing). */
  evaluate(identity: Identity, accounts: readonly Account[], manager: Identity | null): ProfileResult;
  /** A record's identity, accounts and manager, parsed as run() parses them. */
  parse(record: TenantRecord): { identity: Identity; accounts: Account[]; manager: Identity | null };
  /** How a transform computes its value for one identity given as objects (engine.explain), e.g. an example of a difference. */
  explain(transform: unknown, identity: Identity, accounts: readonly Account[], manager: Identity | null, variables?: Record<string, unknown>): Explanation;
  cacheStats(): Record<string, CacheStats>;
}

/**
 * An evaluator: one engine whose accounts and identity providers answer from the record being
 * evaluated (its accounts; itself and its manager), so that the sync path of the engine holds.
 */
export function createBatchEvaluator(config: EvaluatorConfig, rules?: Record<string, RuleFunction>): BatchEvaluator {
  const loaded = loadStaticFixtures(config.fixtures);
  const memory = createMemoryProviders({ sources: loaded.sources, identities: [], accounts: [], transforms: config.transforms ?? loaded.transforms });
  // During a refresh an evaluation reaches the identity itself, its accounts and its manager ($identity.manager).
  const record = createStreamedRecordProviders({
    sources: memory.sources,
    transforms: memory.transforms,
    // Source names only: a refresh's model holds no accounts beyond the record's.
    names: memory.names,
    ...(config.uniqueness ? { uniqueness: tenantUniqueness(config.fixtures) } : {}),
  });
  let clock: (() => Date) | undefined;
  if (config.now !== undefined) {
    const t = new Date(config.now);
    if (Number.isNaN(t.getTime())) throw codedError('REFRESH_OPTION_INVALID', `now must be an ISO 8601 date-time, not "${config.now}"`, { details: { option: 'now' } });
    clock = () => t;
  }
  const engine = createEngine({
    providers: record.providers,
    ...(clock ? { clock } : {}),
    ...(config.cacheSizes ? { cacheSizes: config.cacheSizes } : {}),
    ...(config.limits ? { limits: config.limits } : {}),
    ...(rules ? { rules: synchronousRules(rules) } : {}),
  });
  const profile = config.profile;
  // Reports of one manager are usually listed together: remember the last parsed manager.
  let lastManagerText: string | null = null;
  let lastManager: Identity | null = null;

  const evaluate = (identity: Identity, accounts: readonly Account[], manager: Identity | null): ProfileResult => {
    record.enter(identity, accounts, manager);
    try {
      return engine.evaluateProfileSync(profile, identity);
    } finally {
      record.leave();
    }
  };

  /** A record's identity, accounts and manager, parsed. */
  const parse = (record: TenantRecord): { identity: Identity; accounts: Account[]; manager: Identity | null } => {
    const identity = parseRecordPart(record.identity, config.fixtures, record, identityRecordError) as Identity;
    const accounts = parseAccounts(config.fixtures, record);
    if (record.manager !== lastManagerText) {
      lastManagerText = record.manager;
      lastManager = record.manager === null ? null : (parseRecordPart(record.manager, config.fixtures, record, managerRecordError) as Identity);
    }
    return { identity, accounts, manager: lastManager };
  };

  return {
    engine,
    evaluate,
    parse,
    explain(transform, identity, accounts, manager, variables) {
      record.enter(identity, accounts, manager);
      try {
        return engine.explain(transform, { identity, ...(variables ? { variables } : {}) });
      } finally {
        record.leave();
      }
    },
    cacheStats: () => engine.cacheStats(),
    run(records) {
      const counts = emptyCounts();
      const results: IdentityRefreshResult[] = [];
      const compare = config.compare;
      const comparison = compare === undefined ? undefined : emptyComparison();
      for (const record of records) {
        const { identity, accounts, manager } = parse(record);
        const result = evaluate(identity, accounts, manager);
        if (comparison !== undefined) compareIdentity(comparison, compare!, identity, accounts, result);
        results.push(countedResult(counts, record.identityId, result));
      }
      return comparison === undefined ? { results, counts } : { results, counts, comparison };
    },
  };
}
