// In-memory providers over a fixtures directory (format: README "Fixture format").
// Indexes are built once; every answer is synchronous, so refresh keeps the fast path.

import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { codedError } from '../errors/index.js';
import { invalidJsonText, pointerError, stripByteOrderMark } from '../errors/positions.js';
import type { Account, Identity, Providers, Source, SourceRef, TransformDocument } from './types.js';

export interface IdentityProfile {
  id?: string;
  name: string;
  authoritativeSource?: { type?: string; id?: string; name?: string };
  identityAttributeConfig: {
    enabled?: boolean;
    attributeTransforms: { identityAttributeName: string; transformDefinition: { type: string; attributes?: Record<string, unknown> | null } }[];
  };
  [key: string]: unknown;
}

export interface Fixtures {
  sources: Source[];
  identities: Identity[];
  accounts: Account[];
  transforms: TransformDocument[];
  profiles: IdentityProfile[];
}

/** Read and parse a JSON file; unreadable is CLI_READ, malformed is CLI_FIXTURES (with the file). */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = stripByteOrderMark(readFileSync(file, 'utf8'));
  } catch (error) {
    throw codedError('CLI_READ', `cannot read ${file}: ${(error as Error).message}`, { cause: error, details: { file } });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidJsonText(file, text, error);
  }
}

function readArray<T>(dir: string, name: string, check: (item: Record<string, unknown>, i: number) => void): T[] {
  const file = join(dir, name);
  if (!existsSync(file)) return [];
  const data = readJsonFile(file);
  if (!Array.isArray(data)) throw pointerError(file, '', 'the file must hold a JSON array');
  data.forEach((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw pointerError(file, `/${i}`, `element ${i} of the array must be an object`);
    check(item as Record<string, unknown>, i);
  });
  return data as T[];
}

function requireStrings(file: string, keys: string[]) {
  return (item: Record<string, unknown>, i: number) => {
    for (const k of keys) {
      if (typeof item[k] !== 'string') throw pointerError(file, `/${i}${k in item ? `/${k}` : ''}`, `element ${i} of the array needs a string "${k}"`);
    }
  };
}

function readDirectory<T>(dir: string): T[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => readJsonFile(join(dir, f)) as T);
}

/** Read a fixtures directory. Missing files are empty collections; malformed ones are CLI_FIXTURES errors. */
export function loadFixtures(dir: string): Fixtures {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw codedError('CLI_FIXTURES', `fixtures directory ${dir} does not exist`, { details: { file: dir } });
  }
  const sources = readArray<Source>(dir, 'sources.json', requireStrings(join(dir, 'sources.json'), ['id', 'name']));
  const identities = readArray<Identity>(dir, 'identities.json', (item, i) => {
    requireStrings(join(dir, 'identities.json'), ['id', 'name'])(item, i);
    if (item.attributes === undefined) item.attributes = {};
  });
  const accounts = readArray<Account>(dir, 'accounts.json', (item, i) => {
    requireStrings(join(dir, 'accounts.json'), ['id', 'identityId', 'sourceId'])(item, i);
    if (item.attributes === undefined) item.attributes = {};
  });
  const transforms = readDirectory<TransformDocument>(join(dir, 'transforms'));
  const profiles = readDirectory<IdentityProfile>(join(dir, 'identity-profiles'));
  return { sources, identities, accounts, transforms, profiles };
}

/** Providers answering from in-memory fixtures (synchronously). */
export function createMemoryProviders(fixtures: Pick<Fixtures, 'sources' | 'identities' | 'accounts'> & Partial<Fixtures>): Required<Omit<Providers, 'uniqueness'>> & Pick<Providers, 'uniqueness'> {
  const sourcesById = new Map<string, Source>();
  const sourcesByName = new Map<string, Source>();
  const sourcesByAppName = new Map<string, Source>();
  const sourcesByExternal = new Map<string, Source>();
  for (const s of fixtures.sources) {
    sourcesById.set(s.id, s);
    sourcesByName.set(s.name, s);
    sourcesByAppName.set(s.applicationName ?? `${s.name} [source]`, s);
    sourcesByExternal.set(s.externalId ?? s.id, s);
  }
  const identitiesById = new Map<string, Identity>();
  const identitiesByName = new Map<string, Identity>();
  for (const i of fixtures.identities) {
    identitiesById.set(i.id, i);
    identitiesByName.set(i.name, i);
  }
  const accountsByIdentity = new Map<string, Account[]>();
  for (const a of fixtures.accounts) {
    let list = accountsByIdentity.get(a.identityId);
    if (!list) accountsByIdentity.set(a.identityId, (list = []));
    list.push(a);
  }
  const transformsByName = new Map<string, TransformDocument>();
  for (const t of fixtures.transforms ?? []) if (typeof t.name === 'string') transformsByName.set(t.name, t);
  const empty: readonly Account[] = Object.freeze([]);

  return {
    sources: {
      // Precedence when several keys are given: sourceId, applicationId, applicationName, sourceName.
      resolveSource(ref: SourceRef) {
        if (ref.sourceId !== undefined) return sourcesById.get(ref.sourceId) ?? null;
        if (ref.applicationId !== undefined) return sourcesByExternal.get(ref.applicationId) ?? null;
        if (ref.applicationName !== undefined) return sourcesByAppName.get(ref.applicationName) ?? null;
        if (ref.sourceName !== undefined) return sourcesByName.get(ref.sourceName) ?? null;
        return null;
      },
    },
    accounts: {
      listAccounts(query) {
        const all = accountsByIdentity.get(query.identityId) ?? empty;
        if (query.sourceId === undefined) return all;
        return all.filter((a) => a.sourceId === query.sourceId);
      },
    },
    identities: {
      getIdentity: (id) => identitiesById.get(id) ?? null,
      findIdentityByName: (name) => identitiesByName.get(name) ?? null,
    },
    transforms: {
      getTransform: (name) => transformsByName.get(name) ?? null,
    },
  };
}
