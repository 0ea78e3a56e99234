// The three grants of the token endpoint and its token response
// (https://developer.sailpoint.com/docs/api/authentication; RFC 6749 §4.1.3, §4.4, §6).

import { createHash, randomUUID } from 'node:crypto';
import { codedError, type ErrorCode } from '../../errors/index.js';
import type { ApiContext } from '../context.js';
import type { ClientRecord, UserRecord } from '../store/auth-repo.js';
import { grantScopes } from './rights.js';

/** The token response, field for field as the authentication docs show it. */
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  refresh_token?: string;
  expires_in: number;
  scope: string;
  accessType: 'ONLINE' | 'OFFLINE';
  tenant_id: string;
  internal: boolean;
  pod: string;
  strong_auth_supported: boolean;
  org: string;
  user_id?: string;
  identity_id?: string;
  strong_auth: boolean;
  enabled: boolean;
  jti: string;
}

export type TokenParams = Partial<Record<'grant_type' | 'client_id' | 'client_secret' | 'code' | 'redirect_uri' | 'refresh_token' | 'scope', string>>;

const oauth = (code: ErrorCode, text: string) => codedError(code, text);

export function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('base64url');
}

/** Scope parameter (space-separated, RFC 6749 §3.3) to a list; absent or blank → null. */
export function parseScope(value: string | undefined): string[] | null {
  if (value === undefined) return null;
  const list = value.split(' ').filter((s) => s !== '');
  return list.length === 0 ? null : list;
}

/**
 * Client authentication (RFC 6749 §2.3). Every failure is invalid_client (401) so that a caller
 * cannot tell an unknown client from a wrong secret. Legacy ids without dashes never work
 * (https://developer.sailpoint.com/docs/api/authentication).
 */
export async function authenticateClient(ctx: ApiContext, id: string | undefined, secret: string | undefined, secretRequired: boolean): Promise<ClientRecord> {
  if (id === undefined || id === '') throw oauth('API_OAUTH_INVALID_CLIENT', 'client_id is required.');
  if (!id.includes('-')) throw oauth('API_OAUTH_INVALID_CLIENT', 'Legacy client IDs without dashes are not supported.');
  const client = ctx.store.identity.getClient(id);
  if (secret === undefined && secretRequired) throw oauth('API_OAUTH_INVALID_CLIENT', 'Client authentication failed: client_secret is required.');
  // An unknown or disabled client costs the same scrypt as a wrong secret (decision A6: the
  // answer must not tell which client ids exist, neither by its content nor by its time).
  const secretOk = secret === undefined || (await ctx.secrets.verify(secret, client?.secretHash ?? ctx.secrets.unknownHash));
  const ok = client !== null && client.enabled && secretOk;
  if (!ok) throw oauth('API_OAUTH_INVALID_CLIENT', 'Client authentication failed.');
  return client!;
}

function requireGrant(client: ClientRecord, ...grants: ClientRecord['grantTypes']): void {
  for (const g of grants) {
    if (!client.grantTypes.includes(g)) throw oauth('API_OAUTH_UNAUTHORIZED_CLIENT', `The client is not allowed the ${g} grant.`);
  }
}

function required(params: TokenParams, name: keyof TokenParams): string {
  const v = params[name];
  if (v === undefined || v === '') throw oauth('API_OAUTH_INVALID_REQUEST', `The parameter ${name} is required.`);
  return v;
}

async function issue(ctx: ApiContext, client: ClientRecord, user: UserRecord | null, scope: string[], refresh: { family: string } | null): Promise<TokenResponse> {
  const ttl = client.accessTokenValiditySeconds ?? ctx.options.accessTokenTtlSeconds;
  const userClaims =
    user === null ? {} : { user_id: user.id, identity_id: user.identityId ?? user.id, user_name: user.login, authorities: user.capabilities };
  const access = await ctx.tokens.sign(
    {
      sub: user?.id ?? client.id,
      token_use: 'access',
      client_id: client.id,
      tenant_id: ctx.tenantId,
      org: ctx.options.tenantName,
      pod: ctx.options.pod,
      scope,
      ...userClaims,
    },
    ttl,
  );
  let refreshToken: string | undefined;
  if (refresh !== null && user !== null) {
    const rttl = client.refreshTokenValiditySeconds ?? ctx.options.refreshTokenTtlSeconds;
    const r = await ctx.tokens.sign({ sub: user.id, token_use: 'refresh', client_id: client.id, tenant_id: ctx.tenantId, scope, fam: refresh.family }, rttl);
    ctx.store.identity.insertRefresh({ jti: r.jti, family: refresh.family, clientId: client.id, userId: user.id, scope, expiresAt: r.exp });
    refreshToken = r.token;
  }
  ctx.store.identity.touchClient(client.id, new Date(ctx.now()).toISOString());
  const out: TokenResponse = {
    access_token: access.token,
    token_type: 'bearer',
    expires_in: ttl,
    scope: scope.join(' '),
    accessType: refreshToken === undefined ? 'ONLINE' : 'OFFLINE',
    tenant_id: ctx.tenantId,
    internal: false,
    pod: ctx.options.pod,
    strong_auth_supported: false,
    org: ctx.options.tenantName,
    strong_auth: false,
    enabled: true,
    jti: access.jti,
  };
  if (refreshToken !== undefined) out.refresh_token = refreshToken;
  if (user !== null) {
    out.user_id = user.id;
    out.identity_id = user.identityId ?? user.id;
  }
  return out;
}

/** client_credentials: a PAT acts as its owner; another client has no user. */
async function clientCredentials(ctx: ApiContext, p: TokenParams): Promise<TokenResponse> {
  const client = await authenticateClient(ctx, p.client_id, p.client_secret, true);
  requireGrant(client, 'CLIENT_CREDENTIALS');
  const scope = grantScopes(parseScope(p.scope), client.scope);
  if (scope === null) throw oauth('API_OAUTH_INVALID_SCOPE', 'A requested scope is unknown or not allowed for this client.');
  let user: UserRecord | null = null;
  if (client.kind === 'PAT' && client.ownerUserId !== null) {
    user = ctx.store.identity.getUser(client.ownerUserId);
    if (user === null) throw oauth('API_OAUTH_INVALID_CLIENT', 'The owner of this personal access token no longer exists.');
  }
  return issue(ctx, client, user, scope, null);
}

/** authorization_code (RFC 6749 §4.1.3): single use, unexpired, same client and redirect_uri. */
async function authorizationCode(ctx: ApiContext, p: TokenParams): Promise<TokenResponse> {
  const code = required(p, 'code');
  const redirectUri = required(p, 'redirect_uri');
  // The reference lists client_id, code and redirect_uri only; a secret, when sent, must be right.
  const client = await authenticateClient(ctx, p.client_id, p.client_secret, false);
  requireGrant(client, 'AUTHORIZATION_CODE');
  const now = ctx.now();
  const grant = ctx.store.identity.consumeCode(hashCode(code), now);
  if (grant === null) throw oauth('API_OAUTH_INVALID_GRANT', 'The authorization code is unknown or was already used.');
  if (grant.expiresAt < now) throw oauth('API_OAUTH_INVALID_GRANT', 'The authorization code has expired.');
  if (grant.clientId !== client.id) throw oauth('API_OAUTH_INVALID_GRANT', 'The authorization code was issued to another client.');
  if (grant.redirectUri !== redirectUri) throw oauth('API_OAUTH_INVALID_GRANT', 'The redirect_uri differs from the one of the authorization request.');
  const user = ctx.store.identity.getUser(grant.userId);
  if (user === null) throw oauth('API_OAUTH_INVALID_GRANT', 'The user of this authorization code no longer exists.');
  const refresh = client.grantTypes.includes('REFRESH_TOKEN') ? { family: randomUUID() } : null;
  return issue(ctx, client, user, grant.scope, refresh);
}

/** refresh_token (RFC 6749 §6) with rotation: the presented token stops working. */
async function refreshToken(ctx: ApiContext, p: TokenParams): Promise<TokenResponse> {
  const presented = required(p, 'refresh_token');
  const client = await authenticateClient(ctx, p.client_id, p.client_secret, true);
  requireGrant(client, 'REFRESH_TOKEN', 'AUTHORIZATION_CODE');
  let claims;
  try {
    claims = await ctx.tokens.verify(presented, 'refresh');
  } catch (cause) {
    throw codedError('API_OAUTH_INVALID_GRANT', `The refresh token is invalid: ${(cause as Error).message}`, { cause });
  }
  if (claims.client_id !== client.id) throw oauth('API_OAUTH_INVALID_GRANT', 'The refresh token was issued to another client.');
  const row = ctx.store.identity.rotateRefresh(claims.jti!, ctx.now());
  if (row === null) throw oauth('API_OAUTH_INVALID_GRANT', 'The refresh token is unknown.');
  if (row === 'reused') throw oauth('API_OAUTH_INVALID_GRANT', 'The refresh token was already used; every token of its chain is now revoked.');
  const requested = parseScope(p.scope);
  const scope = requested === null ? row.scope : grantScopes(requested, row.scope);
  if (scope === null) throw oauth('API_OAUTH_INVALID_SCOPE', 'A refresh cannot widen the scope of the original grant.');
  const user = ctx.store.identity.getUser(row.userId);
  if (user === null) throw oauth('API_OAUTH_INVALID_GRANT', 'The user of this refresh token no longer exists.');
  return issue(ctx, client, user, scope, { family: row.family });
}

/** Dispatch on grant_type, in any case (the platform documentation writes it in both cases). */
export function grant(ctx: ApiContext, params: TokenParams): Promise<TokenResponse> {
  const type = required(params, 'grant_type').toLowerCase();
  switch (type) {
    case 'client_credentials':
      return clientCredentials(ctx, params);
    case 'authorization_code':
      return authorizationCode(ctx, params);
    case 'refresh_token':
      return refreshToken(ctx, params);
    default:
      throw oauth('API_OAUTH_UNSUPPORTED_GRANT_TYPE', `The grant type ${params.grant_type} is not supported.`);
  }
}
