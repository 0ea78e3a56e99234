// GET /openapi.json: an OpenAPI 3.1 document generated from the route schemas as routes are
// registered (issue 7), so the document cannot disagree with what the server validates.

import type { FastifyInstance, RouteOptions } from 'fastify';
import type { ApiContext } from '../context.js';
import { errorBodySchema } from '../schemas.js';

type Json = Record<string, unknown>;

interface Collected {
  method: string;
  url: string;
  schema: Json;
  isPublic: boolean;
}

const FORM_ROUTES = new Set(['/oauth/token']);

function parameters(schema: Json | undefined, where: 'path' | 'query'): Json[] {
  const props = (schema?.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema?.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => ({ name, in: where, required: where === 'path' || required.has(name), schema: s }));
}

function operation(r: Collected): Json {
  const s = r.schema;
  const op: Json = { operationId: s.operationId, summary: s.summary, tags: s.tags };
  const params = [...parameters(s.params as Json | undefined, 'path'), ...parameters(s.querystring as Json | undefined, 'query')];
  if (params.length > 0) op.parameters = params;
  if (s.body !== undefined) {
    op.requestBody = { required: true, content: { 'application/json': { schema: s.body } } };
  } else if (FORM_ROUTES.has(r.url)) {
    const form = { schema: s.querystring };
    op.requestBody = { required: false, content: { 'application/x-www-form-urlencoded': form, 'multipart/form-data': form } };
  }
  const responses: Json = {};
  for (const [status, body] of Object.entries((s.response ?? {}) as Record<string, Json>)) {
    responses[status] = body.type === 'null' ? { description: 'No content' } : { description: 'Success', content: { 'application/json': { schema: body } } };
  }
  responses.default = { description: 'Error (platform error body)', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } } };
  op.responses = responses;
  op.security = r.isPublic ? [] : [{ bearer: [] }];
  return op;
}

async function openapiPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  const routes: Collected[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || route.url === '/openapi.json' || route.schema === undefined) continue;
      routes.push({ method: method.toLowerCase(), url: route.url, schema: route.schema as Json, isPublic: route.config?.public === true });
    }
  });

  const build = (): Json => {
    const paths: Record<string, Json> = {};
    for (const r of routes) {
      const path = r.url.replace(/:(\w+)/g, '{$1}');
      paths[path] = { ...(paths[path] ?? {}), [r.method]: operation(r) };
    }
    return {
      openapi: '3.1.0',
      info: { title: 'identity-transforms local tenant API', version: '1.0.0', description: `Tenant ${ctx.options.tenantName}` },
      servers: [{ url: ctx.urls.baseUrl }],
      paths,
      components: {
        schemas: { ErrorResponse: errorBodySchema },
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          oauth2: {
            type: 'oauth2',
            flows: {
              clientCredentials: { tokenUrl: `${ctx.urls.baseUrl}/oauth/token`, scopes: {} },
              authorizationCode: { authorizationUrl: `${ctx.urls.loginUrl}/oauth/authorize`, tokenUrl: `${ctx.urls.baseUrl}/oauth/token`, scopes: {} },
            },
          },
        },
      },
    };
  };

  // Built per request: cheap, and the advertised URLs are only known once the listeners run.
  app.get('/openapi.json', { config: { public: true } }, async () => build());
}

/** Not encapsulated, so that its onRoute hook sees the routes of every plugin of the listener. */
export const openapi = Object.assign(openapiPlugin, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'openapi',
});
