// The authorization endpoint on the login listener (RFC 6749 §4.1.1–4.1.2): client_id,
// response_type=code and a redirect_uri matched exactly against the client's redirectUris; a login
// form for fixture users; a single-use, short-lived code delivered to the redirect URI. The pages
// are for a person in a browser: errors that cannot go back to the client are pages too.

import { randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { codedError } from '../../errors/index.js';
import { hashCode, parseScope } from '../auth/grants.js';
import { grantScopes } from '../auth/rights.js';
import type { ApiContext } from '../context.js';
import type { ClientRecord } from '../store/auth-repo.js';
import { sendError } from './errors.js';
import { errorPage, loginPage, logoutPage } from './login-page.js';
import { LOGIN_CSS, LOGIN_STYLESHEET } from './login-style.js';

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

/**
 * Send the browser to the client. After the login form, 303 (RFC 9700 §4.12: a redirect of a
 * request that carried the password must make the browser use GET and drop the body); 302 for
 * the errors of GET /oauth/authorize (RFC 6749 §4.1.2.1).
 */
function redirectWith(reply: FastifyReply, status: 302 | 303, redirectUri: string, params: Record<string, string | undefined>): FastifyReply {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return reply.code(status).header('location', url.toString()).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send();
}

/**
 * The CSP source that lets the login form's submission end at the client's redirect URI.
 * Chromium applies `form-action` to every redirect of a form submission's navigation
 * (CSP Level 3 §6.4.2 is checked for each hop of the navigate fetch), so `form-action 'self'`
 * alone blocks the 303 to the client and leaves the person on the filled form. After a redirect, paths of sources
 * are not compared (CSP3 §6.7.2.8), so the origin is the narrowest source that matches. Hosts CSP
 * cannot spell (an IPv6 literal, an underscore) and non-web schemes get their scheme alone.
 * Null for a URI the browser would not follow (unparsable, javascript:, data:).
 */
export function redirectSource(redirectUri: string): string | null {
  if (!URL.canParse(redirectUri)) return null;
  const url = new URL(redirectUri);
  if (['javascript:', 'data:', 'blob:', 'filesystem:', 'about:'].includes(url.protocol)) return null;
  if ((url.protocol === 'http:' || url.protocol === 'https:') && /^[a-z0-9.-]+(?::\d+)?$/.test(url.host)) return `${url.protocol}//${url.host}`;
  return url.protocol;
}

/**
 * Errors about the client or the redirect URI are shown to the user, never redirected
 * (RFC 6749 §4.1.2.1: the redirect URI cannot be trusted yet). Returns the client when both are valid.
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
  if (redirectSource(q.redirect_uri) === null) throw codedError('API_OAUTH_INVALID_REQUEST', 'The redirect_uri of the client is not a URL a browser can be sent to.');
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

/** Headers of every page: no caching, no framing, and a CSP allowing only the own stylesheet. */
function pageHeaders(reply: FastifyReply, redirectUri?: string): FastifyReply {
  const target = redirectUri === undefined ? null : redirectSource(redirectUri);
  const formAction = target === null ? "'self'" : `'self' ${target}`;
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('content-security-policy', `default-src 'none'; style-src 'self'; form-action ${formAction}; base-uri 'none'; frame-ancestors 'none'`);
}

/**
 * A person's browser asks for HTML; a script that asks for JSON only (Accept: application/json
 * without text/html) gets the platform's error body.
 */
function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return !(/\bapplication\/json\b/i.test(accept) && !/\btext\/html\b/i.test(accept));
}

/** For /openapi.json: the route validates nothing, but is described like the others. */
const logoutSchema = { summary: 'Sign out', operationId: 'logout', tags: ['login'] } as FastifySchema;

export async function loginPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  await app.register(formbody);
  const limit = ctx.options.loginRateLimit;
  if (limit !== false) await app.register(rateLimit, { global: false });
  const tenantName = ctx.options.tenantName;

  // RFC 6749 §4.1.2.1: an invalid client or redirect URI is told to the person, never redirected.
  app.setErrorHandler((err, request, reply) =>
    wantsHtml(request)
      ? sendError(err as FastifyError, request, reply, (body, status) => {
          pageHeaders(reply);
          return errorPage({ tenantName, status, message: body.messages[0]!.text, trackingId: body.trackingId });
        })
      : sendError(err as FastifyError, request, reply),
  );

  app.get(LOGIN_STYLESHEET, { config: { public: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').send(LOGIN_CSS),
  );
  // Browsers ask for an icon with every page; there is none, and that is not an error to log.
  app.get('/favicon.ico', { config: { public: true } }, async (_request, reply) => reply.code(204).header('cache-control', 'public, max-age=86400').send());

  app.get('/oauth/authorize', { config: { public: true }, schema: { summary: 'Authorization code flow, step 1: the login page', operationId: 'authorize', tags: ['login'], querystring: querySchema } }, async (request, reply) => {
    const q = request.query as AuthorizeQuery;
    const client = checkClient(ctx, q);
    const err = redirectableError(client, q);
    if (err !== null) return redirectWith(reply, 302, q.redirect_uri!, { ...err, state: q.state });
    return pageHeaders(reply, q.redirect_uri).send(loginPage({ tenantName, clientName: client.name, hidden: hiddenFields(q) }));
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
      if (err !== null) return redirectWith(reply, 303, form.redirect_uri!, { ...err, state: form.state });
      const user = ctx.store.identity.getUserByLogin(form.username);
      // An unknown login, or a user without a password, costs the same scrypt as a wrong password.
      const matches = await ctx.secrets.verifyPassword(form.password, user?.passwordHash ?? ctx.secrets.unknownHash);
      const ok = user !== null && user.passwordHash !== null && matches;
      if (!ok) {
        const page = loginPage({ tenantName, clientName: client.name, hidden: hiddenFields(form), error: 'Invalid username or password.', username: form.username });
        return pageHeaders(reply, form.redirect_uri).send(page);
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
      return redirectWith(reply, 303, form.redirect_uri!, { code, state: form.state });
    },
  );

  app.get('/logout', { config: { public: true }, schema: logoutSchema }, async (_request, reply) => pageHeaders(reply).send(logoutPage(tenantName)));
}
