// Evaluating a batch of tenant records against an identity profile (issue 6): the work one
// piscina task (or the in-process runner) does. Each evaluator owns one engine built over the
// tenant's sources and transforms, loaded once; accounts and the manager come with each record.

import { readdirSync, existsSync, statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine, type Engine } from '../engine/engine.js';
import type { CacheSizes, CacheStats } from '../engine/caches.js';
import type { Limits, RuleFunction } from '../engine/types.js';
import { codedError } from '../errors/index.js';
import { createMemoryProviders, type IdentityProfile } from '../providers/memory.js';
import type { Account, Identity, Providers, Source, TransformDocument, UniquenessProvider } from '../providers/types.js';
import { FixtureUniquenessBuilder } from '../providers/uniqueness.js';
import type { ProfileResult } from '../engine/profile.js';
import { JsonArrayReader, parseObjectElement } from './json-array-reader.js';
import { NdjsonEncoder } from './ndjson-writer.js';
import { accountsRecordError, identityRecordError, managerRecordError } from './record-errors.js';
import { invalidJsonText, stripByteOrderMark } from '../errors/positions.js';
import type { TenantRecord } from './record-reader.js';

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
  const sourcesFile = join(dir, 'sources.json');
  if (existsSync(sourcesFile)) {
    let index = 0;
    for (const element of new JsonArrayReader(sourcesFile)) {
      const item = parseObjectElement(sourcesFile, element, index);
      if (typeof item.id !== 'string' || typeof item.name !== 'string') {
        throw codedError('CLI_FIXTURES', `${sourcesFile}: element ${index} needs a string "id" and "name"`, { path: `/${index}`, details: { file: sourcesFile } });
      }
      sources.push(item as Source);
      index++;
    }
  }
  const transforms: TransformDocument[] = [];
  const transformsDir = join(dir, 'transforms');
  if (existsSync(transformsDir) && statSync(transformsDir).isDirectory()) {
    for (const name of readdirSync(transformsDir).filter((f) => f.endsWith('.json')).sort()) {
      const file = join(transformsDir, name);
      const text = stripByteOrderMark(readFileSync(file, 'utf8'));
      try {
        transforms.push(JSON.parse(text) as TransformDocument);
      } catch (error) {
        throw invalidJsonText(file, text, error);
      }
    }
  }
  return { sources, transforms };
}

type RecordErrorAt = (fixtures: string, record: TenantRecord, cause?: unknown) => Error;

/** The uniqueness provider over a fixture tenant's identities.json and accounts.json, read once, record by record. */
export function tenantUniqueness(dir: string): UniquenessProvider {
  const builder = new FixtureUniquenessBuilder();
  for (const [name, add] of [
    ['identities.json', (item: Record<string, unknown>) => builder.addIdentity(item as unknown as Identity)],
    ['accounts.json', (item: Record<string, unknown>) => builder.addAccount(item as unknown as Account)],
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
  const accounts = value as Record<string, unknown>[];
  for (const account of accounts) {
    if (account === null || typeof account !== 'object' || Array.isArray(account)) throw accountsRecordError(fixtures, record);
    if (account.attributes === undefined || account.attributes === null) account.attributes = {};
  }
  return accounts as Account[];
}

/** Count one identity's result and give its NDJSON line (without the newline). */
export function resultLine(counts: RefreshCounts, identityId: string, result: ProfileResult): string {
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
  return JSON.stringify({ identityId, attributes: result.attributes, errors: result.errors });
}

export interface BatchEvaluator {
  readonly engine: Engine;
  /** Evaluate records in order (read lazily: only the current one need be in memory). */
  run(records: Iterable<TenantRecord>): EncodedBatch;
  /** Evaluate the profile for one identity given as objects (what run() does after parsing). */
  evaluate(identity: Identity, accounts: readonly Account[], manager: Identity | null): ProfileResult;
  cacheStats(): Record<string, CacheStats>;
}

/**
 * An evaluator: one engine whose accounts and identity providers answer from the record being
 * evaluated (its accounts; itself and its manager), so that the sync path of the engine holds.
 */
export function createBatchEvaluator(config: EvaluatorConfig, rules?: Record<string, RuleFunction>): BatchEvaluator {
  const loaded = loadStaticFixtures(config.fixtures);
  const memory = createMemoryProviders({ sources: loaded.sources, identities: [], accounts: [], transforms: config.transforms ?? loaded.transforms });
  let current: Identity | null = null;
  let currentAccounts: readonly Account[] = [];
  let currentManager: Identity | null = null;
  const none: readonly Account[] = Object.freeze([]);
  const providers: Providers = {
    sources: memory.sources,
    transforms: memory.transforms,
    accounts: {
      listAccounts(query) {
        const all = current !== null && query.identityId === current.id ? currentAccounts : none;
        return query.sourceId === undefined ? all : all.filter((a) => a.sourceId === query.sourceId);
      },
    },
    ...(config.uniqueness ? { uniqueness: tenantUniqueness(config.fixtures) } : {}),
    // During a refresh an evaluation reaches the identity itself and its manager ($identity.manager).
    identities: {
      getIdentity(id) {
        if (current !== null && current.id === id) return current;
        if (currentManager !== null && currentManager.id === id) return currentManager;
        return null;
      },
      findIdentityByName(name) {
        if (current !== null && current.name === name) return current;
        if (currentManager !== null && currentManager.name === name) return currentManager;
        return null;
      },
    },
  };
  let clock: (() => Date) | undefined;
  if (config.now !== undefined) {
    const t = new Date(config.now);
    if (Number.isNaN(t.getTime())) throw codedError('REFRESH_OPTION_INVALID', `now must be an ISO 8601 date-time, not "${config.now}"`, { details: { option: 'now' } });
    clock = () => t;
  }
  const engine = createEngine({
    providers,
    ...(clock ? { clock } : {}),
    ...(config.cacheSizes ? { cacheSizes: config.cacheSizes } : {}),
    ...(config.limits ? { limits: config.limits } : {}),
    ...(rules ? { rules } : {}),
  });
  const profile = config.profile;
  // Reports of one manager are usually listed together: remember the last parsed manager.
  let lastManagerText: string | null = null;
  let lastManager: Identity | null = null;
  const encoder = new NdjsonEncoder();

  const evaluate = (identity: Identity, accounts: readonly Account[], manager: Identity | null): ProfileResult => {
    current = identity;
    currentAccounts = accounts;
    currentManager = manager;
    try {
      return engine.evaluateProfileSync(profile, identity);
    } finally {
      current = null;
      currentAccounts = none;
      currentManager = null;
    }
  };

  return {
    engine,
    evaluate,
    cacheStats: () => engine.cacheStats(),
    run(records) {
      const counts = emptyCounts();
      for (const record of records) {
        const identity = parseRecordPart(record.identity, config.fixtures, record, identityRecordError) as Identity;
        const accounts = parseAccounts(config.fixtures, record);
        if (record.manager !== lastManagerText) {
          lastManagerText = record.manager;
          lastManager = record.manager === null ? null : (parseRecordPart(record.manager, config.fixtures, record, managerRecordError) as Identity);
        }
        encoder.add(resultLine(counts, record.identityId, evaluate(identity, accounts, lastManager)));
      }
      return new EncodedBatch(encoder.take(), counts);
    },
  };
}
