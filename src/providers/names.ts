// The names a tenant's model knows — its sources' names and the attribute names its accounts
// carry on each source — for the suggestions of messages ("did you mean …?") and for an editor's
// completions. Built from the records a fixture tenant (or any in-memory model) holds; the
// attribute names of a source are gathered on first use, in one pass over the accounts.

import { closestName } from '../errors/suggest.js';
import type { Account, Source, SourceRef } from './types.js';

/** What a provider can say of its names (Providers.names); answered synchronously, from memory. */
export interface NameProvider {
  /** The display names of every source. */
  sourceNames(): readonly string[];
  /** The attribute names some account of the source carries, by the source's id; [] for an unknown source. */
  accountAttributeNames(sourceId: string): readonly string[];
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
}

/** The source name closest to the one a SourceRef gives, when it names its source by sourceName alone (the key that wins is sourceName). */
export function closestSourceName(ref: SourceRef, names: NameProvider): string | undefined {
  if (ref.sourceName === undefined || ref.sourceId !== undefined || ref.applicationId !== undefined || ref.applicationName !== undefined) return undefined;
  return closestName(ref.sourceName, names.sourceNames());
}

/** Whether some account of a source carries an attribute and, when none does, the closest name one carries. */
export function accountAttributeKnown(names: NameProvider, sourceId: string, attributeName: string): { known: true } | { known: false; suggestion?: string } {
  const carried = names.accountAttributeNames(sourceId);
  // A source with no accounts in the model says nothing about its attributes.
  if (carried.length === 0 || carried.includes(attributeName)) return { known: true };
  const suggestion = closestName(attributeName, carried);
  return suggestion === undefined ? { known: false } : { known: false, suggestion };
}
