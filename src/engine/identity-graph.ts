// Loading what $identity reaches in templates (https://developer.sailpoint.com/docs/extensibility/transforms/): the identity, all its
// accounts, their sources and its manager, once per evaluation.

import { codedError } from '../errors/index.js';
import type { Account, Identity, IdentityGraph, Providers, Source } from '../providers/types.js';
import { all, andThen, isPromise, type MaybePromise } from '../providers/maybe.js';

function providerFailed(what: string) {
  return (error: unknown): never => {
    throw codedError('EVAL_PROVIDER_FAILED', `${what} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  };
}

const failedListing = providerFailed('listing accounts');
const failedManager = providerFailed('loading the manager');
const failedSource = providerFailed('resolving a source');

export function loadIdentityGraph(identity: Identity, providers: Providers): MaybePromise<IdentityGraph> {
  // What attempt() does, written out: this runs once per identity of a refresh that reads $identity.
  let accounts: MaybePromise<readonly Account[]> = [];
  if (providers.accounts) {
    try {
      accounts = providers.accounts.listAccounts({ identityId: identity.id });
    } catch (error) {
      return failedListing(error);
    }
    if (isPromise<readonly Account[]>(accounts)) accounts = accounts.then(undefined, failedListing);
  }
  let manager: MaybePromise<Identity | null> = null;
  if (identity.managerId && providers.identities) {
    try {
      manager = providers.identities.getIdentity(identity.managerId);
    } catch (error) {
      return failedManager(error);
    }
    if (isPromise<Identity | null>(manager)) manager = manager.then(undefined, failedManager);
  }
  if (!isPromise(accounts) && !isPromise(manager)) {
    // Synchronous providers (a refresh): the same calls in the same order, without the chain.
    const ids: string[] = [];
    for (let i = 0; i < accounts.length; i++) {
      const id = accounts[i]!.sourceId;
      if (!ids.includes(id)) ids.push(id);
    }
    const provider = providers.sources;
    if (!provider) return { identity, accounts, sources: new Map(), manager: manager ?? null };
    const srcs: MaybePromise<Source | null>[] = [];
    let waiting = false;
    for (const id of ids) {
      const source = resolve(provider, id);
      if (isPromise(source)) waiting = true;
      srcs.push(source);
    }
    if (waiting) return andThen(all(srcs), (resolved) => graph(identity, accounts, ids, resolved, manager));
    return graph(identity, accounts, ids, srcs as (Source | null)[], manager);
  }
  return andThen(accounts, (accs) => {
    const ids = [...new Set(accs.map((a) => a.sourceId))];
    const sources: MaybePromise<(Source | null)[]> = providers.sources
      ? all(ids.map((id) => resolve(providers.sources!, id)))
      : ids.map(() => null);
    return andThen(sources, (srcs) => andThen(manager, (mgr) => graph(identity, accs, ids, srcs, mgr)));
  });
}

function resolve(sources: NonNullable<Providers['sources']>, id: string): MaybePromise<Source | null> {
  let source: MaybePromise<Source | null>;
  try {
    source = sources.resolveSource({ sourceId: id });
  } catch (error) {
    return failedSource(error);
  }
  return isPromise<Source | null>(source) ? source.then(undefined, failedSource) : source;
}

function graph(identity: Identity, accounts: readonly Account[], ids: readonly string[], srcs: readonly (Source | null)[], manager: Identity | null): IdentityGraph {
  const map = new Map<string, Source>();
  for (let i = 0; i < ids.length; i++) {
    const source = srcs[i];
    if (source) map.set(ids[i]!, source);
  }
  return { identity, accounts, sources: map, manager: manager ?? null };
}
