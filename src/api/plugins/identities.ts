// Public identities (https://developer.sailpoint.com/docs/api/v3/get-public-identities: GET
// /public-identities/v1, older form /v3/public-identities; limit, offset, count, filters, sorters)
// in the SDK's PublicIdentity shape. Filters and sorters are the platform's documented ones for
// this endpoint.

import type { FastifyInstance } from 'fastify';
import type { FieldMap } from '../../filter/index.js';
import { RIGHTS } from '../auth/rights.js';
import { collectionQuerySchema, jsonListHandler, type CollectionSpec } from '../collections/index.js';
import type { ApiContext } from '../context.js';
import { RESOURCE_SCHEMAS } from './openapi-operations.js';
import { serviceRoutes } from '../routes.js';
import type { StoredIdentity } from '../search/index.js';
import { identityDocs } from '../store/queries.js';

// The columns of the public_identity_rows view (store migrations 4, 6 and 7), kept in step with the
// identity documents by triggers: plain columns, not JSON reads per row, and for each field a
// case-folded key with an index in name order, so that filters ignore case inside SQLite.
const FILTERS: FieldMap = {
  id: { type: 'string', column: 'id', operators: ['eq', 'in'], caseSensitive: true },
  alias: { type: 'string', column: 'alias', foldedColumn: 'alias_key', operators: ['eq', 'sw'] },
  email: { type: 'string', column: 'email', foldedColumn: 'email_key', operators: ['eq', 'sw'] },
  firstname: { type: 'string', column: 'firstname', foldedColumn: 'firstname_key', operators: ['eq', 'sw'] },
  lastname: { type: 'string', column: 'lastname', foldedColumn: 'lastname_key', operators: ['eq', 'sw'] },
};

export const PUBLIC_IDENTITIES: CollectionSpec = {
  table: 'public_identity_rows',
  filters: FILTERS,
  // The public name is the display name, falling back to the account name (alias).
  sorters: { name: { expr: '"display"' }, alias: { expr: '"alias"' } },
  idExpr: '"id"',
};

/** The managers of a page, by id, in one query. */
export function managersOf(ctx: ApiContext, identities: readonly StoredIdentity[]): Map<string, StoredIdentity> {
  const ids = [...new Set(identities.map((i) => i.managerId).filter((m): m is string => typeof m === 'string'))];
  const out = new Map<string, StoredIdentity>();
  if (ids.length === 0) return out;
  for (const m of identityDocs<StoredIdentity>(ctx.store.db, ids)) out.set(m.id, m);
  return out;
}

/**
 * One item of a page as the SDK's PublicIdentity: its JSON text, which the store's triggers
 * write into public_identity_rows beside the filtered and sorted columns whenever the identity
 * or its manager is written (store migration 7; src/api/store/public-identity-sql.ts says what
 * each member shows). A page is the array of these texts, assembled by SQLite.
 */
export const PUBLIC_IDENTITY_ITEM = 'item';

/** The documented response (the page itself is the JSON SQLite writes, sent as it is). */
const PAGE_SCHEMA = { type: 'array', items: RESOURCE_SCHEMAS.PublicIdentity };

export async function publicIdentitiesPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  serviceRoutes(app, 'public-identities', [
    {
      method: 'GET',
      path: '',
      auth: { right: RIGHTS.identitiesRead },
      schema: { summary: 'List public identities', operationId: 'getPublicIdentities', querystring: collectionQuerySchema(PUBLIC_IDENTITIES), response: { 200: PAGE_SCHEMA } },
      handler: jsonListHandler(ctx.store.db, PUBLIC_IDENTITIES, PUBLIC_IDENTITY_ITEM),
    },
  ]);
}
