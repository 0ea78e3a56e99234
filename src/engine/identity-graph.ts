// Loading what $identity reaches in templates (https://developer.sailpoint.com/docs/extensibility/transforms/):
// the identity, its manager, and its accounts with their sources — each part once per evaluation,
// and only when something reads it. A template that reads only the manager asks the identities
// provider alone; one that reads the links asks for the accounts and their sources too
// (engine/identity-reach.ts tells what a template reaches). A provider can therefore fail an
// evaluation only through a part that was read (docs/decisions.md, "The identity graph is loaded
// by parts").

import { codedError } from '../errors/index.js';
import type { Account, Identity, IdentityGraph, Providers, Source } from '../providers/types.js';
import { all, andThen, isPromise, type MaybePromise } from '../providers/maybe.js';
import type { IdentityReach } from './identity-reach.js';

/** The keys of the parts in a profile evaluation's shared memo (no operation key starts with a space). */
const MANAGER_KEY = ' identity graph: manager';
const LINKS_KEY = ' identity graph: links';

interface Links {
  readonly accounts: readonly Account[];
  readonly sources: ReadonlyMap<string, Source>;
}

function providerFailed(what: string) {
  return (error: unknown): never => {
    throw codedError('EVAL_PROVIDER_FAILED', `${what} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  };
}

const failedListing = providerFailed('listing accounts');
const failedManager = providerFailed('loading the manager');
const failedSource = providerFailed('resolving a source');

function notLoaded(part: string): never {
  // A template's reach was misjudged: a bug of engine/identity-reach.ts, never the user's.
  throw codedError('EVAL_INTERNAL', `the identity graph's ${part} was read without being loaded`);
}

/**
 * The graph of one identity, loaded by parts. Parts known at once are kept in `shared` (the memo
 * of a profile's attributes), so that each is asked once per identity; a pending part stays with
 * this evaluation, so that a rejection is located in the attribute that met it.
 */
export class PartialIdentityGraph implements IdentityGraph {
  private managerPart: MaybePromise<Identity | null> | undefined;
  private linksPart: MaybePromise<Links> | undefined;
  private loadedManager: Identity | null | undefined;
  private loadedLinks: Links | undefined;

  constructor(
    readonly identity: Identity,
    private readonly providers: Providers,
    private readonly shared: Map<string, unknown> | undefined,
  ) {
    if (shared !== undefined) {
      this.managerPart = this.loadedManager = shared.get(MANAGER_KEY) as Identity | null | undefined;
      this.linksPart = this.loadedLinks = shared.get(LINKS_KEY) as Links | undefined;
    }
  }

  /** No part is pending: what it holds is exactly what a new graph would read from `shared`. */
  get settled(): boolean {
    return !isPromise(this.managerPart) && !isPromise(this.linksPart);
  }

  get manager(): Identity | null {
    return this.loadedManager !== undefined ? this.loadedManager : notLoaded('manager');
  }

  get accounts(): readonly Account[] {
    return (this.loadedLinks ?? notLoaded('accounts')).accounts;
  }

  get sources(): ReadonlyMap<string, Source> {
    return (this.loadedLinks ?? notLoaded('sources')).sources;
  }

  /** This graph once the parts `reach` reads are loaded. The providers are asked in the whole graph's order: accounts, manager, sources. */
  load(reach: IdentityReach): MaybePromise<IdentityGraph> {
    let accounts: MaybePromise<readonly Account[]> | undefined;
    if (reach.links && this.linksPart === undefined) accounts = this.listAccounts();
    if (reach.manager && this.managerPart === undefined) {
      const manager = this.loadManager();
      this.managerPart = manager;
      if (isPromise<Identity | null>(manager)) manager.then((m) => this.keepManager(m), noop);
      else this.keepManager(manager);
    }
    if (accounts !== undefined) {
      const links = andThen(accounts, (accs) => this.resolveSources(accs));
      this.linksPart = links;
      if (isPromise<Links>(links)) links.then((l) => this.keepLinks(l), noop);
      else this.keepLinks(links);
    }
    const manager = reach.manager ? this.managerPart : undefined;
    const links = reach.links ? this.linksPart : undefined;
    if (!isPromise(manager) && !isPromise(links)) return this;
    return andThen(all<unknown>([links, manager]), () => this);
  }

  private keepManager(manager: Identity | null): void {
    this.loadedManager = manager;
    this.shared?.set(MANAGER_KEY, manager);
  }

  private keepLinks(links: Links): void {
    this.loadedLinks = links;
    this.shared?.set(LINKS_KEY, links);
  }

  private listAccounts(): MaybePromise<readonly Account[]> {
    const provider = this.providers.accounts;
    if (!provider) return [];
    let accounts: MaybePromise<readonly Account[]>;
    try {
      accounts = provider.listAccounts({ identityId: this.identity.id });
    } catch (error) {
      return failedListing(error);
    }
    return isPromise<readonly Account[]>(accounts) ? accounts.then(undefined, failedListing) : accounts;
  }

  private loadManager(): MaybePromise<Identity | null> {
    const provider = this.providers.identities;
    if (!this.identity.managerId || !provider) return null;
    let manager: MaybePromise<Identity | null>;
    try {
      manager = provider.getIdentity(this.identity.managerId);
    } catch (error) {
      return failedManager(error);
    }
    return isPromise<Identity | null>(manager) ? manager.then((m) => m ?? null, failedManager) : (manager ?? null);
  }

  /** The sources of the accounts, each asked once, in order of first use (unknown ones left out). */
  private resolveSources(accounts: readonly Account[]): MaybePromise<Links> {
    const provider = this.providers.sources;
    if (!provider) return { accounts, sources: new Map() };
    const ids: string[] = [];
    for (let i = 0; i < accounts.length; i++) {
      const id = accounts[i]!.sourceId;
      if (!ids.includes(id)) ids.push(id);
    }
    const srcs: MaybePromise<Source | null>[] = [];
    for (const id of ids) srcs.push(resolve(provider, id));
    return andThen(all(srcs), (resolved) => {
      const sources = new Map<string, Source>();
      for (let i = 0; i < ids.length; i++) {
        const source = resolved[i];
        if (source) sources.set(ids[i]!, source);
      }
      return { accounts, sources };
    });
  }
}

function noop(): void {}

function resolve(sources: NonNullable<Providers['sources']>, id: string): MaybePromise<Source | null> {
  let source: MaybePromise<Source | null>;
  try {
    source = sources.resolveSource({ sourceId: id });
  } catch (error) {
    return failedSource(error);
  }
  return isPromise<Source | null>(source) ? source.then(undefined, failedSource) : source;
}
