// Personal access tokens (https://developer.sailpoint.com/docs/api/v3/create-personal-access-token; https://developer.sailpoint.com/docs/api/standard-collection-parameters; the v3 shape of the
// official SDK): create, list, delete. The secret is returned only at creation and stored as a
// scrypt hash; a user holds at most 10; a PAT is a CLIENT_CREDENTIALS client acting as its owner.

import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { codedError } from '../../errors/index.js';
import type { Principal } from '../auth/authenticate.js';
import { ALL_SCOPES, RIGHTS, grantScopes, isKnownScope } from '../auth/rights.js';
import { hashSecretAsync, newSecret } from '../auth/secrets.js';
import { collectionQuerySchema, listHandler, type CollectionSpec } from '../collections/index.js';
import type { ApiContext } from '../context.js';
import { unsafeNameCharacter } from '../names.js';
import { LAST_USED_FILTERS } from './clients.js';
import { serviceRoutes } from '../routes.js';
import { dateTime, idParams } from '../schemas.js';
import { clientFromRow, clientsOwnedBy, type ClientRecord, type UserRecord } from '../store/auth-repo.js';

export const MAX_PATS_PER_USER = 10;

const ownerSchema = {
  type: 'object',
  properties: { type: { type: 'string', enum: ['IDENTITY'] }, id: { type: 'string' }, name: { type: 'string' } },
} as const;

const scopeSchema = { type: ['array', 'null'], items: { type: 'string' } } as const;

const patSchema = {
  type: 'object',
  required: ['id', 'name', 'scope', 'owner', 'created'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, scope: scopeSchema, owner: ownerSchema, created: dateTime, lastUsed: { type: ['string', 'null'] }, managed: { type: 'boolean' } },
} as const;

const createdSchema = {
  type: 'object',
  required: ['id', 'secret', 'scope', 'name', 'owner', 'created', 'accessTokenValiditySeconds'],
  properties: {
    id: { type: 'string' },
    secret: { type: 'string', description: 'Shown once, at creation.' },
    scope: scopeSchema,
    name: { type: 'string' },
    owner: ownerSchema,
    created: dateTime,
    accessTokenValiditySeconds: { type: 'integer' },
  },
} as const;

const createBody = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 128 },
    scope: scopeSchema,
    accessTokenValiditySeconds: { type: 'integer', minimum: 15, maximum: 43_200 },
  },
} as const;

export interface NewPat {
  name: string;
  scope?: string[] | null;
  accessTokenValiditySeconds?: number;
  /** Fixed credentials (the serve command's --admin-client-id/--admin-client-secret). */
  id?: string;
  secret?: string;
}

/** Create a PAT for `owner`; returns the stored record and the only copy of its secret. */
export async function createPersonalAccessToken(ctx: ApiContext, owner: UserRecord, input: NewPat): Promise<{ record: ClientRecord; secret: string }> {
  const scope = input.scope === undefined || input.scope === null || input.scope.length === 0 ? null : [...new Set(input.scope)];
  const unsafe = unsafeNameCharacter(input.name);
  if (unsafe !== null) throw codedError('API_BAD_REQUEST', `The name contains the character ${unsafe} (a control or bidirectional formatting character).`, { path: '/name' });
  const unknown = scope?.find((s) => !isKnownScope(s));
  if (unknown !== undefined) throw codedError('API_BAD_REQUEST', `Unknown scope ${unknown}.`, { path: '/scope' });
  const secret = input.secret ?? newSecret();
  const secretHash = await hashSecretAsync(secret, ctx.options.secretHashCost);
  const now = new Date(ctx.now()).toISOString();
  const record: ClientRecord = {
    id: input.id ?? randomUUID(),
    kind: 'PAT',
    name: input.name,
    description: null,
    enabled: true,
    created: now,
    modified: now,
    grantTypes: ['CLIENT_CREDENTIALS'],
    redirectUris: [],
    scope,
    secretHash,
    ownerUserId: owner.id,
    accessTokenValiditySeconds: input.accessTokenValiditySeconds ?? null,
    refreshTokenValiditySeconds: null,
    lastUsed: null,
    extra: {},
  };
  // Count, name check and insert in one transaction: two concurrent creations cannot both pass.
  ctx.store.transaction(() => {
    const existing = ctx.store.identity.listPatsOf(owner.id);
    if (existing.length >= MAX_PATS_PER_USER) {
      throw codedError('API_PAT_LIMIT', `A user may hold at most ${MAX_PATS_PER_USER} personal access tokens.`);
    }
    if (existing.some((p) => p.name === input.name)) {
      throw codedError('API_CONFLICT', `A personal access token named "${input.name}" already exists for this user.`, { path: '/name' });
    }
    ctx.store.identity.insertClient(record);
  });
  return { record, secret };
}

function ownerOf(ctx: ApiContext, pat: ClientRecord): { type: 'IDENTITY'; id: string; name: string } {
  const user = pat.ownerUserId === null ? null : ctx.store.identity.getUser(pat.ownerUserId);
  return { type: 'IDENTITY', id: user?.identityId ?? user?.id ?? '', name: user?.name ?? '' };
}

function view(ctx: ApiContext, pat: ClientRecord) {
  return { id: pat.id, name: pat.name, scope: pat.scope, owner: ownerOf(ctx, pat), created: pat.created, lastUsed: pat.lastUsed, managed: false };
}

const identityOf = (u: UserRecord) => u.identityId ?? u.id;

/**
 * The PATs as a collection, with the filters the platform publishes for the list operation
 * (https://developer.sailpoint.com/docs/api/v3/list-personal-access-tokens: `lastUsed: le,
 * isnull`) and no sorters; the order is creation time, compared as instants (https://developer.sailpoint.com/docs/api/standard-collection-parameters).
 */
export const PERSONAL_ACCESS_TOKENS: CollectionSpec = {
  table: 'oauth_clients',
  filters: LAST_USED_FILTERS,
  idExpr: '"id"',
  defaultOrder: 'filter_time("created")',
  where: { text: `"kind" = 'PAT'`, params: [] },
};

export async function patsPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  serviceRoutes(app, 'personal-access-tokens', [
    {
      method: 'POST',
      path: '',
      auth: { right: RIGHTS.myPatsManage, user: true },
      schema: { summary: 'Create a personal access token', operationId: 'createPersonalAccessToken', body: createBody, response: { 200: createdSchema } },
      handler: async (request) => {
        const principal = request.principal as Principal & { user: UserRecord };
        const body = request.body as NewPat;
        // A narrowed token cannot mint a PAT wider than itself. `[]` is "no scope specified",
        // which the platform documents as the default sp:scopes:all, so it is checked as that.
        const requested = body.scope === undefined || body.scope === null || body.scope.length === 0 ? null : body.scope;
        if (!principal.scopes.includes(ALL_SCOPES) && grantScopes(requested ?? [ALL_SCOPES], principal.scopes) === null) {
          throw codedError('API_FORBIDDEN', 'The scope of the new token exceeds the scope of the calling token.', { path: '/scope' });
        }
        const { record, secret } = await createPersonalAccessToken(ctx, principal.user, { name: body.name, scope: requested, accessTokenValiditySeconds: body.accessTokenValiditySeconds });
        return {
          id: record.id,
          secret,
          scope: record.scope,
          name: record.name,
          owner: ownerOf(ctx, record),
          created: record.created,
          accessTokenValiditySeconds: record.accessTokenValiditySeconds ?? ctx.options.accessTokenTtlSeconds,
        };
      },
    },
    {
      method: 'GET',
      path: '',
      auth: { right: [RIGHTS.myPatsRead, RIGHTS.allPatsRead], user: true },
      schema: {
        summary: 'List personal access tokens (owner-id "me", an identity id, or absent for all)',
        operationId: 'listPersonalAccessTokens',
        querystring: {
          ...collectionQuerySchema(PERSONAL_ACCESS_TOKENS),
          properties: { 'owner-id': { type: 'string', minLength: 1, description: '"me", an identity id, or absent for every owner.' }, ...collectionQuerySchema(PERSONAL_ACCESS_TOKENS).properties },
        },
        response: { 200: { type: 'array', items: patSchema } },
      },
      handler: async (request, reply) => {
        const principal = request.principal as Principal & { user: UserRecord };
        const owner = (request.query as { 'owner-id'?: string })['owner-id'];
        const own = owner === 'me' || owner === identityOf(principal.user);
        if (!own && !principal.rights.has(RIGHTS.allPatsRead)) {
          throw codedError('API_FORBIDDEN', `Listing the tokens of other users needs the right ${RIGHTS.allPatsRead}.`);
        }
        const ownerId = owner === undefined ? undefined : own ? identityOf(principal.user) : owner;
        const list = listHandler(ctx.store.db, PERSONAL_ACCESS_TOKENS, (rows) => rows.map((r) => view(ctx, clientFromRow(r))), {
          select: '*',
          where: () => (ownerId === undefined ? undefined : clientsOwnedBy(ownerId)),
        });
        return list(request, reply);
      },
    },
    {
      method: 'DELETE',
      path: '/:id',
      auth: { right: [RIGHTS.myPatsManage, RIGHTS.allPatsManage], user: true },
      schema: { summary: 'Delete a personal access token', operationId: 'deletePersonalAccessToken', params: idParams, response: { 204: { type: 'null' } } },
      handler: async (request, reply) => {
        const principal = request.principal as Principal & { user: UserRecord };
        const { id } = request.params as { id: string };
        const pat = ctx.store.identity.getClient(id);
        const mine = pat?.ownerUserId === principal.user.id;
        // Someone else's token is reported as absent unless the caller may manage all tokens.
        if (pat === null || pat.kind !== 'PAT' || (!mine && !principal.rights.has(RIGHTS.allPatsManage))) {
          throw codedError('API_NOT_FOUND', `No personal access token ${id}.`);
        }
        ctx.store.identity.deleteClient(id);
        return reply.code(204).send();
      },
    },
  ]);
}
