// The non-employee service on its own listener (https://developer.sailpoint.com/docs/api/v3/non-employee-lifecycle-management): GET
// /api/v2025/non-employee-sources, accepting a legacy non-employee API key or an access token of
// this server as the bearer. Non-employee sources are the store's sources whose type, connector
// or connectorName names the non-employee connector.

import type { FastifyInstance } from 'fastify';
import { RIGHTS } from '../auth/rights.js';
import type { ApiContext } from '../context.js';
import { rejectUndocumentedQuery } from '../routes.js';
import { dateTime } from '../schemas.js';
import { booleanParam, collectionQuerySchema, integerParam, LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT } from '../collections/index.js';
import type { Doc } from '../store/resource-repo.js';

const NON_EMPLOYEE = /non[-_ ]?employee/i;

export function isNonEmployeeSource(doc: Doc): boolean {
  return ['type', 'connector', 'connectorName'].some((k) => typeof doc[k] === 'string' && NON_EMPLOYEE.test(doc[k] as string));
}

const reference = { type: 'object', properties: { type: { type: 'string' }, id: { type: 'string' }, name: { type: 'string' } } } as const;

const nonEmployeeSourceSchema = {
  type: 'object',
  required: ['id', 'sourceId', 'name'],
  properties: {
    id: { type: 'string' },
    sourceId: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    approvers: { type: 'array', items: reference },
    accountManagers: { type: 'array', items: reference },
    modified: dateTime,
    created: dateTime,
  },
} as const;

type Ref = { type: string; id: string; name?: string };

function refs(value: unknown): Ref[] {
  return Array.isArray(value) ? (value.filter((v) => v !== null && typeof v === 'object') as Ref[]) : [];
}

function view(doc: Doc) {
  const owner = doc.owner as Ref | undefined;
  return {
    id: doc.id,
    sourceId: doc.id,
    name: doc.name as string,
    description: typeof doc.description === 'string' ? doc.description : '',
    approvers: refs(doc.approvers),
    // The source owner manages its accounts unless the fixture names account managers.
    accountManagers: doc.accountManagers === undefined && owner?.id !== undefined ? [{ type: 'IDENTITY', id: owner.id, name: owner.name }] : refs(doc.accountManagers),
    created: typeof doc.created === 'string' ? doc.created : undefined,
    modified: typeof doc.modified === 'string' ? doc.modified : undefined,
  };
}

export async function nonEmployeePlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  const schema = {
    summary: 'List non-employee sources',
    operationId: 'listNonEmployeeSources',
    tags: ['non-employee'],
    // limit, offset and count as every list reads them (collections/query.ts): untyped here, so that none is coerced.
    querystring: collectionQuerySchema({}),
    response: { 200: { type: 'array', items: nonEmployeeSourceSchema } },
  };
  app.get(
    '/api/v2025/non-employee-sources',
    {
      config: { auth: { right: RIGHTS.nonEmployeeRead } },
      preValidation: rejectUndocumentedQuery(schema),
      schema,
    },
    async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const limit = integerParam(query, 'limit', LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT);
      const offset = integerParam(query, 'offset', 0, Number.MAX_SAFE_INTEGER);
      const all = ctx.store.resources.list('sources').filter(isNonEmployeeSource);
      if (booleanParam(query, 'count')) reply.header('x-total-count', String(all.length));
      return all.slice(offset, offset + limit).map(view);
    },
  );
}
