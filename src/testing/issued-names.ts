// usernameGenerator's uniqueness oracle for property tests: a candidate is taken when
// another identity of the tenant has it as its name or uid, or when it was already issued to
// another identity. Issuing happens when a candidate is found unique: usernameGenerator keeps
// the first unique candidate, so the oracle's "yes" is the platform's reservation.

import type { Identity, UniquenessProvider } from '../providers/types.js';

export interface IssuedNames extends UniquenessProvider {
  /** Forget the names issued so far (the tenant's own names stay taken). */
  reset(): void;
  /** The names issued so far, each with the identity it went to. */
  issued(): ReadonlyMap<string, string>;
}

/**
 * An oracle over `identities` (compared without regard to case, as the local API compares
 * names). `extra()` names identities that come and go, such as the sample under test.
 */
export function createIssuedNames(identities: readonly Identity[], extra: () => readonly Identity[] = () => []): IssuedNames {
  const owners = new Map<string, Set<string>>();
  const own = (name: unknown, id: string) => {
    if (typeof name !== 'string') return;
    const key = name.toLowerCase();
    let set = owners.get(key);
    if (set === undefined) owners.set(key, (set = new Set()));
    set.add(id);
  };
  for (const identity of identities) {
    own(identity.name, identity.id);
    own(identity.attributes?.['uid'], identity.id);
  }
  const issued = new Map<string, string>();
  const takenByOther = (key: string, self: string): boolean => {
    for (const owner of owners.get(key) ?? []) if (owner !== self) return true;
    for (const identity of extra()) {
      if (identity.id === self) continue;
      if (identity.name.toLowerCase() === key || String(identity.attributes?.['uid'] ?? '').toLowerCase() === key) return true;
    }
    const holder = issued.get(key);
    return holder !== undefined && holder !== self;
  };
  return {
    isUnique(candidate, context) {
      const key = candidate.toLowerCase();
      const self = context.identityId ?? '';
      if (takenByOther(key, self)) return false;
      issued.set(key, self);
      return true;
    },
    reset: () => issued.clear(),
    issued: () => issued,
  };
}
