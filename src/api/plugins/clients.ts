// OAuth client lookup (reference/platform-api.md §2.2, §4.2): GET /oauth-clients/v1/{id} and the
// list, in the platform's shape with `secret` null on read. PATs are not listed here.

import type { FastifyInstance } from 'fastify';
import { codedError } from '../../errors.js';
import { RIGHTS } from '../auth/rights.js';
import type { ApiContext } from '../context.js';
import { serviceRoutes } from '../routes.js';
import { dateTime, idParams } from '../schemas.js';
import type { ClientRecord } from '../store/identity-repo.js';

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
  serviceRoutes(app, 'oauth-clients', [
    {
      method: 'GET',
      path: '',
      auth: { right: RIGHTS.oauthClientsRead, user: true },
      schema: { summary: 'List OAuth clients', operationId: 'listOauthClients', response: { 200: { type: 'array', items: oauthClientSchema } } },
      handler: async () => ctx.store.identity.listClients('CLIENT').map((c) => clientView(ctx, c)),
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
