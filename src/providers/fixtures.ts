// Reading a fixtures directory (format: README "Fixture format"): sources.json, identities.json
// and accounts.json (arrays of records), transforms/ and identity-profiles/ (one JSON document per
// file, in file-name order). Every reader of fixtures reads and checks them here: the whole
// directory at once (loadFixtures), or record by record for a refresh's streamed files
// (checkFixtureRecord with the record's own position).

import { constants as bufferConstants } from 'node:buffer';
import { readdirSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { codedError } from '../errors/index.js';
import { invalidJsonText, pointerError } from '../json/positions.js';
import type { Account, Identity, IdentityProfile, Source, TransformDocument } from './types.js';
import { MAX_JSON_DEPTH, checkJsonDepth } from '../json/depth.js';
import { readRegularFile } from '../json/read-file.js';
import { IdentityIds } from './identity-ids.js';

export interface Fixtures {
  sources: Source[];
  identities: Identity[];
  accounts: Account[];
  transforms: TransformDocument[];
  profiles: IdentityProfile[];
}

/** The record files of a fixtures directory and the string members each record needs. */
export const FIXTURE_RECORDS = {
  sources: { file: 'sources.json', required: ['id', 'name'] },
  identities: { file: 'identities.json', required: ['id', 'name'] },
  accounts: { file: 'accounts.json', required: ['id', 'identityId', 'sourceId'] },
} as const;

export type FixtureRecordKind = keyof typeof FIXTURE_RECORDS;

/**
 * The sources' schemas, where a snapshot wrote them (optional): one schema per element, with its
 * source's `sourceId` beside what https://developer.sailpoint.com/docs/api/v3/get-source-schemas answers.
 */
export const SOURCE_SCHEMAS_FILE = 'source-schemas.json';

/** The document folders of a fixtures directory. */
export const FIXTURE_DOCUMENTS = { transforms: 'transforms', profiles: 'identity-profiles' } as const;

/** What is wrong with one record: a pointer into its file and a sentence. */
export interface RecordProblem {
  pointer: string;
  message: string;
}

/**
 * Check element `index` of a record file: an object with the kind's string members. Returns the
 * first problem, or null; the caller locates it (a whole file by pointer, a streamed one by offset).
 */
export function checkFixtureRecord(kind: FixtureRecordKind, item: unknown, index: number): RecordProblem | null {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return { pointer: `/${index}`, message: `element ${index} of the array must be an object` };
  const record = item as Record<string, unknown>;
  for (const k of FIXTURE_RECORDS[kind].required) {
    if (typeof record[k] !== 'string') return { pointer: `/${index}${k in record ? `/${k}` : ''}`, message: `element ${index} of the array needs a string "${k}"` };
  }
  return null;
}

/**
 * Check what an evaluation reads of an identity profile: an object whose identityAttributeConfig
 * holds an attributeTransforms array of mappings, each with an identityAttributeName and a
 * transformDefinition object (the definitions themselves are checked when they are compiled).
 * Returns the first problem (a pointer into the profile and a sentence), or null.
 */
export function checkIdentityProfile(value: unknown): RecordProblem | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { pointer: '', message: 'an identity profile must be a JSON object' };
  const config = (value as Record<string, unknown>).identityAttributeConfig;
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return { pointer: '/identityAttributeConfig', message: 'needs an "identityAttributeConfig" object' };
  const mappings = (config as Record<string, unknown>).attributeTransforms;
  if (!Array.isArray(mappings)) return { pointer: '/identityAttributeConfig/attributeTransforms', message: 'needs an "attributeTransforms" array' };
  for (let i = 0; i < mappings.length; i++) {
    const at = `/identityAttributeConfig/attributeTransforms/${i}`;
    const m = mappings[i] as unknown;
    if (m === null || typeof m !== 'object') return { pointer: at, message: `mapping ${i} must be an object` };
    const mapping = m as Record<string, unknown>;
    if (typeof mapping.identityAttributeName !== 'string' || mapping.identityAttributeName === '') return { pointer: `${at}/identityAttributeName`, message: `mapping ${i} needs an "identityAttributeName"` };
    if (mapping.transformDefinition === null || typeof mapping.transformDefinition !== 'object') return { pointer: `${at}/transformDefinition`, message: `mapping ${i} needs a "transformDefinition" object` };
  }
  return null;
}

/** Read and parse a JSON file; unreadable is CLI_READ, malformed is CLI_FIXTURES (with the file). */
export function readJsonFile(file: string): unknown {
  // Only a regular file (a FIFO would hang, /dev/zero would not end), and no larger than a string may be.
  const read = readRegularFile(file, bufferConstants.MAX_STRING_LENGTH);
  if (!read.ok) throw codedError('CLI_READ', `cannot read ${file}: ${read.message}`, { ...('cause' in read ? { cause: read.cause } : {}), details: { file } });
  const text = read.text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalidJsonText(file, text, error);
  }
  checkJsonDepth(value, MAX_JSON_DEPTH, file, text);
  return value;
}

/** A record file read whole and checked (identities' ids unique: identity-ids.ts); a missing file is an empty collection. */
export function readFixtureRecords<T>(dir: string, kind: FixtureRecordKind): T[] {
  const file = join(dir, FIXTURE_RECORDS[kind].file);
  if (!existsSync(file)) return [];
  const data = readJsonFile(file);
  if (!Array.isArray(data)) throw pointerError(file, '', 'the file must hold a JSON array');
  const ids = kind === 'identities' ? new IdentityIds() : null;
  data.forEach((item, i) => {
    const problem = checkFixtureRecord(kind, item, i);
    if (problem !== null) throw pointerError(file, problem.pointer, problem.message);
    ids?.add((item as { id: string }).id, { index: i });
  });
  ids?.check(file);
  return data as T[];
}

/** The JSON documents of a folder (transforms/, identity-profiles/), with their files, in file-name order; a missing folder has none. */
export function readFixtureDocuments<T>(dir: string): { file: string; doc: T }[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = join(dir, f);
      return { file, doc: readJsonFile(file) as T };
    });
}

/** Read a fixtures directory. Missing files are empty collections; malformed ones are CLI_FIXTURES errors. */
export function loadFixtures(dir: string): Fixtures {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw codedError('CLI_FIXTURES', `fixtures directory ${dir} does not exist`, { details: { file: dir } });
  }
  const withAttributes = <T extends { attributes?: unknown }>(records: T[]): T[] => {
    for (const r of records) if (r.attributes === undefined) r.attributes = {};
    return records;
  };
  return {
    sources: readFixtureRecords<Source>(dir, 'sources'),
    identities: withAttributes(readFixtureRecords<Identity>(dir, 'identities')),
    accounts: withAttributes(readFixtureRecords<Account>(dir, 'accounts')),
    transforms: readFixtureDocuments<TransformDocument>(join(dir, FIXTURE_DOCUMENTS.transforms)).map((d) => d.doc),
    profiles: readFixtureDocuments<IdentityProfile>(join(dir, FIXTURE_DOCUMENTS.profiles)).map((d) => d.doc),
  };
}
