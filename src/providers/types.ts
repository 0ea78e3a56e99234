// The data model the engine reads and the provider interfaces it is given. Providers may answer
// synchronously or with a promise; the engine keeps a synchronous path when every answer is
// synchronous (refresh jobs depend on it).

import type { FilterNode } from '../filter/ast.js';
import type { MaybePromise } from './maybe.js';

/**
 * A source (the shape of https://developer.sailpoint.com/docs/api/v3/get-source; only id and name
 * are required).
 */
export interface Source {
  id: string;
  name: string;
  /** The immutable application name ("Active Directory [source]"); defaults to `${name} [source]`. */
  applicationName?: string;
  /** The source's external GUID (accountAttribute's applicationId); defaults to id. */
  externalId?: string;
  [key: string]: unknown;
}

/** An identity: fixture shape `{ id, name, attributes, managerId? }`. */
export interface Identity {
  id: string;
  name: string;
  attributes: Record<string, unknown>;
  managerId?: string | null;
  [key: string]: unknown;
}

/** An account (a "link" in the platform's object model). */
export interface Account {
  id: string;
  identityId: string;
  sourceId: string;
  nativeIdentity: string;
  /** The account's display name. */
  name: string;
  /** ISO 8601 creation date-time. */
  created: string;
  hasEntitlements: boolean;
  attributes: Record<string, unknown>;
  [key: string]: unknown;
}

/** How an accountAttribute names its source. Precedence: sourceId, applicationId, applicationName, sourceName. */
export interface SourceRef {
  sourceId?: string;
  sourceName?: string;
  applicationId?: string;
  applicationName?: string;
}

export interface AccountQuery {
  identityId: string;
  /** The source; absent means every account of the identity (for $identity.getLinks()). */
  sourceId?: string;
  /**
   * The parsed accountFilter (object-filter AST over nativeIdentity, displayName, entitlements),
   * so that a database-backed provider can push it down. Providers may ignore it: the engine
   * applies it again in memory.
   */
  filter?: FilterNode;
}

export interface AccountProvider {
  listAccounts(query: AccountQuery): MaybePromise<readonly Account[]>;
}

export interface SourceProvider {
  resolveSource(ref: SourceRef): MaybePromise<Source | null>;
}

export interface IdentityProvider {
  getIdentity(id: string): MaybePromise<Identity | null>;
  /** Look an identity up by its name (uid), for getReferenceIdentityAttribute. */
  findIdentityByName?(name: string): MaybePromise<Identity | null>;
}

/** A stored transform: `{ id?, name, type, attributes, internal? }`. */
export interface TransformDocument {
  id?: string;
  name?: string;
  type: string;
  attributes?: Record<string, unknown> | null;
  internal?: boolean;
  requiresPeriodicRefresh?: boolean;
  [key: string]: unknown;
}

export interface TransformProvider {
  getTransform(name: string): MaybePromise<TransformDocument | null>;
}

/** The transform definition of a profile read from a document: an object with a type. */
export interface TransformDefinition {
  type: string;
  attributes?: Record<string, unknown> | null;
  [key: string]: unknown;
}

/**
 * One mapping of an identity profile's identityAttributeConfig.attributeTransforms. `Definition`
 * is `unknown` where the definition is not checked yet (the engine checks it as it compiles).
 */
export interface ProfileMapping<Definition = TransformDefinition> {
  /** The key of the result (and of its errors): the identity attribute the mapping computes. */
  identityAttributeName: string;
  transformDefinition: Definition;
  /**
   * Not a platform member: the identity attribute this mapping computes when its result key is
   * another name, so that $oldValue and $attributeDefinition.name are that attribute's. Impact
   * analysis evaluates the base and head versions of one attribute side by side this way.
   */
  evaluatedAs?: string;
}

/**
 * An identity profile (the shape of https://developer.sailpoint.com/docs/api/v3/get-identity-profile):
 * what the engine evaluates is its identityAttributeConfig.
 */
export interface IdentityProfile<Definition = TransformDefinition> {
  id?: string;
  name: string;
  authoritativeSource?: { type?: string; id?: string; name?: string };
  identityAttributeConfig: {
    enabled?: boolean;
    attributeTransforms: ProfileMapping<Definition>[];
  };
  [key: string]: unknown;
}

/** usernameGenerator's uniqueness oracle. */
export interface UniquenessProvider {
  isUnique(candidate: string, context: { identityId?: string; sourceCheck: boolean; attribute?: string }): MaybePromise<boolean>;
}

export interface Providers {
  accounts?: AccountProvider;
  sources?: SourceProvider;
  identities?: IdentityProvider;
  transforms?: TransformProvider;
  uniqueness?: UniquenessProvider;
}

/** An identity with everything templates can reach through $identity: loaded once per evaluation. */
export interface IdentityGraph {
  identity: Identity;
  /** Every account of the identity, on every source. */
  accounts: readonly Account[];
  /** The sources of those accounts, by id. */
  sources: ReadonlyMap<string, Source>;
  /** The manager (managerId resolved), or null. */
  manager: Identity | null;
}
