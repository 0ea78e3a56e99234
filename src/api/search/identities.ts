// The identities search index ("indices: for example identities", https://developer.sailpoint.com/docs/api/v3/search-post) over the
// store's identities table, and the search document a hit is answered with. Top-level document
// members carry exactly the values their sort expressions order by, so that a client's
// searchAfter (the last hit's value of the sort field, as the SDK's paginator sends) continues
// where the page ended.

import type { SearchIndex } from '../../filter/search/to-sql.js';

const attr = (name: string): string => `json_extract("doc", '$.attributes.${name}')`;

export const IDENTITIES_INDEX: SearchIndex = Object.freeze({
  name: 'identities',
  table: 'identities',
  idExpr: '"id"',
  fields: Object.freeze({
    id: { expr: '"id"', sortable: true, notNull: true, keyword: true },
    name: { expr: '"name"', sortable: true, notNull: true },
    displayName: { expr: attr('displayName'), sortable: true },
    firstName: { expr: attr('firstname'), sortable: true },
    lastName: { expr: attr('lastname'), sortable: true },
    email: { expr: attr('email'), sortable: true },
    phone: { expr: attr('phone') },
    employeeNumber: { expr: attr('employeeNumber'), sortable: true },
    'manager.id': { expr: '"manager_id"' },
    created: { expr: `json_extract("doc", '$.created')`, sortable: true, time: true },
    modified: { expr: `json_extract("doc", '$.modified')`, sortable: true, time: true },
  }),
  dynamic: Object.freeze({ prefix: 'attributes', column: 'doc', jsonPrefix: 'attributes' }),
  defaultFields: Object.freeze(['name', 'displayName', 'firstName', 'lastName', 'email']),
});

export interface StoredIdentity {
  id: string;
  name: string;
  attributes?: Record<string, unknown> | null;
  managerId?: string | null;
  [key: string]: unknown;
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function identityProfileOf(value: unknown): { id: string; name: string | null } | null {
  if (value === null || typeof value !== 'object') return null;
  const { id, name } = value as { id?: unknown; name?: unknown };
  return typeof id === 'string' ? { id, name: text(name) } : null;
}

/** An account as the identity document lists it (the SDK's IdentityDocument `accounts` items). */
export interface SearchAccount {
  id: string;
  name: string;
  accountId: string;
  source: { id: string; name: string | null };
}

/** The search hit of one identity (the SDK's IdentityDocument members this store can fill). */
export function identitySearchDocument(identity: StoredIdentity, manager: StoredIdentity | null, extra: { accountCount: number; isManager: boolean; accounts?: SearchAccount[] }) {
  const a = identity.attributes ?? {};
  const lifecycle = text(a.lifecycleState) ?? text(a.cloudLifecycleState);
  return {
    id: identity.id,
    name: identity.name,
    _type: 'identity',
    type: 'identity',
    _index: 'identities',
    displayName: text(a.displayName),
    firstName: text(a.firstname),
    lastName: text(a.lastname),
    email: text(a.email),
    phone: text(a.phone),
    employeeNumber: text(a.employeeNumber),
    inactive: lifecycle !== null && lifecycle !== 'active',
    status: lifecycle === null || lifecycle === 'active' ? 'ACTIVE' : 'INACTIVE',
    manager: manager === null ? null : { id: manager.id, name: manager.name, displayName: text(manager.attributes?.displayName) ?? manager.name },
    isManager: extra.isManager,
    accountCount: extra.accountCount,
    ...(extra.accounts !== undefined ? { accounts: extra.accounts } : {}),
    // The identity's own timestamps when its document has them (an incremental copy compares
    // `modified` with the time of the previous one); null otherwise.
    created: text(identity.created),
    modified: text(identity.modified) ?? text(identity.created),
    // The profile that computes the identity's attributes (the search document's identityProfile), when the fixture names it.
    identityProfile: identityProfileOf(identity.identityProfile),
    attributes: a,
  };
}
