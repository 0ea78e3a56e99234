// GET /openapi.json: an OpenAPI 3.1 document generated from the route schemas as routes are
// registered, so the document cannot disagree with what the server validates. It covers the
// three listeners (the API, the login host and the non-employee service, the latter two with
// path-level `servers`), every operation's success body (openapi-operations.ts for routes that
// answer stored documents as they are), its 4xx/5xx answers with the platform error body, and
// the OAuth 2.0 flows of https://developer.sailpoint.com/docs/api/authentication.

import type { FastifyInstance, RouteOptions } from 'fastify';
import type { ApiContext } from '../context.js';
import { errorBodySchema } from '../schemas.js';
import { COLLECTION_PARAMETER_TYPES } from '../collections/index.js';
import { RESOURCE_SCHEMAS, SUCCESS } from './openapi-operations.js';

type Json = Record<string, unknown>;
type Listener = 'api' | 'login' | 'nonEmployee';

interface Collected {
  method: string;
  url: string;
  schema: Json;
  isPublic: boolean;
  listener: Listener;
}

const FORM_ROUTES = new Set(['/oauth/token']);
const JSON_PATCH = 'application/json-patch+json';

/** The routes of each server's listeners, gathered by the onRoute hooks of `openapi` and `describeListener`. */
const collected = new WeakMap<ApiContext, Collected[]>();

function routesOf(ctx: ApiContext): Collected[] {
  let list = collected.get(ctx);
  if (list === undefined) collected.set(ctx, (list = []));
  return list;
}

function collect(app: FastifyInstance, ctx: ApiContext, listener: Listener): void {
  const routes = routesOf(ctx);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || route.url === '/openapi.json' || route.schema === undefined) continue;
      routes.push({ method: method.toLowerCase(), url: route.url, schema: route.schema as Json, isPublic: route.config?.public === true, listener });
    }
  });
}

const errorRef = { $ref: '#/components/schemas/ErrorResponse' };

/** The shared error responses, each the platform error body (the error responses of https://developer.sailpoint.com/docs/api/v3/). */
const ERROR_RESPONSES: Record<string, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'Bad request: an invalid parameter, filter, sorter or body (the platform error body names the problem).' },
  401: { name: 'Unauthorized', description: 'Missing, invalid or expired access token, or bad client credentials.' },
  403: { name: 'Forbidden', description: 'The token is valid but lacks the right, or the call needs a user context.' },
  404: { name: 'NotFound', description: 'No such resource.' },
  409: { name: 'Conflict', description: 'The request conflicts with the stored state (a name already taken, a limit reached).' },
  413: { name: 'PayloadTooLarge', description: 'The body exceeds 1 MiB.' },
  414: { name: 'UriTooLong', description: 'A path parameter is longer than the server reads.' },
  415: { name: 'UnsupportedMediaType', description: 'The body has a content type this operation does not take.' },
  429: { name: 'TooManyRequests', description: 'Rate limited; Retry-After says when to try again.' },
  500: { name: 'InternalError', description: 'Unexpected failure; the text is generic and the trackingId is in the server log.' },
};

function parameters(schema: Json | undefined, where: 'path' | 'query'): Json[] {
  const props = (schema?.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema?.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => {
    // The standard collection parameters are untyped in the route schema (so that no value is coerced): typed here.
    const typed = where === 'query' && s.type === undefined && Object.hasOwn(COLLECTION_PARAMETER_TYPES, name) ? { ...COLLECTION_PARAMETER_TYPES[name], ...s } : s;
    const p: Json = { name, in: where, required: where === 'path' || required.has(name), schema: typed };
    if (typeof s.description === 'string') p.description = s.description;
    return p;
  });
}

/** The error statuses an operation can answer, from what it takes and who may call it. */
function errorStatuses(r: Collected, hasBody: boolean, baseId: string): string[] {
  const out = new Set<string>(['400', '500', ...(SUCCESS[baseId]?.errors ?? [])]);
  if (!r.isPublic) out.add('401').add('403');
  if (r.url === '/oauth/token') out.add('401').add('429');
  if (r.url === '/oauth/authorize' && r.method === 'post') out.add('429');
  // The non-employee listener is rate limited as a whole, before authentication.
  if (r.listener === 'nonEmployee') out.add('429');
  if (r.url.includes(':')) out.add('404');
  // Any request may carry a body (a DELETE or GET too): one too large or of a type the route does
  // not read is refused before the route runs.
  out.add('413').add('414').add('415');
  void hasBody;
  if (r.method === 'post' || r.method === 'put' || r.method === 'patch') out.add('409');
  return [...out].sort();
}

const TOTAL_COUNT_HEADER = {
  'X-Total-Count': { description: 'With count=true: the size of the whole filtered collection, ignoring limit and offset.', schema: { type: 'integer', minimum: 0 } },
};

function success(r: Collected, baseId: string): Json {
  const s = r.schema;
  const out: Json = {};
  for (const [status, body] of Object.entries((s.response ?? {}) as Record<string, Json>)) {
    out[status] = body.type === 'null' ? { description: 'No content' } : { description: 'Success', content: { 'application/json': { schema: body } } };
  }
  const documented = SUCCESS[baseId];
  if (documented !== undefined) {
    const response: Json = { description: documented.description };
    if (documented.schema !== null) response.content = { 'application/json': { schema: documented.schema } };
    out[String(documented.status)] = response;
  }
  const query = (s.querystring as Json | undefined)?.properties as Json | undefined;
  if (query?.count !== undefined && out['200'] !== undefined) (out['200'] as Json).headers = TOTAL_COUNT_HEADER;
  return out;
}

/** The login listener answers HTML pages and redirects, not JSON. */
function loginResponses(r: Collected): Json {
  const page = { description: 'The login page (HTML).', content: { 'text/html': { schema: { type: 'string' } } } };
  if (r.url === '/logout') return { 200: { description: 'The signed-out page (HTML).', content: { 'text/html': { schema: { type: 'string' } } } } };
  return {
    200: r.method === 'get' ? page : { description: 'The login page again, with the error (wrong username or password).', content: { 'text/html': { schema: { type: 'string' } } } },
    302: {
      description: 'Redirect to the client redirect_uri with an RFC 6749 §4.1.2.1 `error` (and `state`).',
      headers: { Location: { description: 'The redirect_uri with the error.', schema: { type: 'string', format: 'uri' } } },
    },
    ...(r.method === 'post'
      ? {
          303: {
            description: 'After the right password: redirect to the client redirect_uri with `code` (and `state`); 303, as RFC 9700 §4.12 asks for a redirect of a request that carried credentials.',
            headers: { Location: { description: 'The redirect_uri with the code.', schema: { type: 'string', format: 'uri' } } },
          },
        }
      : {}),
  };
}

function operation(r: Collected): Json {
  const s = r.schema;
  const operationId = String(s.operationId);
  const baseId = operationId.endsWith('V3') ? operationId.slice(0, -2) : operationId;
  const op: Json = { operationId, summary: s.summary, tags: s.tags };
  if (typeof s.description === 'string') op.description = s.description;
  const params = [...parameters(s.params as Json | undefined, 'path'), ...parameters(s.querystring as Json | undefined, 'query')];
  if (params.length > 0) op.parameters = params;
  let hasBody = false;
  if (r.method === 'patch') {
    hasBody = true;
    op.requestBody = { required: true, content: { [JSON_PATCH]: { schema: s.body ?? { $ref: '#/components/schemas/JsonPatch' } } } };
  } else if (r.listener === 'login' && r.method === 'post') {
    hasBody = true;
    op.requestBody = { required: true, content: { 'application/x-www-form-urlencoded': { schema: s.body } } };
  } else if (s.body !== undefined) {
    hasBody = true;
    op.requestBody = { required: true, content: { 'application/json': { schema: s.body } } };
  } else if (FORM_ROUTES.has(r.url)) {
    hasBody = true;
    const form = { schema: s.querystring };
    op.requestBody = {
      required: false,
      description: 'The parameters as a form (or, equally, in the query string or HTTP Basic for the client).',
      content: { 'application/x-www-form-urlencoded': form, 'multipart/form-data': form },
    };
  }
  const responses: Json = r.listener === 'login' ? loginResponses(r) : success(r, baseId);
  for (const status of errorStatuses(r, hasBody, baseId)) {
    // The login listener shows a person an HTML page, and a caller asking for JSON only the platform error body.
    responses[status] =
      r.listener === 'login'
        ? {
            description: `${ERROR_RESPONSES[status]!.description} An HTML page unless the request's Accept names application/json and not text/html.`,
            content: { 'text/html': { schema: { type: 'string' } }, 'application/json': { schema: errorRef } },
          }
        : { $ref: `#/components/responses/${ERROR_RESPONSES[status]!.name}` };
  }
  op.responses = responses;
  op.security = r.isPublic ? [] : [{ oauth2: [] }, { bearer: [] }];
  return op;
}

/** The JSON Patch document of RFC 6902 (RFC 6902, https://developer.sailpoint.com/docs/api/patch-requests). */
const JSON_PATCH_SCHEMA = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    required: ['op', 'path'],
    properties: {
      op: { type: 'string', enum: ['add', 'remove', 'replace', 'move', 'copy', 'test'] },
      path: { type: 'string', description: 'JSON Pointer (RFC 6901) to the target.' },
      value: { description: 'add, replace, test.' },
      from: { type: 'string', description: 'JSON Pointer; move, copy.' },
    },
  },
};

const TAGS: Record<string, string> = {
  oauth: 'Tokens and tenant OAuth details (https://developer.sailpoint.com/docs/api/authentication).',
  login: 'The authorization endpoint on the login host (https://developer.sailpoint.com/docs/api/authentication).',
  'oauth-clients': 'OAuth client lookup (https://developer.sailpoint.com/docs/api/v3/list-oauth-clients).',
  'personal-access-tokens': 'Personal access tokens (https://developer.sailpoint.com/docs/api/v3/create-personal-access-token).',
  'public-identities': 'Public identities (https://developer.sailpoint.com/docs/api/standard-collection-parameters).',
  accounts: 'Accounts.',
  'account-activities': 'Account activities (https://developer.sailpoint.com/docs/api/standard-collection-parameters).',
  sources: 'Sources and source schemas, with PUT and JSON Patch (RFC 6902, https://developer.sailpoint.com/docs/api/patch-requests).',
  transforms: 'Transforms (https://developer.sailpoint.com/docs/api/v3/transforms).',
  'identity-profiles': 'Identity profiles and identity preview.',
  search: 'Search (https://developer.sailpoint.com/docs/api/v3/search-post).',
  'non-employee': 'The non-employee service (https://developer.sailpoint.com/docs/api/standard-collection-parameters).',
};

export function buildOpenApi(ctx: ApiContext): Json {
  const paths: Record<string, Json> = {};
  const servers: Record<Listener, Json[] | undefined> = {
    api: undefined,
    login: [{ url: ctx.urls.loginUrl, description: 'The login host ({login_url})' }],
    nonEmployee: [{ url: ctx.urls.nonEmployeeUrl, description: 'The non-employee service ({nonemployee_base_url})' }],
  };
  const used = new Set<string>();
  for (const r of routesOf(ctx)) {
    const path = r.url.replace(/:(\w+)/g, '{$1}');
    const item: Json = { ...(paths[path] ?? {}) };
    const s = servers[r.listener];
    if (s !== undefined) item.servers = s;
    const op = operation(r);
    for (const t of (op.tags ?? []) as string[]) used.add(t);
    item[r.method] = op;
    paths[path] = item;
  }
  const responses = Object.fromEntries(
    Object.values(ERROR_RESPONSES).map(({ name, description }) => [name, { description, content: { 'application/json': { schema: errorRef } } }]),
  );
  const tokenUrl = `${ctx.urls.baseUrl}/oauth/token`;
  return {
    openapi: '3.1.0',
    info: {
      title: 'identity-transforms local tenant API',
      version: '1.0.0',
      description: `The platform API served by identity-transforms for tenant ${ctx.options.tenantName}.`,
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    },
    servers: [{ url: ctx.urls.baseUrl, description: 'The API gateway ({base_url}, also {auth_url})' }],
    tags: [...used].sort().map((name) => ({ name, description: TAGS[name] ?? name })),
    paths,
    components: {
      schemas: { ErrorResponse: errorBodySchema, JsonPatch: JSON_PATCH_SCHEMA, ...RESOURCE_SCHEMAS },
      responses,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from POST /oauth/token (or, on the non-employee service, a legacy API key).' },
        oauth2: {
          type: 'oauth2',
          description: 'OAuth 2.0 (https://developer.sailpoint.com/docs/api/authentication): client credentials for scripts and PATs, authorization code on the login host, refresh tokens.',
          flows: {
            clientCredentials: { tokenUrl, refreshUrl: tokenUrl, scopes: {} },
            authorizationCode: { authorizationUrl: `${ctx.urls.loginUrl}/oauth/authorize`, tokenUrl, refreshUrl: tokenUrl, scopes: {} },
          },
        },
      },
    },
  };
}

async function openapiPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  collect(app, ctx, 'api');
  // Built per request: cheap, and the advertised URLs are only known once the listeners run.
  app.get('/openapi.json', { config: { public: true } }, async () => buildOpenApi(ctx));
}

async function describeListenerPlugin(app: FastifyInstance, opts: { ctx: ApiContext; listener: Exclude<Listener, 'api'> }): Promise<void> {
  collect(app, opts.ctx, opts.listener);
}

const skipOverride = (name: string) => ({ [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: name });

/** Not encapsulated, so that its onRoute hook sees the routes of every plugin of the listener. */
export const openapi = Object.assign(openapiPlugin, skipOverride('openapi'));

/** Registered first on the login and non-employee listeners: their routes join the API's document. */
export const describeListener = Object.assign(describeListenerPlugin, skipOverride('openapi-listener'));
