// Rows of the authentication side of the store: users, OAuth clients and PATs (one table; the
// platform's https://developer.sailpoint.com/docs/api/v3/list-oauth-clients and
// https://developer.sailpoint.com/docs/api/v3/list-personal-access-tokens), authorization codes,
// refresh tokens, legacy API keys.

import type { Database, Statement } from 'better-sqlite3';

export type GrantType = 'CLIENT_CREDENTIALS' | 'AUTHORIZATION_CODE' | 'REFRESH_TOKEN';
export const GRANT_TYPES: readonly GrantType[] = ['CLIENT_CREDENTIALS', 'AUTHORIZATION_CODE', 'REFRESH_TOKEN'];

export interface UserRecord {
  id: string;
  login: string;
  name: string;
  email: string | null;
  passwordHash: string | null;
  capabilities: string[];
  identityId: string | null;
}

export interface ClientRecord {
  id: string;
  kind: 'CLIENT' | 'PAT';
  name: string;
  description: string | null;
  enabled: boolean;
  created: string;
  modified: string;
  grantTypes: GrantType[];
  redirectUris: string[];
  /** Allowed scopes; null means the all-scopes value. */
  scope: string[] | null;
  secretHash: string;
  ownerUserId: string | null;
  accessTokenValiditySeconds: number | null;
  refreshTokenValiditySeconds: number | null;
  lastUsed: string | null;
  /** Display-only fields of the platform's client shape (businessName, homepageUrl, type, …). */
  extra: Record<string, unknown>;
}

export interface CodeRecord {
  clientId: string;
  userId: string;
  redirectUri: string;
  scope: string[];
  expiresAt: number;
}

export interface RefreshRecord {
  jti: string;
  family: string;
  clientId: string;
  userId: string;
  scope: string[];
  expiresAt: number;
}

export interface ApiKeyRecord {
  id: string;
  name: string;
  keyHash: string;
  created: string;
}

type Row = Record<string, unknown>;

function userFromRow(r: Row): UserRecord {
  return {
    id: r.id as string,
    login: r.login as string,
    name: r.name as string,
    email: (r.email as string | null) ?? null,
    passwordHash: (r.password_hash as string | null) ?? null,
    capabilities: JSON.parse(r.capabilities as string) as string[],
    identityId: (r.identity_id as string | null) ?? null,
  };
}

export function clientFromRow(r: Row): ClientRecord {
  return {
    id: r.id as string,
    kind: r.kind as 'CLIENT' | 'PAT',
    name: r.name as string,
    description: (r.description as string | null) ?? null,
    enabled: r.enabled === 1,
    created: r.created as string,
    modified: r.modified as string,
    grantTypes: JSON.parse(r.grant_types as string) as GrantType[],
    redirectUris: JSON.parse(r.redirect_uris as string) as string[],
    scope: r.scope === null ? null : (JSON.parse(r.scope as string) as string[]),
    secretHash: r.secret_hash as string,
    ownerUserId: (r.owner_user_id as string | null) ?? null,
    accessTokenValiditySeconds: (r.access_token_validity as number | null) ?? null,
    refreshTokenValiditySeconds: (r.refresh_token_validity as number | null) ?? null,
    lastUsed: (r.last_used as string | null) ?? null,
    extra: JSON.parse(r.extra as string) as Record<string, unknown>,
  };
}

/** Prepared statements over the authentication tables; every method is synchronous. */
export class AuthRepo {
  readonly #db: Database;
  readonly #s: Record<string, Statement>;

  constructor(db: Database) {
    this.#db = db;
    const p = (sql: string) => db.prepare(sql);
    this.#s = {
      insertUser: p(`INSERT INTO users (id, login, name, email, password_hash, capabilities, identity_id)
                     VALUES (@id, @login, @name, @email, @passwordHash, @capabilities, @identityId)`),
      userById: p('SELECT * FROM users WHERE id = ?'),
      userByLogin: p('SELECT * FROM users WHERE login = ?'),
      users: p('SELECT * FROM users ORDER BY login'),
      insertClient: p(`INSERT INTO oauth_clients (id, kind, name, description, enabled, created, modified, grant_types,
                         redirect_uris, scope, secret_hash, owner_user_id, access_token_validity, refresh_token_validity, last_used, extra)
                       VALUES (@id, @kind, @name, @description, @enabled, @created, @modified, @grantTypes, @redirectUris,
                         @scope, @secretHash, @ownerUserId, @accessTokenValiditySeconds, @refreshTokenValiditySeconds, @lastUsed, @extra)`),
      clientById: p('SELECT * FROM oauth_clients WHERE id = ?'),
      clientsOfKind: p('SELECT * FROM oauth_clients WHERE kind = ? ORDER BY created, id'),
      patsOfOwner: p("SELECT * FROM oauth_clients WHERE kind = 'PAT' AND owner_user_id = ? ORDER BY created, id"),
      countPats: p("SELECT count(*) AS n FROM oauth_clients WHERE kind = 'PAT' AND owner_user_id = ?"),
      deleteClient: p('DELETE FROM oauth_clients WHERE id = ?'),
      touchClient: p('UPDATE oauth_clients SET last_used = ? WHERE id = ?'),
      insertCode: p(`INSERT INTO authorization_codes (code_hash, client_id, user_id, redirect_uri, scope, expires_at)
                     VALUES (?, ?, ?, ?, ?, ?)`),
      // Marking the code used in the same statement that reads it makes a concurrent second
      // exchange of the same code see `used_at` already set (single use, RFC 6749 §4.1.2).
      consumeCode: p('UPDATE authorization_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL RETURNING *'),
      purgeCodes: p('DELETE FROM authorization_codes WHERE expires_at < ?'),
      insertRefresh: p(`INSERT INTO refresh_tokens (jti, family, client_id, user_id, scope, expires_at)
                        VALUES (@jti, @family, @clientId, @userId, @scope, @expiresAt)`),
      rotateRefresh: p('UPDATE refresh_tokens SET rotated_at = ? WHERE jti = ? AND rotated_at IS NULL AND revoked = 0 RETURNING *'),
      refreshByJti: p('SELECT * FROM refresh_tokens WHERE jti = ?'),
      revokeFamily: p('UPDATE refresh_tokens SET revoked = 1 WHERE family = ?'),
      insertApiKey: p('INSERT INTO nonemployee_api_keys (id, name, key_hash, lookup, created) VALUES (?, ?, ?, ?, ?)'),
      apiKeysByLookup: p('SELECT * FROM nonemployee_api_keys WHERE lookup IN (?, ?) ORDER BY id'),
      setApiKeyLookup: p('UPDATE nonemployee_api_keys SET lookup = ? WHERE id = ?'),
      countApiKeys: p('SELECT count(*) AS n FROM nonemployee_api_keys'),
      authEpoch: p('SELECT n FROM auth_epoch').pluck(true),
    };
  }

  insertUser(u: UserRecord): void {
    this.#s.insertUser!.run({ ...u, capabilities: JSON.stringify(u.capabilities) });
  }

  getUser(id: string): UserRecord | null {
    const r = this.#s.userById!.get(id) as Row | undefined;
    return r ? userFromRow(r) : null;
  }

  getUserByLogin(login: string): UserRecord | null {
    const r = this.#s.userByLogin!.get(login) as Row | undefined;
    return r ? userFromRow(r) : null;
  }

  listUsers(): UserRecord[] {
    return (this.#s.users!.all() as Row[]).map(userFromRow);
  }

  insertClient(c: ClientRecord): void {
    this.#s.insertClient!.run({
      ...c,
      enabled: c.enabled ? 1 : 0,
      grantTypes: JSON.stringify(c.grantTypes),
      redirectUris: JSON.stringify(c.redirectUris),
      scope: c.scope === null ? null : JSON.stringify(c.scope),
      extra: JSON.stringify(c.extra),
    });
  }

  getClient(id: string): ClientRecord | null {
    const r = this.#s.clientById!.get(id) as Row | undefined;
    return r ? clientFromRow(r) : null;
  }

  listClients(kind: 'CLIENT' | 'PAT'): ClientRecord[] {
    return (this.#s.clientsOfKind!.all(kind) as Row[]).map(clientFromRow);
  }

  listPatsOf(ownerUserId: string): ClientRecord[] {
    return (this.#s.patsOfOwner!.all(ownerUserId) as Row[]).map(clientFromRow);
  }

  countPatsOf(ownerUserId: string): number {
    return (this.#s.countPats!.get(ownerUserId) as { n: number }).n;
  }

  deleteClient(id: string): boolean {
    return this.#s.deleteClient!.run(id).changes > 0;
  }

  touchClient(id: string, when: string): void {
    this.#s.touchClient!.run(when, id);
  }

  insertCode(codeHash: string, c: CodeRecord): void {
    this.#s.insertCode!.run(codeHash, c.clientId, c.userId, c.redirectUri, JSON.stringify(c.scope), c.expiresAt);
  }

  /** Marks the code used and returns it; null when unknown or already used. */
  consumeCode(codeHash: string, now: number): CodeRecord | null {
    const r = this.#s.consumeCode!.get(now, codeHash) as Row | undefined;
    if (!r) return null;
    return {
      clientId: r.client_id as string,
      userId: r.user_id as string,
      redirectUri: r.redirect_uri as string,
      scope: JSON.parse(r.scope as string) as string[],
      expiresAt: r.expires_at as number,
    };
  }

  purgeExpiredCodes(now: number): void {
    this.#s.purgeCodes!.run(now);
  }

  insertRefresh(r: RefreshRecord): void {
    this.#s.insertRefresh!.run({ ...r, scope: JSON.stringify(r.scope) });
  }

  /**
   * Rotation (RFC 6819 §5.2.2.3): the presented refresh token is marked rotated and returned.
   * A token that was already rotated or revoked is a replay: the whole family is revoked so that
   * neither the thief nor the victim can go on, and 'reused' is returned.
   */
  rotateRefresh(jti: string, now: number): RefreshRecord | 'reused' | null {
    return this.#db.transaction((): RefreshRecord | 'reused' | null => {
      const r = this.#s.rotateRefresh!.get(now, jti) as Row | undefined;
      if (r) {
        return {
          jti: r.jti as string,
          family: r.family as string,
          clientId: r.client_id as string,
          userId: r.user_id as string,
          scope: JSON.parse(r.scope as string) as string[],
          expiresAt: r.expires_at as number,
        };
      }
      const old = this.#s.refreshByJti!.get(jti) as Row | undefined;
      if (!old) return null;
      this.#s.revokeFamily!.run(old.family);
      return 'reused';
    })();
  }

  insertApiKey(k: ApiKeyRecord, lookup: string): void {
    this.#s.insertApiKey!.run(k.id, k.name, k.keyHash, lookup, k.created);
  }

  /** Keys stored under `lookup` or, for rows written before lookups were keyed hashes, under `legacyPrefix`. */
  apiKeysByLookup(lookup: string, legacyPrefix = lookup): (ApiKeyRecord & { lookup: string })[] {
    return (this.#s.apiKeysByLookup!.all(lookup, legacyPrefix) as Row[]).map((r) => ({
      id: r.id as string,
      name: r.name as string,
      keyHash: r.key_hash as string,
      created: r.created as string,
      lookup: r.lookup as string,
    }));
  }

  setApiKeyLookup(id: string, lookup: string): void {
    this.#s.setApiKeyLookup!.run(lookup, id);
  }

  countApiKeys(): number {
    return (this.#s.countApiKeys!.get() as { n: number }).n;
  }

  /**
   * A counter that triggers raise on every write of a user or an OAuth client but its last use
   * (store migration 8): what was read of them at an epoch still holds while it is current.
   */
  authEpoch(): number {
    return this.#s.authEpoch!.get() as number;
  }
}

/**
 * Legacy API keys are found by a keyed hash of the whole key (auth/secrets.ts apiKeyLookup),
 * then checked against their scrypt hash. Stores written before that kept the first
 * API_KEY_LOOKUP_LENGTH characters instead; such a row is re-keyed the first time its key works.
 */
export const API_KEY_LOOKUP_LENGTH = 8;
/** Meta key of the HMAC key of API key lookups. */
export const API_KEY_LOOKUP_META = 'api_key_lookup_key';
export const API_KEY_MIN_LENGTH = 24;

/**
 * A filter of oauth_clients rows (a collection's `where`): the clients of one owner, named by
 * identity id (or the user id of a user without one), as the PATs' `owner-id` names them.
 */
export const clientsOwnedBy = (ownerIdentityId: string): { text: string; params: string[] } => ({
  text: `"owner_user_id" IN (SELECT "id" FROM users WHERE COALESCE("identity_id", "id") = ?)`,
  params: [ownerIdentityId],
});
