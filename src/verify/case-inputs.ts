// The inputs a verify case keeps (docs/verify.md "Cases"): only what the evaluation read. The
// identity, its manager and the accounts are handed to the engine behind proxies that note each
// member read; the case keeps those members (and the few that place an object: ids, the source),
// with the identities' and accounts' ids and names replaced. `pseudonymize` replaces the values
// kept as well, the same value by the same stand-in so that equal inputs stay equal.

import type { MaybePromise } from '../providers/maybe.js';
import type { Account, AccountQuery, Identity, Providers, Source, SourceRef } from '../providers/types.js';

/** What one evaluation read: the members of each object, `*` when it listed them all. */
interface Reads {
  top: Set<string>;
  attributes: Set<string>;
}

const ALL = '*';

/** A view of `target` that notes every member read into `keys`. */
function noting<T extends object>(target: T, keys: Set<string>): T {
  const note = (key: string | symbol) => void (typeof key === 'string' && keys.add(key));
  return new Proxy(target, {
    get: (t, key, receiver) => (note(key), Reflect.get(t, key, receiver)),
    has: (t, key) => (note(key), Reflect.has(t, key)),
    getOwnPropertyDescriptor: (t, key) => (note(key), Reflect.getOwnPropertyDescriptor(t, key)),
    ownKeys: (t) => (keys.add(ALL), Reflect.ownKeys(t)),
  });
}

interface Watched<T> {
  raw: T;
  view: T;
  reads: Reads;
}

function watch<T extends { attributes?: unknown }>(raw: T): Watched<T> {
  const reads: Reads = { top: new Set(), attributes: new Set() };
  const attributes = raw.attributes !== null && typeof raw.attributes === 'object' ? noting(raw.attributes as object, reads.attributes) : raw.attributes;
  return { raw, view: noting({ ...raw, attributes } as T, reads.top), reads };
}

/** The example's objects, and the providers an engine evaluates them through while their reads are noted. */
export class InputRecorder {
  private readonly identity: Watched<Identity>;
  private readonly manager: Watched<Identity> | null;
  private readonly accounts: Watched<Account>[];
  private readonly sources = new Map<string, Source>();

  constructor(identity: Identity, manager: Identity | null, accounts: readonly Account[]) {
    this.identity = watch(identity);
    this.manager = manager === null ? null : watch(manager);
    this.accounts = accounts.map((a) => watch(a));
    this.previous = noting(identity.attributes ?? {}, this.previousReads);
  }

  /** The identity's previous values ($oldValue) as the engine is to see them: read apart from its attributes. */
  readonly previous: Record<string, unknown>;
  private readonly previousReads = new Set<string>();

  /** The identity as the engine is to see it. */
  get view(): Identity {
    return this.identity.view;
  }

  /** Providers over the example alone: its accounts, itself and its manager, and `sources` for the sources (noted as resolved). */
  providers(sources: NonNullable<Providers['sources']>, transforms: Providers['transforms']): Providers {
    const people = [this.identity, ...(this.manager ? [this.manager] : [])];
    const note = (source: Source | null) => {
      if (source !== null) this.sources.set(source.id, source);
      return source;
    };
    return {
      sources: {
        resolveSource: (ref: SourceRef): MaybePromise<Source | null> => {
          const found = sources.resolveSource(ref);
          return found instanceof Promise ? found.then(note) : note(found);
        },
      },
      accounts: {
        listAccounts: (query: AccountQuery) => this.accounts.filter((a) => a.raw.identityId === query.identityId && (query.sourceId === undefined || a.raw.sourceId === query.sourceId)).map((a) => a.view),
      },
      identities: {
        getIdentity: (id: string) => people.find((p) => p.raw.id === id)?.view ?? null,
        findIdentityByName: (name: string) => people.find((p) => p.raw.name === name)?.view ?? null,
      },
      transforms,
    };
  }

  /**
   * The inputs read, with ids and names replaced (and, with `pseudonymize`, the values too).
   * $oldValue is built for every attribute on some paths of the engine and only when used on
   * others: the previous value is kept when the transforms say `oldValue` (`usesOldValue`).
   */
  inputs(pseudonymize: boolean, usesOldValue: boolean): CaseInputs {
    if (usesOldValue) for (const key of this.previousReads) this.identity.reads.attributes.add(key);
    // The manager is kept when the evaluation read it, and so is the identity's link to it.
    const manager = this.manager !== null && read(this.manager.reads) ? this.manager : null;
    const names = new Map<string, string>([[this.identity.raw.id, 'identity-1']]);
    if (manager) names.set(manager.raw.id, 'manager-1');
    const stand = pseudonymize ? new StandIns() : null;
    const person = (w: Watched<Identity>, name: string): Identity => {
      const out: Identity = { id: name, name, attributes: pick(w.raw.attributes, w.reads.attributes, stand) };
      const managerId = w.raw.managerId;
      if (typeof managerId === 'string' && managerId !== '' && (names.has(managerId) || w.reads.top.has('managerId'))) out.managerId = names.get(managerId) ?? 'another-identity';
      for (const key of kept(w.raw, w.reads.top, IDENTITY_PLACES)) out[key] = value(w.raw[key], stand);
      return out;
    };
    const accounts = this.accounts
      .filter((a) => read(a.reads))
      .map((a, i): Account => {
        const out = { id: `account-${i + 1}`, identityId: names.get(a.raw.identityId) ?? 'identity-1', sourceId: a.raw.sourceId, attributes: pick(a.raw.attributes, a.reads.attributes, stand) } as Account;
        for (const key of kept(a.raw, a.reads.top, ACCOUNT_PLACES)) out[key] = ACCOUNT_TIMES.has(key) ? a.raw[key] : value(a.raw[key], stand);
        return out;
      });
    return {
      identity: person(this.identity, 'identity-1'),
      manager: manager ? person(manager, 'manager-1') : null,
      accounts,
      // What resolving a source reads: no owner, no description (an owner is a person).
      sources: [...this.sources.values()].map((s) => ({ id: s.id, name: s.name, ...(s.applicationName !== undefined ? { applicationName: s.applicationName } : {}), ...(s.externalId !== undefined ? { externalId: s.externalId } : {}) })),
    };
  }
}

const read = (reads: Reads) => reads.top.size > 0 || reads.attributes.size > 0;

export interface CaseInputs {
  identity: Identity;
  manager: Identity | null;
  accounts: Account[];
  sources: Source[];
}

/** Members that place an object rather than describe a person: always replaced or kept as they are. */
const IDENTITY_PLACES = new Set(['id', 'name', 'attributes', 'managerId']);
const ACCOUNT_PLACES = new Set(['id', 'identityId', 'sourceId', 'attributes']);
/** When an account was made or changed: kept (accountAttribute sorts by them), never replaced. */
const ACCOUNT_TIMES = new Set(['created', 'modified']);

/** The members of `raw` read (all of them when they were listed), but those in `places`. */
function kept(raw: Record<string, unknown>, read: ReadonlySet<string>, places: ReadonlySet<string>): string[] {
  return Object.keys(raw).filter((key) => !places.has(key) && (read.has(ALL) || read.has(key)));
}

function pick(attributes: Record<string, unknown> | null | undefined, read: ReadonlySet<string>, stand: StandIns | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (attributes === null || typeof attributes !== 'object') return out;
  for (const key of Object.keys(attributes)) if (read.has(ALL) || read.has(key)) out[key] = value(attributes[key], stand);
  return out;
}

function value(v: unknown, stand: StandIns | null): unknown {
  return stand === null ? v : stand.of(v);
}

/** Stand-ins for values: the same value gets the same stand-in, strings `value-<n>`, numbers n, lists and maps member by member. */
class StandIns {
  private readonly strings = new Map<string, string>();
  private readonly numbers = new Map<number, number>();

  of(v: unknown): unknown {
    if (typeof v === 'string') {
      let s = this.strings.get(v);
      if (s === undefined) this.strings.set(v, (s = `value-${this.strings.size + 1}`));
      return s;
    }
    if (typeof v === 'number') {
      let n = this.numbers.get(v);
      if (n === undefined) this.numbers.set(v, (n = this.numbers.size + 1));
      return n;
    }
    if (Array.isArray(v)) return v.map((x) => this.of(x));
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.of(x)]));
    return v;
  }
}
