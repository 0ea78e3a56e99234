// usernameGenerator's uniqueness provider over a fixture tenant: a candidate is taken when
// another identity has it as its name or uid, when (with sourceCheck) an account of the target
// source held by another identity has it as its native identity or account name, or when it was
// already issued in this run to another identity. Compared without regard to case, as the
// platform compares account names. https://developer.sailpoint.com/docs/extensibility/transforms/operations/username-generator

import type { Account, Identity, UniquenessProvider } from './types.js';

export interface FixtureUniquenessOptions {
  /**
   * The source the generator fills (a create profile's source): with sourceCheck, only its
   * accounts are checked. Default: the accounts of every source.
   */
  sourceId?: string;
}

export interface FixtureUniqueness extends UniquenessProvider {
  /** The values issued so far, each with the identity it went to. */
  issued(): ReadonlyMap<string, string>;
}

/** Owners of a value: one identity id, or several. */
type Owners = string | string[];

function own(map: Map<string, Owners>, value: unknown, owner: string): void {
  if (typeof value !== 'string' || value === '') return;
  const key = value.toLowerCase();
  const had = map.get(key);
  if (had === undefined) map.set(key, owner);
  else if (typeof had === 'string') {
    if (had !== owner) map.set(key, [had, owner]);
  } else if (!had.includes(owner)) had.push(owner);
}

function takenByOther(map: Map<string, Owners>, key: string, self: string): boolean {
  const owners = map.get(key);
  if (owners === undefined) return false;
  return typeof owners === 'string' ? owners !== self : owners.some((o) => o !== self);
}

/** Builds the index one record at a time (a refresh streams the tenant's files into it). */
export class FixtureUniquenessBuilder {
  private readonly identities = new Map<string, Owners>();
  private readonly accounts = new Map<string, Owners>();

  constructor(private readonly options: FixtureUniquenessOptions = {}) {}

  addIdentity(identity: Pick<Identity, 'id' | 'name' | 'attributes'>): void {
    own(this.identities, identity.name, identity.id);
    own(this.identities, identity.attributes?.uid, identity.id);
  }

  addAccount(account: Pick<Account, 'identityId' | 'sourceId' | 'nativeIdentity' | 'name'>): void {
    if (this.options.sourceId !== undefined && account.sourceId !== this.options.sourceId) return;
    own(this.accounts, account.nativeIdentity, account.identityId);
    own(this.accounts, account.name, account.identityId);
  }

  build(): FixtureUniqueness {
    const { identities, accounts } = this;
    const issued = new Map<string, string>();
    return {
      isUnique(candidate, context) {
        const key = candidate.toLowerCase();
        const self = context.identityId ?? '';
        if (takenByOther(identities, key, self)) return false;
        if (context.sourceCheck && takenByOther(accounts, key, self)) return false;
        const holder = issued.get(key);
        if (holder !== undefined && holder !== self) return false;
        // usernameGenerator keeps the first unique candidate: a "yes" reserves it for this identity.
        issued.set(key, self);
        return true;
      },
      issued: () => issued,
    };
  }
}

/** A uniqueness provider over the identities and accounts of a fixture tenant. */
export function createFixtureUniqueness(
  tenant: { identities: Iterable<Pick<Identity, 'id' | 'name' | 'attributes'>>; accounts: Iterable<Pick<Account, 'identityId' | 'sourceId' | 'nativeIdentity' | 'name'>> },
  options: FixtureUniquenessOptions = {},
): FixtureUniqueness {
  const builder = new FixtureUniquenessBuilder(options);
  for (const identity of tenant.identities) builder.addIdentity(identity);
  for (const account of tenant.accounts) builder.addAccount(account);
  return builder.build();
}
