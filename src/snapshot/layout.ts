// The fixture directory a snapshot writes (fixtures/README.md "Fixture format"): the record
// shapes, the layout of their one-element-per-line array files (written by array-file-writer.ts,
// read by array-file-reader.ts), and the file names of transforms and identity profiles.
// Everything here is deterministic, so that two copies of the same tenant state are the same
// bytes however they were made (in one run, resumed, or merged by --since).

import type { Account, Identity, Source } from '../providers/types.js';

/** The manifest of a complete snapshot (a dot file: fixture readers and `validate` skip it). */
export const MANIFEST = '.snapshot.json';
export const CHECKPOINT = 'checkpoint.json';

/**
 * An identity in the fixture shape, members in a fixed order; `modified` and `identityProfile`
 * (what `verify` needs to see staleness and the profile that computed the attributes) only when
 * the tenant answered them.
 */
export function identityRecord(identity: Identity): Identity {
  const profile = identity.identityProfile;
  return {
    id: identity.id,
    name: identity.name,
    attributes: identity.attributes ?? {},
    managerId: identity.managerId ?? null,
    ...(typeof identity.modified === 'string' ? { modified: identity.modified } : {}),
    ...(profile !== null && typeof profile === 'object' && typeof profile.id === 'string' ? { identityProfile: { id: profile.id, name: typeof profile.name === 'string' ? profile.name : '' } } : {}),
  };
}

/** An account in the fixture shape, members in a fixed order (the API's extra members are dropped; `modified` kept, see below). */
export function accountRecord(doc: Account): Account {
  const attributes = doc.attributes !== null && typeof doc.attributes === 'object' && !Array.isArray(doc.attributes) ? doc.attributes : {};
  return {
    id: String(doc.id),
    identityId: String(doc.identityId),
    sourceId: String(doc.sourceId),
    nativeIdentity: typeof doc.nativeIdentity === 'string' ? doc.nativeIdentity : String(doc.nativeIdentity ?? ''),
    name: typeof doc.name === 'string' ? doc.name : String(doc.name ?? ''),
    created: typeof doc.created === 'string' ? doc.created : '',
    // Written only when it says more than `created`: a reader takes an absent `modified` as `created`.
    ...(typeof doc.modified === 'string' && doc.modified !== doc.created ? { modified: doc.modified } : {}),
    hasEntitlements: doc.hasEntitlements === true,
    attributes,
  };
}

/** A source's schema in the fixture shape: its source's id, then what the tenant answered. */
export interface SourceSchemaRecord {
  sourceId: string;
  id: string;
  name: string;
  attributes: unknown[];
  [member: string]: unknown;
}

export function sourceSchemaRecord(sourceId: string, schema: Record<string, unknown>): SourceSchemaRecord {
  return {
    sourceId,
    id: String(schema.id ?? ''),
    name: typeof schema.name === 'string' ? schema.name : '',
    ...schema,
    attributes: Array.isArray(schema.attributes) ? schema.attributes : [],
  } as SourceSchemaRecord;
}

/** Sources sorted by id (the list endpoint's order is not promised). */
export function sortSources(sources: Source[]): Source[] {
  return [...sources].sort((a, b) => compareIds(a.id, b.id));
}

/** Binary order of ids, as the tenant's search sorts them. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A whole array file in the one-element-per-line layout. */
export function arrayText(items: readonly unknown[]): string {
  return items.length === 0 ? '[\n]\n' : `[\n${items.map((i) => JSON.stringify(i)).join(',\n')}\n]\n`;
}

// File names. sailpoint-cli's `sail transform download` saves each transform as its name with
// the spaces removed plus ".json" (cmd/transform/download.go) and turns ':' into ' ' in the path
// (internal/output/output.go GetSanitizedPath). Names that would leave the directory or that
// no file system takes (/, \, control characters, ".", "..") are made safe, a name starting with
// "." is not written as a dot file (which globs and `validate <dir>` leave out), and two names that
// land on the same file (case-insensitively, for macOS and Windows checkouts) are told apart
// by the record's id: docs/decisions.md "Tenant snapshots".
const UNSAFE = /[/\\\u0000-\u001f\u007f<>"|?*]/g;

function baseName(name: string): string {
  let base = name.replace(/ /g, '').replace(/:/g, ' ').replace(UNSAFE, '_');
  if (base === '' || base.startsWith('.')) base = `_${base}`;
  return base.length > 200 ? base.slice(0, 200) : base;
}

/** File names for named records: `<name without spaces>.json`, unique, in a stable assignment (by name, then id). */
export function fileNames<T extends { name?: unknown; id?: unknown }>(records: readonly T[]): { file: string; record: T }[] {
  const sorted = [...records].sort((a, b) => compareIds(String(a.name ?? ''), String(b.name ?? '')) || compareIds(String(a.id ?? ''), String(b.id ?? '')));
  const taken = new Set<string>();
  return sorted.map((record) => {
    const base = baseName(String(record.name ?? record.id ?? 'unnamed'));
    let file = `${base}.json`;
    if (taken.has(file.toLowerCase())) file = `${base}.${baseName(String(record.id ?? taken.size))}.json`;
    for (let n = 2; taken.has(file.toLowerCase()); n++) file = `${base}.${n}.json`;
    taken.add(file.toLowerCase());
    return { file, record };
  });
}

/** One transform or profile file: indented JSON as sailpoint-cli writes it, and a final newline. */
export function documentText(record: unknown): string {
  return JSON.stringify(record, null, 4) + '\n';
}
