// $identity and its links as Java-like objects (the Identity methods of the rule Javadocs,
// https://developer.sailpoint.com/docs/extensibility/rules/java-docs, and the identity-context
// examples of https://developer.sailpoint.com/docs/extensibility/transforms/operations/static):
// sailpoint.object.Identity, Link and Application getters over the IdentityGraph the engine loads
// once per evaluation. Only the methods listed here are callable; property access ($identity.name)
// resolves to them.

import type { Account, Identity, IdentityGraph, Source } from '../../providers/types.js';
import { JavaException } from './methods.js';
import { JavaObject, NO_METHOD, toJava, javaString } from './values.js';

type Getter<T> = (self: T, args: readonly unknown[]) => unknown;

function call<T>(self: T, table: Record<string, Record<number, Getter<T>>>, name: string, args: readonly unknown[]): unknown {
  if (!Object.hasOwn(table, name)) return NO_METHOD;
  const overloads = table[name]!;
  if (!Object.hasOwn(overloads, args.length)) return NO_METHOD;
  return overloads[args.length]!(self, args);
}

function attr(attributes: Record<string, unknown> | undefined, name: unknown): unknown {
  if (typeof name !== 'string' || !attributes || !Object.hasOwn(attributes, name)) return null;
  return toJava(attributes[name]);
}

/**
 * getAttributes(): the attributes as a read-only java.util.Map over the host object, filled only
 * when something needs the whole map. A template usually reads one attribute of it
 * ($identity.manager.attributes.networkDn), and converting every attribute of every identity it
 * renders for was a sizeable part of a profile's evaluation. Keys, order and values are those of
 * toJava's map: get and has read the host object (converting the value read), everything else
 * fills the map first.
 */
class HostAttributeMap extends Map<string, unknown> {
  /** The host's attributes until the map is filled (private fields stay writable under Object.freeze). */
  #host: Record<string, unknown> | null;
  /** Values already converted by get, which must stay the same objects once the map is filled. */
  #read: Map<string, unknown> | null = null;

  constructor(host: Record<string, unknown>) {
    super();
    this.#host = host;
  }

  static {
    // Map's size is an accessor: the subclass's must fill the map before counting.
    Object.defineProperty(HostAttributeMap.prototype, 'size', {
      configurable: true,
      get(this: HostAttributeMap): number {
        this.#fill();
        return Reflect.get(Map.prototype, 'size', this) as number;
      },
    });
  }

  #fill(): void {
    const host = this.#host;
    if (host === null) return;
    this.#host = null;
    const read = this.#read;
    this.#read = null;
    for (const key of Object.keys(host)) super.set(key, read !== null && read.has(key) ? read.get(key) : toJava(host[key]));
  }

  override get(key: string): unknown {
    const host = this.#host;
    if (host === null) return super.get(key);
    if (typeof key !== 'string' || !Object.hasOwn(host, key)) return undefined;
    if (this.#read !== null && this.#read.has(key)) return this.#read.get(key);
    const value = toJava(host[key]);
    if (typeof value === 'object' && value !== null) (this.#read ??= new Map()).set(key, value);
    return value;
  }

  override has(key: string): boolean {
    const host = this.#host;
    return host === null ? super.has(key) : typeof key === 'string' && Object.hasOwn(host, key);
  }

  override set(key: string, value: unknown): this {
    this.#fill();
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    this.#fill();
    return super.delete(key);
  }

  override clear(): void {
    this.#fill();
    super.clear();
  }

  override forEach(callback: (value: unknown, key: string, map: Map<string, unknown>) => void, thisArg?: unknown): void {
    this.#fill();
    super.forEach(callback, thisArg);
  }

  override keys(): MapIterator<string> {
    this.#fill();
    return super.keys();
  }

  override entries(): MapIterator<[string, unknown]> {
    this.#fill();
    return super.entries();
  }

  override values(): MapIterator<unknown> {
    this.#fill();
    return super.values();
  }

  override [Symbol.iterator](): MapIterator<[string, unknown]> {
    this.#fill();
    return super[Symbol.iterator]();
  }
}

/** The attributes of an identity as getAttributes() returns them (frozen like toJava's maps). */
function attributeMap(attributes: Record<string, unknown> | undefined): unknown {
  if (attributes === undefined || attributes === null) return toJava({});
  const proto: unknown = Object.getPrototypeOf(attributes);
  if (proto !== Object.prototype && proto !== null) return toJava(attributes);
  return Object.freeze(new HostAttributeMap(attributes));
}

function bool(v: unknown, fallback: boolean): boolean {
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  return fallback;
}

function notLoaded(what: string): never {
  throw new JavaException('java.lang.IllegalStateException', `${what} is not loaded for this evaluation`);
}

/** sailpoint.object.Identity over one identity of the graph (the subject, or its manager). */
export class JavaIdentity extends JavaObject {
  readonly javaClass = 'sailpoint.object.Identity';
  private linksCache: readonly JavaLink[] | undefined;

  constructor(
    readonly identity: Identity,
    /** The graph when this is the evaluated identity; null for the manager (its links are not loaded). */
    readonly graph: IdentityGraph | null,
  ) {
    super();
  }

  links(): readonly JavaLink[] {
    if (!this.graph) return notLoaded(`the accounts of identity ${this.identity.name}`);
    if (!this.linksCache) {
      const graph = this.graph;
      this.linksCache = Object.freeze(
        graph.accounts.filter((a) => a.identityId === this.identity.id).map((a) => new JavaLink(a, graph.sources.get(a.sourceId), this)),
      );
    }
    return this.linksCache;
  }

  call(name: string, args: readonly unknown[]): unknown {
    return call(this, IDENTITY_METHODS, name, args);
  }

  toJavaString(): string {
    return `sailpoint.object.Identity[id=${this.identity.id},name=${this.identity.name}]`;
  }
}

const IDENTITY_METHODS: Record<string, Record<number, Getter<JavaIdentity>>> = {
  getId: { 0: (s) => s.identity.id },
  getName: { 0: (s) => s.identity.name },
  getAttribute: { 1: (s, [n]) => attr(s.identity.attributes, n) },
  getStringAttribute: {
    1: (s, [n]) => {
      const v = attr(s.identity.attributes, n);
      return v === null ? null : javaString(v);
    },
  },
  getAttributes: { 0: (s) => attributeMap(s.identity.attributes) },
  getDisplayName: { 0: (s) => attr(s.identity.attributes, 'displayName') },
  getDisplayableName: { 0: (s) => attr(s.identity.attributes, 'displayName') ?? s.identity.name },
  getFirstname: { 0: (s) => attr(s.identity.attributes, 'firstname') },
  getLastname: { 0: (s) => attr(s.identity.attributes, 'lastname') },
  getFullName: {
    0: (s) => {
      const parts = [attr(s.identity.attributes, 'firstname'), attr(s.identity.attributes, 'lastname')].filter((p) => p !== null);
      return parts.length ? parts.map(javaString).join(' ') : null;
    },
  },
  getEmail: { 0: (s) => attr(s.identity.attributes, 'email') },
  getType: { 0: (s) => toJava(s.identity.type ?? s.identity.attributes?.identityType ?? null) },
  getManager: {
    0: (s) => {
      const g = s.graph;
      if (!g) return notLoaded(`the manager of identity ${s.identity.name}`);
      return g.manager ? new JavaIdentity(g.manager, null) : null;
    },
  },
  // IdentityIQ/ISC managerStatus: true when the identity is itself a manager (has reports).
  getManagerStatus: {
    0: (s: JavaIdentity) => bool(s.identity.managerStatus ?? s.identity.isManager ?? s.identity.attributes?.isManager, false),
  },
  isInactive: { 0: (s) => bool(s.identity.inactive ?? s.identity.attributes?.inactive, false) },
  isCorrelated: { 0: (s) => bool(s.identity.correlated ?? s.identity.attributes?.correlated, true) },
  getLinks: { 0: (s) => s.links() },
  getLinksByAppIdOrName: {
    2: (s, [id, name]) =>
      Object.freeze(
        s.links().filter((l) => (id !== null && (l.source?.id === id || l.applicationId() === id)) || (name !== null && l.applicationName() === name)),
      ),
  },
  toString: { 0: (s: JavaIdentity) => s.toJavaString() },
};

/** sailpoint.object.Link: one account of the identity. */
export class JavaLink extends JavaObject {
  readonly javaClass = 'sailpoint.object.Link';

  constructor(
    readonly account: Account,
    readonly source: Source | undefined,
    readonly owner: JavaIdentity,
  ) {
    super();
  }

  applicationName(): string | null {
    if (!this.source) return null;
    return this.source.applicationName ?? `${this.source.name} [source]`;
  }

  applicationId(): string {
    return this.source?.externalId ?? this.source?.id ?? this.account.sourceId;
  }

  call(name: string, args: readonly unknown[]): unknown {
    return call(this, LINK_METHODS, name, args);
  }

  toJavaString(): string {
    return `sailpoint.object.Link[id=${this.account.id},nativeIdentity=${this.account.nativeIdentity}]`;
  }
}

const LINK_METHODS: Record<string, Record<number, Getter<JavaLink>>> = {
  getId: { 0: (l) => l.account.id },
  getNativeIdentity: { 0: (l) => l.account.nativeIdentity },
  getDisplayName: { 0: (l) => l.account.name ?? null },
  getDisplayableName: { 0: (l) => l.account.name ?? l.account.nativeIdentity },
  getAttribute: { 1: (l, [n]) => attr(l.account.attributes, n) },
  getAttributes: { 0: (l) => attributeMap(l.account.attributes) },
  getApplicationName: { 0: (l) => l.applicationName() },
  getApplicationId: { 0: (l) => l.applicationId() },
  getApplication: { 0: (l) => (l.source ? new JavaApplication(l.source) : null) },
  getIdentity: { 0: (l) => l.owner },
  isDisabled: { 0: (l: JavaLink) => bool(l.account.disabled ?? l.account.attributes?.IIQDisabled, false) },
  getCreated: { 0: (l) => toJava(l.account.created ?? null) },
  toString: { 0: (l: JavaLink) => l.toJavaString() },
};

/** sailpoint.object.Application: the source of a link. */
export class JavaApplication extends JavaObject {
  readonly javaClass = 'sailpoint.object.Application';

  constructor(readonly source: Source) {
    super();
  }

  call(name: string, args: readonly unknown[]): unknown {
    if (args.length !== 0) return NO_METHOD;
    switch (name) {
      case 'getId':
        return this.source.externalId ?? this.source.id;
      case 'getName':
        return this.source.applicationName ?? `${this.source.name} [source]`;
      case 'toString':
        return this.toJavaString();
      default:
        return NO_METHOD;
    }
  }

  toJavaString(): string {
    return `sailpoint.object.Application[id=${this.source.externalId ?? this.source.id},name=${this.source.name}]`;
  }
}

export function wrapIdentityGraph(graph: IdentityGraph): JavaIdentity {
  return new JavaIdentity(graph.identity, graph);
}
