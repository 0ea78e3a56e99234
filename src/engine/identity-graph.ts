// Loading what $identity reaches in templates (https://developer.sailpoint.com/docs/extensibility/transforms/): the identity, all its
// accounts, their sources and its manager, once per evaluation.

import { codedError } from '../errors/index.js';
import type { Account, Identity, IdentityGraph, Providers, Source } from '../providers/types.js';
import { all, attempt, andThen, type MaybePromise } from './maybe.js';

function providerFailed(what: string) {
  return (error: unknown): never => {
    throw codedError('EVAL_PROVIDER_FAILED', `${what} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  };
}

export function loadIdentityGraph(identity: Identity, providers: Providers): MaybePromise<IdentityGraph> {
  const accounts: MaybePromise<readonly Account[]> = providers.accounts
    ? attempt(() => providers.accounts!.listAccounts({ identityId: identity.id }), providerFailed('listing accounts'))
    : [];
  const manager: MaybePromise<Identity | null> =
    identity.managerId && providers.identities
      ? attempt(() => providers.identities!.getIdentity(identity.managerId!), providerFailed('loading the manager'))
      : null;
  return andThen(accounts, (accs) => {
    const ids = [...new Set(accs.map((a) => a.sourceId))];
    const sources: MaybePromise<(Source | null)[]> = providers.sources
      ? all(ids.map((id) => attempt(() => providers.sources!.resolveSource({ sourceId: id }), providerFailed('resolving a source'))))
      : ids.map(() => null);
    return andThen(sources, (srcs) =>
      andThen(manager, (mgr) => {
        const map = new Map<string, Source>();
        srcs.forEach((s, i) => {
          if (s) map.set(ids[i]!, s);
        });
        return { identity, accounts: accs, sources: map, manager: mgr ?? null };
      }),
    );
  });
}
