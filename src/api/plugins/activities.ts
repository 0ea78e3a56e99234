// Account activities (GET /account-activities/v1, sorters such as
// -created; the record is "not shown", so the shape is the SDK's AccountActivity). Filters and
// sorters are the platform's documented ones for this endpoint.

import type { FastifyInstance } from 'fastify';
import { codedError } from '../../errors/index.js';
import type { FieldMap } from '../../filter/index.js';
import { RIGHTS } from '../auth/rights.js';
import { collectionQuerySchema, docs, listHandler, timeSorter, type CollectionSpec } from '../collections/index.js';
import type { ApiContext } from '../context.js';
import { serviceRoutes } from '../routes.js';
import { idParams } from '../schemas.js';
import { activityDoc } from '../store/queries.js';

const TIME_OPS = ['eq', 'ne', 'in', 'gt', 'ge', 'lt', 'le'] as const;

const FILTERS: FieldMap = {
  id: { type: 'string', column: 'id', operators: ['eq', 'in'], caseSensitive: true },
  type: { type: 'string', column: 'type', operators: ['eq', 'in', 'ne'] },
  created: { type: 'datetime', column: 'created', operators: TIME_OPS },
  modified: { type: 'datetime', column: 'modified', operators: TIME_OPS },
};

export const ACCOUNT_ACTIVITIES: CollectionSpec = {
  table: 'account_activities',
  filters: FILTERS,
  sorters: { type: { expr: '"type"' }, created: timeSorter('"created"'), modified: timeSorter('"modified"') },
  idExpr: '"id"',
};

function activityView(a: Record<string, unknown>) {
  return {
    modified: null,
    completed: null,
    completionStatus: null,
    type: null,
    requesterIdentitySummary: null,
    targetIdentitySummary: null,
    errors: null,
    warnings: null,
    items: null,
    executionStatus: 'COMPLETED',
    clientMetadata: null,
    ...a,
  };
}

export async function activitiesPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  serviceRoutes(app, 'account-activities', [
    {
      method: 'GET',
      path: '',
      auth: { right: RIGHTS.accountActivitiesRead, user: true },
      schema: { summary: 'List account activities', operationId: 'listAccountActivities', querystring: collectionQuerySchema(ACCOUNT_ACTIVITIES) },
      handler: listHandler(ctx.store.db, ACCOUNT_ACTIVITIES, (rows) => docs(rows).map(activityView)),
    },
    {
      method: 'GET',
      path: '/:id',
      auth: { right: RIGHTS.accountActivitiesRead, user: true },
      schema: { summary: 'Get an account activity', operationId: 'getAccountActivity', params: idParams },
      handler: async (request) => {
        const { id } = request.params as { id: string };
        const doc = activityDoc(ctx.store.db, id);
        if (doc === null) throw codedError('API_NOT_FOUND', `No account activity ${id}.`);
        return activityView(doc);
      },
    },
  ]);
}
