// How an accountAttribute (or any lookup by SourceRef) finds its source, for every provider:
// which of the keys it gives wins, and an index of a source list by each key.
// https://developer.sailpoint.com/docs/extensibility/transforms/operations/account-attribute

import type { Source, SourceRef } from './types.js';

/** A lookup of a source by each key a SourceRef may give. */
export interface SourceLookup<T> {
  /** By the source's id. */
  byId(id: string): T;
  /** By its external GUID (applicationId): `externalId`, defaulting to the id. */
  byExternalId(externalId: string): T;
  /** By its immutable application name: `applicationName`, defaulting to `${name} [source]`. */
  byApplicationName(applicationName: string): T;
  /** By its display name. */
  byName(name: string): T;
}

/**
 * Resolve a SourceRef through a lookup. When several keys are given the first of sourceId,
 * applicationId, applicationName, sourceName wins (the others are not consulted); none gives null.
 */
export function resolveSourceRef<T>(ref: SourceRef, lookup: SourceLookup<T>): T | null {
  if (ref.sourceId !== undefined) return lookup.byId(ref.sourceId);
  if (ref.applicationId !== undefined) return lookup.byExternalId(ref.applicationId);
  if (ref.applicationName !== undefined) return lookup.byApplicationName(ref.applicationName);
  if (ref.sourceName !== undefined) return lookup.byName(ref.sourceName);
  return null;
}

/** A list of sources indexed by every key of a SourceRef (a later source of the same key wins). */
export class SourceIndex implements SourceLookup<Source | null> {
  readonly #byId = new Map<string, Source>();
  readonly #byName = new Map<string, Source>();
  readonly #byApplicationName = new Map<string, Source>();
  readonly #byExternalId = new Map<string, Source>();

  constructor(sources: Iterable<Source>) {
    for (const s of sources) {
      this.#byId.set(s.id, s);
      this.#byName.set(s.name, s);
      this.#byApplicationName.set(s.applicationName ?? `${s.name} [source]`, s);
      this.#byExternalId.set(s.externalId ?? s.id, s);
    }
  }

  byId(id: string): Source | null {
    return this.#byId.get(id) ?? null;
  }
  byExternalId(externalId: string): Source | null {
    return this.#byExternalId.get(externalId) ?? null;
  }
  byApplicationName(applicationName: string): Source | null {
    return this.#byApplicationName.get(applicationName) ?? null;
  }
  byName(name: string): Source | null {
    return this.#byName.get(name) ?? null;
  }

  resolve(ref: SourceRef): Source | null {
    return resolveSourceRef(ref, this);
  }
}
