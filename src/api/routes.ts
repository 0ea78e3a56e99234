// Both path layouts of every service (reference/platform-api.md §9): `/<service>/v1/…` (the
// specification) and `/v3/<service>/…` (the older form the official SDK calls). One definition
// registers both, so they cannot drift apart.

import type { FastifyInstance, FastifySchema, HTTPMethods, RouteHandlerMethod } from 'fastify';
import type { RouteAuth } from './auth/authenticate.js';

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
        handler: r.handler,
      });
    }
  }
}
