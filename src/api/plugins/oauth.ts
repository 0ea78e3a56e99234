// OAuth on the API listener (https://developer.sailpoint.com/docs/api/authentication): GET
// /oauth/info and POST /oauth/token. Token parameters arrive as multipart form-data (the official
// SDK), as an x-www-form-urlencoded body, or in the query string; the token endpoint is rate
// limited.

import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { codedError, isTransformsError } from '../../errors/index.js';
import { charsetError } from '../json-body.js';
import { type TokenParams, grant } from '../auth/grants.js';
import type { ApiContext } from '../context.js';
import { sendError } from './errors.js';

const PARAMS = ['grant_type', 'client_id', 'client_secret', 'code', 'redirect_uri', 'refresh_token', 'scope'] as const;

const tokenResponseSchema = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in', 'scope', 'accessType', 'tenant_id', 'internal', 'pod', 'strong_auth_supported', 'org', 'strong_auth', 'enabled', 'jti'],
  properties: {
    access_token: { type: 'string', description: 'Signed JWT (header alg and typ=JWT).' },
    token_type: { type: 'string', enum: ['bearer'] },
    refresh_token: { type: 'string', description: 'Present only when the client has the REFRESH_TOKEN grant.' },
    expires_in: { type: 'integer' },
    scope: { type: 'string' },
    accessType: { type: 'string' },
    tenant_id: { type: 'string' },
    internal: { type: 'boolean' },
    pod: { type: 'string' },
    strong_auth_supported: { type: 'boolean' },
    org: { type: 'string' },
    user_id: { type: 'string', description: 'Absent without user context (client credentials of a client that is not a PAT).' },
    identity_id: { type: 'string' },
    strong_auth: { type: 'boolean' },
    enabled: { type: 'boolean' },
    jti: { type: 'string', format: 'uuid' },
  },
} as const;

const tokenParamsSchema = {
  type: 'object',
  properties: Object.fromEntries(PARAMS.map((p) => [p, { type: 'string' }])),
} as const;

const infoSchema = {
  type: 'object',
  required: ['tenantId', 'tenantName', 'authorizeEndpoint', 'tokenEndpoint', 'cloudDomainUrl', 'logoutUrl', 'pod'],
  properties: {
    tenantId: { type: 'string', format: 'uuid' },
    tenantName: { type: 'string' },
    authorizeEndpoint: { type: 'string', format: 'uri' },
    tokenEndpoint: { type: 'string', format: 'uri' },
    cloudDomainUrl: { type: 'string', format: 'uri' },
    logoutUrl: { type: 'string', format: 'uri' },
    pod: { type: 'string' },
  },
} as const;

/** HTTP Basic client authentication (RFC 6749 §2.3.1: form-urlencoded id and secret). */
function basicCredentials(request: FastifyRequest): { client_id: string; client_secret: string } | null {
  const m = /^Basic[ ]+([A-Za-z0-9+/=]+)$/i.exec(request.headers.authorization ?? '');
  if (m === null) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw codedError('API_OAUTH_INVALID_CLIENT', 'The Basic credentials are malformed.');
  // RFC 6749 §2.3.1: both parts are form-urlencoded; a bad `%` escape is a failed client
  // authentication through the Authorization header, hence invalid_client (401), not a fault.
  const un = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      throw codedError('API_OAUTH_INVALID_CLIENT', 'The Basic credentials are malformed (a % escape is invalid).');
    }
  };
  return { client_id: un(decoded.slice(0, colon)), client_secret: un(decoded.slice(colon + 1)) };
}

/**
 * Merge the parameter sources. RFC 6749 §3.2: a parameter must not appear twice, so a value sent
 * in two places with different contents, or repeated in one, is invalid_request.
 */
export function tokenParams(request: FastifyRequest): TokenParams {
  const sources: Record<string, unknown>[] = [request.query as Record<string, unknown>];
  if (request.body !== null && typeof request.body === 'object' && !Buffer.isBuffer(request.body)) sources.push(request.body as Record<string, unknown>);
  const basic = basicCredentials(request);
  if (basic !== null) sources.push(basic);
  const out: TokenParams = {};
  for (const source of sources) {
    for (const name of PARAMS) {
      const v = source[name];
      if (v === undefined) continue;
      if (typeof v !== 'string') throw codedError('API_OAUTH_INVALID_REQUEST', `The parameter ${name} is repeated or not a string.`);
      if (out[name] !== undefined && out[name] !== v) throw codedError('API_OAUTH_INVALID_REQUEST', `The parameter ${name} is given twice with different values.`);
      out[name] = v;
    }
  }
  // The platform documents an optional `scope` header carrying the all-scopes value.
  const header = request.headers.scope;
  if (out.scope === undefined && typeof header === 'string') out.scope = header;
  return out;
}

/** Whether a Content-Type names an x-www-form-urlencoded body (the media type is case-insensitive, parameters may follow). */
function isFormBody(header: string | undefined): boolean {
  return header !== undefined && /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(header);
}

export async function oauthPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  await app.register(formbody);
  // A form body declaring another charset would be decoded as UTF-8 all the same: 415, as a JSON body's.
  app.addHook('preParsing', async (request) => {
    if (!isFormBody(request.headers['content-type'])) return;
    const error = charsetError(request, 'form data');
    if (error !== null) throw error;
  });
  await app.register(multipart, { attachFieldsToBody: 'keyValues', limits: { fields: 16, fieldSize: 16_384, files: 0, parts: 16 } });
  const limit = ctx.options.tokenRateLimit;
  if (limit !== false) await app.register(rateLimit, { global: false });
  // A multipart body that does not parse (busboy's "Unexpected end of multipart data" carries no
  // status) is the client's malformed request, not a fault of the server.
  app.setErrorHandler((err, request, reply) => {
    const malformed = request.isMultipart() && !isTransformsError(err) && typeof (err as { statusCode?: unknown }).statusCode !== 'number';
    return sendError(malformed ? codedError('API_OAUTH_INVALID_REQUEST', `The multipart body is malformed: ${(err as Error).message}.`) : (err as Error), request, reply);
  });

  app.get(
    '/oauth/info',
    { config: { public: true }, schema: { summary: 'Tenant OAuth details (spec 2.3)', operationId: 'getOauthInfo', tags: ['oauth'], response: { 200: infoSchema } } },
    async () => ({
      tenantId: ctx.tenantId,
      tenantName: ctx.options.tenantName,
      authorizeEndpoint: `${ctx.urls.loginUrl}/oauth/authorize`,
      tokenEndpoint: `${ctx.urls.baseUrl}/oauth/token`,
      cloudDomainUrl: ctx.urls.baseUrl,
      logoutUrl: `${ctx.urls.loginUrl}/logout`,
      pod: ctx.options.pod,
    }),
  );

  app.post(
    '/oauth/token',
    {
      config: { public: true, ...(limit === false ? {} : { rateLimit: { max: limit.max, timeWindow: limit.timeWindowMs } }) },
      // Parameter errors must come back as RFC 6749 errors, so schema failures are attached,
      // not answered, and the handler reports them as invalid_request.
      attachValidation: true,
      schema: {
        summary: 'Issue tokens (client_credentials, authorization_code, refresh_token)',
        operationId: 'createToken',
        tags: ['oauth'],
        querystring: tokenParamsSchema,
        response: { 200: tokenResponseSchema },
      },
    },
    async (request, reply) => {
      if (request.validationError) throw codedError('API_OAUTH_INVALID_REQUEST', `Malformed token request: ${request.validationError.message}`);
      const response = await grant(ctx, tokenParams(request));
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return response;
    },
  );
}
