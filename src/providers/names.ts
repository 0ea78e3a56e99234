// The names a tenant's model knows — its sources' names and the attribute names its accounts
// carry on each source — for the suggestions of messages ("did you mean …?") and for an editor's
// completions. Built from the records a fixture tenant (or any in-memory model) holds; the
// attribute names of a source are gathered on first use, in one pass over the accounts.

import { closestName } from '../errors/suggest.js';
import type { Account, Source, SourceRef } from './types.js';

/** Whether some account of a source carries an attribute and, when none does, the closest name one carries. */
export type AttributeKnown = { known: true } | { known: false; suggestion?: string };

/**
 * What a provider can say of its names (Providers.names), answered synchronously, from memory.
 * The engine and the operations ask it for suggestions; TenantNames answers for records in memory.
 */
export interface NameProvider {
  /** The display names of every source. */
  sourceNames(): readonly string[];
  /** The attribute names some account of the source carries, by the source's id; [] for an unknown source. */
  accountAttributeNames(sourceId: string): readonly string[];
  /** The source name closest to a SourceRef's, when the ref names its source by sourceName alone (the key that wins). */
  closestSourceName(ref: SourceRef): string | undefined;
  /** Whether some account of the source carries the attribute; a source without accounts in the model says nothing against it. */
  accountAttributeKnown(sourceId: string, attributeName: string): AttributeKnown;
}

/** A tenant's names, over its sources and accounts. */
export class TenantNames implements NameProvider {
  readonly #sources: readonly Source[];
  readonly #accounts: Iterable<Account>;
  #attributes: Map<string, string[]> | undefined;

  constructor(sources: readonly Source[], accounts: Iterable<Account>) {
    this.#sources = sources;
    this.#accounts = accounts;
  }

  sourceNames(): readonly string[] {
    return this.#sources.map((s) => s.name);
  }

  accountAttributeNames(sourceId: string): readonly string[] {
    if (this.#attributes === undefined) {
      const sets = new Map<string, Set<string>>();
      for (const account of this.#accounts) {
        let names = sets.get(account.sourceId);
        if (!names) sets.set(account.sourceId, (names = new Set()));
        for (const key of Object.keys(account.attributes ?? {})) names.add(key);
      }
      this.#attributes = new Map([...sets].map(([id, names]) => [id, [...names].sort()]));
    }
    return this.#attributes.get(sourceId) ?? [];
  }

  closestSourceName(ref: SourceRef): string | undefined {
    if (ref.sourceName === undefined || ref.sourceId !== undefined || ref.applicationId !== undefined || ref.applicationName !== undefined) return undefined;
    return closestName(ref.sourceName, this.sourceNames());
  }

  accountAttributeKnown(sourceId: string, attributeName: string): AttributeKnown {
    const carried = this.accountAttributeNames(sourceId);
    if (carried.length === 0 || carried.includes(attributeName)) return { known: true };
    const suggestion = closestName(attributeName, carried);
    return suggestion === undefined ? { known: false } : { known: false, suggestion };
  }
}
