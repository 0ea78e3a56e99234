// Providers for records that arrive one at a time (a refresh streams identities.json with each
// identity's accounts and manager; a property test lays one generated sample over a tenant): the
// identity being evaluated, its accounts and its manager are set around its evaluation and
// answered from memory, synchronously; sources, transforms, uniqueness and names come from the providers
// given, and so do other identities and their accounts when a fallback is given (none during a
// refresh, whose evaluations reach only the identity and its manager).

import type { Account, Identity, Providers } from './types.js';

export interface StreamedRecordProviders {
  /** Pass these to the engine. */
  readonly providers: Providers;
  /** Make this record the current one: until leave(), the providers answer for it. */
  enter(identity: Identity, accounts: readonly Account[], manager: Identity | null): void;
  /** Forget the current record. */
  leave(): void;
}

const none: readonly Account[] = Object.freeze([]);

/**
 * Providers over the current record. `base` gives sources, transforms and uniqueness; with
 * `fallback`, identities and accounts other than the record's are looked up there.
 */
export function createStreamedRecordProviders(
  base: Pick<Providers, 'sources' | 'transforms' | 'uniqueness' | 'names'>,
  fallback?: Pick<Providers, 'accounts' | 'identities'>,
): StreamedRecordProviders {
  let current: Identity | null = null;
  let currentAccounts: readonly Account[] = none;
  let currentManager: Identity | null = null;
  const otherAccounts = fallback?.accounts;
  const otherIdentities = fallback?.identities;
  const providers: Providers = {
    ...(base.sources ? { sources: base.sources } : {}),
    ...(base.transforms ? { transforms: base.transforms } : {}),
    ...(base.uniqueness ? { uniqueness: base.uniqueness } : {}),
    ...(base.names ? { names: base.names } : {}),
    accounts: {
      listAccounts(query) {
        if (current === null || query.identityId !== current.id) return otherAccounts ? otherAccounts.listAccounts(query) : none;
        if (query.sourceId === undefined) return currentAccounts;
        return ofSource(currentAccounts, query.sourceId);
      },
    },
    identities: {
      getIdentity(id) {
        if (current !== null && current.id === id) return current;
        if (currentManager !== null && currentManager.id === id) return currentManager;
        return otherIdentities ? otherIdentities.getIdentity(id) : null;
      },
      findIdentityByName(name) {
        if (current !== null && current.name === name) return current;
        if (currentManager !== null && currentManager.name === name) return currentManager;
        return otherIdentities?.findIdentityByName ? otherIdentities.findIdentityByName(name) : null;
      },
    },
  };
  return {
    providers,
    enter(identity, accounts, manager) {
      current = identity;
      currentAccounts = accounts;
      currentManager = manager;
    },
    leave() {
      current = null;
      currentAccounts = none;
      currentManager = null;
    },
  };
}

/** The accounts of one source, in the record's order (a record has a few accounts: a scan, no index). */
function ofSource(accounts: readonly Account[], sourceId: string): readonly Account[] {
  let found: Account[] | undefined;
  for (let i = 0; i < accounts.length; i++) {
    const account = accounts[i]!;
    if (account.sourceId === sourceId) (found ??= []).push(account);
  }
  return found ?? none;
}
