// The authorization endpoint on the login listener (reference/platform-api.md §4.1, §5.4;
// RFC 6749 §4.1.1–4.1.2): client_id, response_type=code and a redirect_uri matched exactly
// against the client's redirectUris; a login form for fixture users; a single-use, short-lived
// code delivered to the redirect URI.

import { randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifySchema } from 'fastify';
import { codedError } from '../../errors.js';
import { hashCode, parseScope } from '../auth/grants.js';
import { grantScopes } from '../auth/rights.js';
import { verifySecret } from '../auth/secrets.js';
import type { ApiContext } from '../context.js';
import type { ClientRecord } from '../store/identity-repo.js';
import { loginPage, logoutPage } from './login-page.js';

interface AuthorizeQuery {
  client_id?: string;
  response_type?: string;
  redirect_uri?: string;
  state?: string;
  scope?: string;
}

const querySchema = {
  type: 'object',
  properties: { client_id: { type: 'string' }, response_type: { type: 'string' }, redirect_uri: { type: 'string' }, state: { type: 'string' }, scope: { type: 'string' } },
} as const;

const formSchema = {
  type: 'object',
  required: ['username', 'password'],
  properties: { ...querySchema.properties, username: { type: 'string' }, password: { type: 'string' } },
} as const;

function redirectWith(reply: FastifyReply, redirectUri: string, params: Record<string, string | undefined>): FastifyReply {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return reply.code(302).header('location', url.toString()).header('cache-control', 'no-store').send();
}

/**
 * Errors about the client or the redirect URI are shown to the user, never redirected (RFC 6749
 * §4.1.2.1: the redirect URI cannot be trusted yet). Returns the client when both are valid.
 */
function checkClient(ctx: ApiContext, q: AuthorizeQuery): ClientRecord {
  const id = q.client_id;
  if (id === undefined || id === '') throw codedError('API_OAUTH_INVALID_REQUEST', 'The parameter client_id is required.');
  if (!id.includes('-')) throw codedError('API_OAUTH_INVALID_REQUEST', 'Legacy client IDs without dashes are not supported.');
  const client = ctx.store.identity.getClient(id);
  if (client === null || !client.enabled || client.kind !== 'CLIENT') throw codedError('API_OAUTH_INVALID_REQUEST', 'Unknown or disabled client.');
  if (q.redirect_uri === undefined || !client.redirectUris.includes(q.redirect_uri)) {
    throw codedError('API_OAUTH_INVALID_REQUEST', 'The redirect_uri does not match any redirect URI of the client.');
  }
  return client;
}

/** Errors the client may learn through the (now trusted) redirect URI; null when the request is valid. */
function redirectableError(client: ClientRecord, q: AuthorizeQuery): { error: string; error_description: string } | null {
  if (q.response_type !== 'code') return { error: 'unsupported_response_type', error_description: 'response_type must be code.' };
  if (!client.grantTypes.includes('AUTHORIZATION_CODE')) return { error: 'unauthorized_client', error_description: 'The client is not allowed the authorization code grant.' };
  if (grantScopes(parseScope(q.scope), client.scope) === null) return { error: 'invalid_scope', error_description: 'A requested scope is unknown or not allowed.' };
  return null;
}

function hiddenFields(q: AuthorizeQuery): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['client_id', 'response_type', 'redirect_uri', 'state', 'scope'] as const) if (q[k] !== undefined) out[k] = q[k]!;
  return out;
}

function sendPage(reply: FastifyReply, html: string): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', "default-src 'none'; form-action 'self'; frame-ancestors 'none'")
    .send(html);
}

/** For /openapi.json: the route validates nothing, but is described like the others. */
const logoutSchema = { summary: 'Sign out', operationId: 'logout', tags: ['login'] } as FastifySchema;

export async function loginPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  await app.register(formbody);
  const limit = ctx.options.loginRateLimit;
  if (limit !== false) await app.register(rateLimit, { global: false });

  app.get('/oauth/authorize', { config: { public: true }, schema: { summary: 'Authorization code flow, step 1: the login page', operationId: 'authorize', tags: ['login'], querystring: querySchema } }, async (request, reply) => {
    const q = request.query as AuthorizeQuery;
    const client = checkClient(ctx, q);
    const err = redirectableError(client, q);
    if (err !== null) return redirectWith(reply, q.redirect_uri!, { ...err, state: q.state });
    return sendPage(reply, loginPage({ clientName: client.name, hidden: hiddenFields(q) }));
  });

  app.post(
    '/oauth/authorize',
    {
      config: { public: true, ...(limit === false ? {} : { rateLimit: { max: limit.max, timeWindow: limit.timeWindowMs } }) },
      schema: { summary: 'Log in and be redirected with an authorization code', operationId: 'authorizeLogin', tags: ['login'], body: formSchema },
    },
    async (request, reply) => {
      const form = request.body as AuthorizeQuery & { username: string; password: string };
      const client = checkClient(ctx, form);
      const err = redirectableError(client, form);
      if (err !== null) return redirectWith(reply, form.redirect_uri!, { ...err, state: form.state });
      const user = ctx.store.identity.getUserByLogin(form.username);
      const ok = user !== null && user.passwordHash !== null && (await verifySecret(form.password, user.passwordHash));
      if (!ok) {
        return sendPage(reply, loginPage({ clientName: client.name, hidden: hiddenFields(form), error: 'Invalid username or password.', username: form.username }));
      }
      const code = randomBytes(32).toString('base64url');
      const now = ctx.now();
      ctx.store.identity.purgeExpiredCodes(now);
      ctx.store.identity.insertCode(hashCode(code), {
        clientId: client.id,
        userId: user!.id,
        redirectUri: form.redirect_uri!,
        scope: grantScopes(parseScope(form.scope), client.scope)!,
        expiresAt: now + ctx.options.authorizationCodeTtlSeconds * 1000,
      });
      return redirectWith(reply, form.redirect_uri!, { code, state: form.state });
    },
  );

  app.get('/logout', { config: { public: true }, schema: logoutSchema }, async (_request, reply) => sendPage(reply, logoutPage()));
}
