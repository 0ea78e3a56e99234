// How an identity given as text is found, for the library's evaluate and the CLI's --identity
// alike: by its id first, then by its name (its uid), since a person types the name and a
// program passes the id.

import type { MaybePromise } from './maybe.js';
import type { Identity, IdentityProvider } from './types.js';

/** The identity with this id or, when none has it, this name; null when neither. */
export function findIdentity(provider: IdentityProvider, idOrName: string): MaybePromise<Identity | null> {
  const byName = (found: Identity | null): MaybePromise<Identity | null> => found ?? provider.findIdentityByName?.(idOrName) ?? null;
  const byId = provider.getIdentity(idOrName);
  return byId instanceof Promise ? byId.then(byName) : byName(byId);
}
