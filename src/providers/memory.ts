// In-memory providers over fixture records (read by fixtures.ts, or built by code). Indexes are
// built once; every answer is synchronous, so refresh keeps the fast path.

import type { Fixtures } from './fixtures.js';
import { TenantNames } from './names.js';
import { SourceIndex } from './sources.js';
import type { Account, Identity, Providers, SourceRef, TransformDocument } from './types.js';

/** Providers answering from in-memory fixtures (synchronously). */
export function createMemoryProviders(fixtures: Pick<Fixtures, 'sources' | 'identities' | 'accounts'> & Partial<Fixtures>): Required<Omit<Providers, 'uniqueness'>> & Pick<Providers, 'uniqueness'> {
  const sources = new SourceIndex(fixtures.sources);
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
      resolveSource: (ref: SourceRef) => sources.resolve(ref),
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
    names: new TenantNames(fixtures.sources, fixtures.accounts),
  };
}
