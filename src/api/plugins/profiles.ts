// Identity profiles (the collection conventions of
// https://developer.sailpoint.com/docs/api/standard-collection-parameters; the record is the SDK's
// IdentityProfile): GET /identity-profiles/v1 and /v3/identity-profiles, and one by id.

import type { FastifyInstance } from 'fastify';
import { codedError } from '../../errors/index.js';
import type { FieldMap } from '../../filter/index.js';
import { RIGHTS } from '../auth/rights.js';
import { collectionQuerySchema, docs, listHandler, timeSorter, type CollectionSpec } from '../collections/index.js';
import type { ApiContext } from '../context.js';
import { serviceRoutes } from '../routes.js';
import { idParams } from '../schemas.js';

const FILTERS: FieldMap = {
  id: { type: 'string', column: 'id', operators: ['eq', 'ne', 'in'], caseSensitive: true },
  name: { type: 'string', column: 'name', operators: ['eq', 'ne', 'sw'] },
  priority: { type: 'number', json: { column: 'doc', path: '$.priority' }, operators: ['eq', 'ne', 'gt', 'ge', 'lt', 'le'] },
};

const je = (path: string) => ({ expr: `json_extract("doc", '${path}')` });

export const IDENTITY_PROFILES: CollectionSpec = {
  table: 'identity_profiles',
  filters: FILTERS,
  sorters: { id: { expr: '"id"' }, name: { expr: '"name"' }, priority: je('$.priority'), created: timeSorter(je('$.created').expr), modified: timeSorter(je('$.modified').expr) },
  idExpr: '"id"',
};

export function profileView(doc: Record<string, unknown>) {
  return {
    description: null,
    owner: null,
    priority: null,
    authoritativeSource: null,
    identityRefreshRequired: false,
    identityCount: null,
    identityExceptionReportReference: null,
    hasTimeBasedAttr: false,
    ...doc,
    identityAttributeConfig: doc.identityAttributeConfig ?? { enabled: true, attributeTransforms: [] },
  };
}

export async function profilesPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  const read = { right: RIGHTS.identityProfilesRead, user: true };
  serviceRoutes(app, 'identity-profiles', [
    {
      method: 'GET',
      path: '',
      auth: read,
      schema: { summary: 'List identity profiles', operationId: 'listIdentityProfiles', querystring: collectionQuerySchema(IDENTITY_PROFILES) },
      handler: listHandler(ctx.store.db, IDENTITY_PROFILES, (rows) => docs(rows).map(profileView)),
    },
    {
      method: 'GET',
      path: '/:id',
      auth: read,
      schema: { summary: 'Get an identity profile', operationId: 'getIdentityProfile', params: idParams },
      handler: async (request) => {
        const { id } = request.params as { id: string };
        const doc = ctx.store.resources.get('identity_profiles', id);
        if (doc === null) throw codedError('API_NOT_FOUND', `No identity profile ${id}.`);
        return profileView(doc);
      },
    },
  ]);
}
