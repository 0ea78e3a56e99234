// Authorization on every API call (https://developer.sailpoint.com/docs/api/authentication): a
// bearer token is required (missing, malformed, expired or tampered → 401); a valid token without
// the route's right → 403; a route that needs a user called without user context → 403.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { codedError } from '../../errors/index.js';
import type { ApiContext } from '../context.js';
import type { UserRecord } from '../store/auth-repo.js';
import { API_KEY_LOOKUP_LENGTH, API_KEY_LOOKUP_META, API_KEY_MIN_LENGTH } from '../store/auth-repo.js';
import { apiKeyLookup } from './secrets.js';
import { ALL_RIGHTS, RIGHTS, type Right, effectiveRights, userRights } from './rights.js';

export interface Principal {
  via: 'token' | 'apiKey';
  /** The OAuth client (or PAT) the token was issued to; the key id for a legacy API key. */
  clientId: string;
  /** The user the call acts for; null without user context. */
  user: UserRecord | null;
  scopes: readonly string[];
  rights: ReadonlySet<string>;
}

/** Per-route access rule, in the route's `config.auth`. */
export interface RouteAuth {
  /** The right the call needs (any one of a list). */
  right?: Right | readonly Right[];
  /** The call needs a user (admin APIs refuse client tokens without one). */
  user?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Access rule of the route; every route without `public: true` needs a bearer token. */
    auth?: RouteAuth;
    /** The route needs no token (token endpoint, discovery documents). */
    public?: boolean;
  }
}

/** The bearer credential of a request, or a 401. */
export function bearerOf(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header === undefined || header === '') throw codedError('API_UNAUTHORIZED', 'The Authorization header is missing.');
  const m = /^Bearer[ ]+([\x21-\x7e]+)[ ]*$/i.exec(header);
  if (m === null) throw codedError('API_UNAUTHORIZED', 'The Authorization header is not a Bearer credential.');
  return m[1]!;
}

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/;

/**
 * Principals of access tokens already resolved, by the token's text, with the store's auth epoch
 * they were resolved at. The epoch is a counter that the store's triggers raise on every write
 * of a user or an OAuth client but its last use (store migration 8), on any connection, so an
 * entry read at an older epoch is never used: a deleted or disabled client, a deleted user or a
 * changed capability takes effect on the next request. Expiry and use are checked on every
 * request by the token service. Bounded, like the token service's cache of verified tokens.
 */
export type PrincipalCache = LRUCache<string, { readonly epoch: number; readonly principal: Principal }>;

export function newPrincipalCache(): PrincipalCache {
  return new LRUCache({ max: 10_000 });
}

/** Resolve an access token of this server to the client, user and rights it acts with. */
export async function principalFromToken(ctx: ApiContext, token: string, cache?: PrincipalCache): Promise<Principal> {
  if (!JWT_SHAPE.test(token)) throw codedError('API_UNAUTHORIZED', 'The access token is malformed.');
  const claims = await ctx.tokens.verify(token, 'access');
  // Read before the rows, so that a write between the two leaves the entry at an older epoch.
  const epoch = ctx.store.identity.authEpoch();
  const known = cache?.get(token);
  if (known !== undefined && known.epoch === epoch) return known.principal;
  // A deleted PAT or client, or a disabled client, stops its tokens at once.
  const client = ctx.store.identity.getClient(claims.client_id);
  if (client === null || !client.enabled) throw codedError('API_UNAUTHORIZED', 'The client of this token no longer exists or is disabled.');
  let user: UserRecord | null = null;
  if (claims.user_id !== undefined) {
    user = ctx.store.identity.getUser(claims.user_id);
    if (user === null) throw codedError('API_UNAUTHORIZED', 'The user of this token no longer exists.');
    Object.freeze(user.capabilities);
    Object.freeze(user);
  }
  const base = user === null ? new Set<string>(ALL_RIGHTS) : userRights(user.capabilities);
  const principal: Principal = Object.freeze({ via: 'token', clientId: client.id, user, scopes: Object.freeze([...claims.scope]), rights: effectiveRights(base, claims.scope) });
  cache?.set(token, { epoch, principal });
  return principal;
}

/**
 * Resolve a legacy non-employee API key
 * (https://developer.sailpoint.com/docs/api/v3/non-employee-lifecycle-management).
 * It has no user context and carries only the right to read the non-employee service.
 */
export async function principalFromApiKey(ctx: ApiContext, key: string): Promise<Principal | null> {
  // Shorter than any key that can be stored: no key can match, whatever exists.
  if (key.length < API_KEY_MIN_LENGTH) return null;
  const lookup = apiKeyLookup(ctx.store.secretKey(API_KEY_LOOKUP_META), key);
  const candidates = ctx.store.identity.apiKeysByLookup(lookup, key.slice(0, API_KEY_LOOKUP_LENGTH));
  // No candidate still costs one scrypt, as a candidate with the wrong key does.
  if (candidates.length === 0) await ctx.secrets.verify(key, ctx.secrets.unknownHash);
  for (const k of candidates) {
    if (await ctx.secrets.verify(key, k.keyHash)) {
      if (k.lookup !== lookup) ctx.store.identity.setApiKeyLookup(k.id, lookup);
      return { via: 'apiKey', clientId: k.id, user: null, scopes: [RIGHTS.nonEmployeeRead], rights: new Set([RIGHTS.nonEmployeeRead]) };
    }
  }
  return null;
}

/** Check the route rule against a principal; throws the 403 errors. */
export function checkAccess(principal: Principal, auth: RouteAuth | undefined): void {
  if (auth?.user === true && principal.user === null) {
    throw codedError('API_USER_CONTEXT_REQUIRED', 'This endpoint needs a user context; the token was issued to a client without a user.');
  }
  const need = auth?.right;
  if (need === undefined) return;
  const any = typeof need === 'string' ? [need] : need;
  if (!any.some((r) => principal.rights.has(r))) {
    throw codedError('API_FORBIDDEN', `The token lacks the right ${any.join(' or ')} for this endpoint.`, { details: { causes: [`missing right ${any.join(' or ')}`] } });
  }
}

/**
 * Installs authentication on a listener: an onRequest hook (before body parsing, so an
 * unauthenticated caller cannot make the server parse a body) that every non-public route runs.
 */
export function installAuthentication(app: FastifyInstance, ctx: ApiContext, accept: { apiKeys: boolean }): void {
  app.decorateRequest('principal', null);
  const principals = newPrincipalCache();
  // Authorization by construction: a route must say who may call it, or the server does not boot.
  app.addHook('onRoute', (route) => {
    if (route.config?.public !== true && route.config?.auth === undefined) {
      throw new Error(`route ${String(route.method)} ${route.url} declares neither config.auth nor config.public`);
    }
  });
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const config = request.routeOptions.config;
    if (config.public === true) return;
    const bearer = bearerOf(request);
    let principal: Principal | null = null;
    if (accept.apiKeys && !JWT_SHAPE.test(bearer)) {
      principal = await principalFromApiKey(ctx, bearer);
      if (principal === null) throw codedError('API_UNAUTHORIZED', 'The bearer is neither a valid API key nor an access token.');
    } else {
      principal = await principalFromToken(ctx, bearer, principals);
    }
    checkAccess(principal, config.auth);
    request.principal = principal;
  });
}
