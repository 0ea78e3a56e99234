// OAuth client lookup (https://developer.sailpoint.com/docs/api/v3/list-oauth-clients): GET /oauth-clients/v1/{id} and the
// list, in the platform's shape with `secret` null on read. PATs are not listed here. The list
// takes the standard collection parameters with the filters the platform publishes for it
// (https://developer.sailpoint.com/docs/api/v3/list-oauth-clients: `lastUsed: le, isnull`).

import type { FastifyInstance } from 'fastify';
import { codedError } from '../../errors/index.js';
import { registerSqlFunctions, type FieldMap } from '../../filter/index.js';
import { RIGHTS } from '../auth/rights.js';
import { collectionQuerySchema, listHandler, type CollectionSpec } from '../collections/index.js';
import type { ApiContext } from '../context.js';
import { serviceRoutes } from '../routes.js';
import { dateTime, idParams } from '../schemas.js';
import { clientFromRow, type ClientRecord } from '../store/auth-repo.js';

/** `lastUsed: le, isnull` — the published filters of the list-OAuth-clients and list-PATs operations. */
export const LAST_USED_FILTERS: FieldMap = {
  lastUsed: { type: 'datetime', column: 'last_used', operators: ['le', 'isnull'] },
};

/**
 * The OAuth clients (not PATs) as a collection. The platform publishes no sorters for it, so
 * `sorters` is a 400; the order is creation time, compared as instants (https://developer.sailpoint.com/docs/api/standard-collection-parameters).
 */
export const OAUTH_CLIENTS: CollectionSpec = {
  table: 'oauth_clients',
  filters: LAST_USED_FILTERS,
  idExpr: '"id"',
  defaultOrder: 'filter_time("created")',
  where: { text: `"kind" = 'CLIENT'`, params: [] },
};

const nullableString = { type: ['string', 'null'] } as const;

export const oauthClientSchema = {
  type: 'object',
  required: ['id', 'name', 'enabled', 'created', 'grantTypes', 'redirectUris', 'secret'],
  properties: {
    id: { type: 'string' },
    businessName: nullableString,
    homepageUrl: nullableString,
    name: { type: 'string' },
    description: nullableString,
    accessTokenValiditySeconds: { type: 'integer' },
    refreshTokenValiditySeconds: { type: 'integer' },
    redirectUris: { type: ['array', 'null'], items: { type: 'string' } },
    grantTypes: { type: 'array', items: { type: 'string', enum: ['CLIENT_CREDENTIALS', 'AUTHORIZATION_CODE', 'REFRESH_TOKEN'] } },
    accessType: { type: 'string' },
    type: { type: 'string' },
    internal: { type: 'boolean' },
    enabled: { type: 'boolean' },
    strongAuthSupported: { type: 'boolean' },
    claimsSupported: { type: 'boolean' },
    created: dateTime,
    modified: dateTime,
    secret: { type: 'null', description: 'Always null on read.' },
    metadata: nullableString,
    lastUsed: nullableString,
    scope: { type: ['array', 'null'], items: { type: 'string' } },
  },
} as const;

export function clientView(ctx: ApiContext, c: ClientRecord) {
  const x = c.extra;
  return {
    id: c.id,
    businessName: (x.businessName as string | undefined) ?? null,
    homepageUrl: (x.homepageUrl as string | undefined) ?? null,
    name: c.name,
    description: c.description,
    accessTokenValiditySeconds: c.accessTokenValiditySeconds ?? ctx.options.accessTokenTtlSeconds,
    refreshTokenValiditySeconds: c.refreshTokenValiditySeconds ?? ctx.options.refreshTokenTtlSeconds,
    redirectUris: c.redirectUris,
    grantTypes: c.grantTypes,
    accessType: (x.accessType as string | undefined) ?? (c.grantTypes.includes('REFRESH_TOKEN') ? 'OFFLINE' : 'ONLINE'),
    type: (x.type as string | undefined) ?? 'CONFIDENTIAL',
    internal: (x.internal as boolean | undefined) ?? false,
    enabled: c.enabled,
    strongAuthSupported: (x.strongAuthSupported as boolean | undefined) ?? false,
    claimsSupported: (x.claimsSupported as boolean | undefined) ?? false,
    created: c.created,
    modified: c.modified,
    secret: null,
    metadata: null,
    lastUsed: c.lastUsed,
    scope: c.scope,
  };
}

export async function clientsPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  registerSqlFunctions(ctx.store.db);
  serviceRoutes(app, 'oauth-clients', [
    {
      method: 'GET',
      path: '',
      auth: { right: RIGHTS.oauthClientsRead, user: true },
      schema: { summary: 'List OAuth clients', operationId: 'listOauthClients', querystring: collectionQuerySchema(OAUTH_CLIENTS), response: { 200: { type: 'array', items: oauthClientSchema } } },
      handler: listHandler(ctx.store.db, OAUTH_CLIENTS, (rows) => rows.map((r) => clientView(ctx, clientFromRow(r))), { select: '*' }),
    },
    {
      method: 'GET',
      path: '/:id',
      auth: { right: RIGHTS.oauthClientsRead, user: true },
      schema: { summary: 'Get an OAuth client', operationId: 'getOauthClient', params: idParams, response: { 200: oauthClientSchema } },
      handler: async (request) => {
        const { id } = request.params as { id: string };
        const client = ctx.store.identity.getClient(id);
        if (client === null || client.kind !== 'CLIENT') throw codedError('API_NOT_FOUND', `No OAuth client ${id}.`);
        return clientView(ctx, client);
      },
    },
  ]);
}
