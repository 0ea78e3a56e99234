// The workspace's tenant model: what a fixture or snapshot directory (fixtures/README.md
// "Fixture format") says about the tenant — its sources, the attribute names their account
// schemas declare and their accounts carry, the identity attributes, the identities' ids and names — kept small (names, not
// records) so that a 100,000-identity snapshot fits an editor's server. The record files are
// streamed element by element and the loop yields to the event loop between slices, so that a
// request arriving while the model loads is answered at once (without the model).
//
// The directory is configured, or found by walking up from the file being edited (the way
// Regal finds its input.json): the first directory that holds sources.json or identities.json,
// or has a fixtures/ folder that does.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { codedError } from '../errors/index.js';
import { isDirectory } from '../json/paths.js';
import { SourceIndex } from '../providers/sources.js';
import { FIXTURE_RECORDS, readJsonFile, SOURCE_SCHEMAS_FILE } from '../providers/fixtures.js';
import { IdentityIds, type IdOccurrence } from '../providers/identity-ids.js';
import type { Account, Identity, Source } from '../providers/types.js';
import type { TenantNames } from '../engine/validate-tenant.js';
import { JsonArrayReader, parseElement } from '../refresh/fixture-stream/json-array-reader.js';

export interface IdentityName {
  id: string;
  name: string;
}

export interface TenantModel extends TenantNames {
  /** The fixture directory the model was read from. */
  readonly dir: string;
  /** Every identity's id and name (the records themselves are read when one is evaluated). */
  readonly identities: readonly IdentityName[];
  /** The attribute names identities carry. */
  readonly identityAttributes: ReadonlySet<string>;
}

/** The schema of a source's accounts is named "account" (https://developer.sailpoint.com/docs/api/v3/get-source-schemas). */
const ACCOUNT_SCHEMA = 'account';

/** Elements read between two yields to the event loop. */
const SLICE = 2000;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

const isFixtureDir = (dir: string) => existsSync(join(dir, FIXTURE_RECORDS.sources.file)) || existsSync(join(dir, FIXTURE_RECORDS.identities.file));

/** The fixture directory of a file: walking up from its folder, or undefined when there is none. */
export function findFixturesDir(fromFile: string): string | undefined {
  let dir = isDirectory(fromFile) ? fromFile : dirname(fromFile);
  for (;;) {
    if (isFixtureDir(dir)) return dir;
    if (isFixtureDir(join(dir, 'fixtures'))) return join(dir, 'fixtures');
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * Each element of a record file, parsed, the event loop served between slices; a missing file
 * has none. An element that is not JSON is CLI_FIXTURES at its file:line:column; one that is not
 * an object is passed over (the model holds names, and a record without them has none to give).
 */
async function forEachRecord(file: string, each: (record: Record<string, unknown>, at: IdOccurrence) => boolean | void): Promise<void> {
  if (!existsSync(file)) return;
  const reader = new JsonArrayReader(file);
  try {
    for (let n = 1; ; n++) {
      const element = reader.next();
      if (element === null) return;
      const record = parseElement(file, element, n - 1);
      if (record !== null && typeof record === 'object' && !Array.isArray(record) && each(record as Record<string, unknown>, { index: n - 1, offset: element.offset }) === false) return;
      if (n % SLICE === 0) await yieldToEventLoop();
    }
  } finally {
    reader.close();
  }
}

async function readSources(dir: string): Promise<Source[]> {
  const file = join(dir, FIXTURE_RECORDS.sources.file);
  if (!existsSync(file)) return [];
  const data = readJsonFile(file);
  return Array.isArray(data) ? (data as unknown[]).filter((s): s is Source => typeof (s as Source)?.id === 'string' && typeof (s as Source)?.name === 'string') : [];
}

/**
 * The attribute names each source's account schema declares, by source id, where the directory
 * has the sources' schemas (written by a snapshot; https://developer.sailpoint.com/docs/api/v3/get-source-schemas).
 */
async function declaredAttributes(dir: string): Promise<Map<string, Set<string>>> {
  const declared = new Map<string, Set<string>>();
  await forEachRecord(join(dir, SOURCE_SCHEMAS_FILE), (schema) => {
    if (typeof schema.sourceId !== 'string' || schema.name !== ACCOUNT_SCHEMA || !Array.isArray(schema.attributes)) return;
    let names = declared.get(schema.sourceId);
    if (!names) declared.set(schema.sourceId, (names = new Set()));
    for (const a of schema.attributes as unknown[]) {
      const name = (a as { name?: unknown } | null)?.name;
      if (typeof name === 'string' && name !== '') names.add(name);
    }
  });
  return declared;
}

/**
 * Read the model of a fixture directory. Malformed files reject with the coded error of the
 * fixture readers (CLI_FIXTURES, CLI_READ); the caller keeps answering without a model.
 */
export async function loadTenantModel(dir: string): Promise<TenantModel> {
  if (!isDirectory(dir)) throw codedError('CLI_FIXTURES', `fixtures directory ${dir} does not exist`, { details: { file: dir } });
  const sources = await readSources(dir);
  // The names each source's account schema declares (a snapshot's source-schemas.json), then
  // those its accounts carry.
  const carried = await declaredAttributes(dir);
  await forEachRecord(join(dir, FIXTURE_RECORDS.accounts.file), (a) => {
    if (typeof a.sourceId !== 'string' || a.attributes === null || typeof a.attributes !== 'object') return;
    let names = carried.get(a.sourceId);
    if (!names) carried.set(a.sourceId, (names = new Set()));
    for (const k of Object.keys(a.attributes)) names.add(k);
  });
  const identities: IdentityName[] = [];
  const identityAttributes = new Set<string>();
  const ids = new IdentityIds();
  const identitiesFile = join(dir, FIXTURE_RECORDS.identities.file);
  await forEachRecord(identitiesFile, (i, at) => {
    if (typeof i.id !== 'string' || typeof i.name !== 'string') return;
    ids.add(i.id, at);
    if (ids.repeated !== null) return false;
    identities.push({ id: i.id, name: i.name });
    if (i.attributes !== null && typeof i.attributes === 'object') for (const k of Object.keys(i.attributes)) identityAttributes.add(k);
  });
  ids.check(identitiesFile);
  return {
    dir,
    sources,
    sourceIndex: new SourceIndex(sources),
    accountAttributes: (sourceId) => carried.get(sourceId),
    identities,
    identityAttributes,
  };
}

/** A record with an attributes object (fixtures may leave it out). */
function record<T>(r: Record<string, unknown>): T {
  return { ...r, attributes: r.attributes !== null && typeof r.attributes === 'object' && !Array.isArray(r.attributes) ? r.attributes : {} } as T;
}

/** One identity with what evaluating a transform for it reads: its accounts and its manager. */
export interface IdentityRecords {
  identity: Identity;
  manager: Identity | null;
  accounts: Account[];
}

/** Read one identity (by id or name) of a fixture directory with its accounts and manager; null when there is none. */
export async function loadIdentityRecords(dir: string, idOrName: string): Promise<IdentityRecords | null> {
  let identity: Identity | null = null;
  await forEachRecord(join(dir, FIXTURE_RECORDS.identities.file), (i) => {
    // An id match wins over a name match: after a name match the walk goes on looking for an id.
    if (i.id === idOrName) {
      identity = record<Identity>(i);
      return false;
    }
    if (i.name === idOrName && identity === null) identity = record<Identity>(i);
  });
  if (identity === null) return null;
  const found: Identity = identity;
  let manager: Identity | null = null;
  if (typeof found.managerId === 'string') {
    const managerId = found.managerId;
    await forEachRecord(join(dir, FIXTURE_RECORDS.identities.file), (i) => {
      if (i.id !== managerId) return;
      manager = record<Identity>(i);
      return false;
    });
  }
  const accounts: Account[] = [];
  await forEachRecord(join(dir, FIXTURE_RECORDS.accounts.file), (a) => {
    if (a.identityId === found.id) accounts.push(record<Account>(a));
  });
  return { identity: found, manager, accounts };
}
