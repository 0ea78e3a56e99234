// Both path layouts of every service (https://developer.sailpoint.com/docs/api/api-versioning-strategy): `/<service>/v1/…` (the
// specification) and `/v3/<service>/…` (the older form the official SDK calls). One definition
// registers both, so they cannot drift apart.

import type { FastifyInstance, FastifyRequest, FastifySchema, HTTPMethods, RouteHandlerMethod } from 'fastify';
import type { RouteAuth } from './auth/authenticate.js';
import { badQuery } from './collections/index.js';

export interface ServiceRoute {
  method: HTTPMethods;
  /** Path below the service root: '' for the collection, '/:id' for one item. */
  path: string;
  schema: FastifySchema & { summary: string; operationId: string };
  auth: RouteAuth;
  handler: RouteHandlerMethod;
}

/** The two URLs of one service route. */
export function layouts(service: string, path: string, version = 'v1'): [string, string] {
  return [`/${service}/${version}${path}`, `/v3/${service}${path}`];
}

/**
 * A query parameter the route does not document is a 400 with the platform's error body, not
 * silently ignored (https://developer.sailpoint.com/docs/api/standard-collection-parameters): a client that
 * sends `filters` or `sorters` where they do not apply learns it instead of reading an
 * unfiltered page as the answer.
 */
export function rejectUndocumentedQuery(schema: FastifySchema) {
  const props = ((schema.querystring as { properties?: Record<string, unknown> } | undefined)?.properties) ?? {};
  const allowed = Object.keys(props);
  return async (request: FastifyRequest): Promise<void> => {
    const query = request.query as Record<string, unknown> | null | undefined;
    if (query === null || query === undefined) return;
    for (const name of Object.keys(query)) {
      if (allowed.includes(name)) continue;
      const supported = allowed.length === 0 ? 'this endpoint takes no query parameters' : `supported: ${allowed.join(', ')}`;
      throw badQuery('PARAM_UNSUPPORTED', name, `'${name}' is not a parameter of this endpoint (${supported})`);
    }
  };
}

export function serviceRoutes(app: FastifyInstance, service: string, routes: readonly ServiceRoute[], version = 'v1'): void {
  for (const r of routes) {
    const [spec, v3] = layouts(service, r.path, version);
    for (const url of [spec, v3]) {
      const operationId = url === v3 ? `${r.schema.operationId}V3` : r.schema.operationId;
      app.route({
        method: r.method,
        url,
        schema: { tags: [service], ...r.schema, operationId },
        config: { auth: r.auth },
        preValidation: rejectUndocumentedQuery(r.schema),
        handler: r.handler,
      });
    }
  }
}
