// Access and refresh tokens (https://developer.sailpoint.com/docs/api/authentication): JWTs signed
// with an ES256 key pair that is generated at the first start of a store and kept in it, so that
// tokens survive a restart on the same file and a token of another store (another tenant) never
// verifies.

import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { type CryptoKey, type JWK, type JWTPayload, SignJWT, calculateJwkThumbprint, errors, exportJWK, generateKeyPair, importJWK, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import { codedError } from '../../errors/index.js';
import { type Store, writeOwnerOnly } from '../store/store.js';

const ALG = 'ES256';
const KEY_META = 'signing_key';

export type TokenUse = 'access' | 'refresh';

export interface TokenClaims extends JWTPayload {
  token_use: TokenUse;
  client_id: string;
  tenant_id: string;
  scope: string[];
  user_id?: string;
  identity_id?: string;
  /** Refresh-token family (rotation chain). */
  fam?: string;
}

export interface SignedToken {
  token: string;
  jti: string;
  /** Expiry in seconds since the epoch. */
  exp: number;
}

interface StoredKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

/**
 * Where the private key lives (docs/decisions.md A37). A file store keeps only the public key
 * and its kid in the database; the private JWK is in `<db>.signing-key.json` beside it, created
 * 0600, so that a copy of the database (attached to a bug report, say) cannot sign tokens. An
 * in-memory store keeps the pair in memory. A store written before this moves its key out on
 * open; a lost key file means a new pair (earlier tokens stop verifying).
 */
export function signingKeyFile(store: Pick<Store, 'file'>): string | undefined {
  return store.file === undefined ? undefined : `${store.file}.signing-key.json`;
}

async function generate(): Promise<StoredKey> {
  const pair = await generateKeyPair(ALG, { extractable: true });
  const publicJwk = await exportJWK(pair.publicKey);
  return { kid: await calculateJwkThumbprint(publicJwk), privateJwk: await exportJWK(pair.privateKey), publicJwk };
}

async function loadKey(store: Store): Promise<StoredKey> {
  const saved = store.getMeta(KEY_META);
  const meta = saved === null ? null : (JSON.parse(saved) as Partial<StoredKey> & { kid: string; publicJwk: JWK });
  const file = signingKeyFile(store);
  if (file === undefined) {
    if (meta?.privateJwk !== undefined) return meta as StoredKey;
    const fresh = await generate();
    store.setMeta(KEY_META, JSON.stringify(fresh));
    return fresh;
  }
  if (meta?.privateJwk !== undefined) {
    // Written by an older version: move the private key out of the database.
    writeOwnerOnly(file, JSON.stringify({ kid: meta.kid, privateJwk: meta.privateJwk }));
    store.setMeta(KEY_META, JSON.stringify({ kid: meta.kid, publicJwk: meta.publicJwk }));
    return meta as StoredKey;
  }
  if (meta !== null && existsSync(file)) {
    let kept: { kid?: unknown; privateJwk?: JWK } = {};
    try {
      kept = JSON.parse(readFileSync(file, 'utf8')) as typeof kept;
    } catch {
      // An unreadable key file is a lost key: a new pair follows.
    }
    if (kept.kid === meta.kid && kept.privateJwk !== undefined) return { kid: meta.kid, publicJwk: meta.publicJwk, privateJwk: kept.privateJwk };
  }
  const fresh = await generate();
  writeOwnerOnly(file, JSON.stringify({ kid: fresh.kid, privateJwk: fresh.privateJwk }));
  store.setMeta(KEY_META, JSON.stringify({ kid: fresh.kid, publicJwk: fresh.publicJwk }));
  return fresh;
}

export class TokenService {
  readonly #privateKey: CryptoKey;
  readonly #publicKey: CryptoKey;
  readonly #kid: string;
  readonly #publicJwk: JWK;
  readonly #issuer: string;
  readonly #clock: () => number;
  /**
   * Tokens whose signature already verified, by their exact text. A hit still checks expiry
   * and use, so the cache only skips the ES256 signature check of a byte-identical token
   * (clients send the same access token on every call until it expires).
   */
  readonly #verified = new LRUCache<string, TokenClaims>({ max: 10_000 });

  private constructor(key: { privateKey: CryptoKey; publicKey: CryptoKey; kid: string; publicJwk: JWK }, issuer: string, clock: () => number) {
    this.#privateKey = key.privateKey;
    this.#publicKey = key.publicKey;
    this.#kid = key.kid;
    this.#publicJwk = key.publicJwk;
    this.#issuer = issuer;
    this.#clock = clock;
  }

  /** Load the store's key pair, generating and saving it on the first start. */
  static async open(store: Store, tenantId: string, clock: () => number): Promise<TokenService> {
    const stored = await loadKey(store);
    const privateKey = (await importJWK(stored.privateJwk, ALG)) as CryptoKey;
    const publicKey = (await importJWK(stored.publicJwk, ALG)) as CryptoKey;
    const publicJwk = { ...stored.publicJwk, kid: stored.kid, alg: ALG, use: 'sig' };
    return new TokenService({ privateKey, publicKey, kid: stored.kid, publicJwk }, `urn:identity-transforms:tenant:${tenantId}`, clock);
  }

  get issuer(): string {
    return this.#issuer;
  }

  /** The public key set, for clients that verify tokens themselves. */
  jwks(): { keys: JWK[] } {
    return { keys: [this.#publicJwk] };
  }

  async sign(claims: Omit<TokenClaims, 'iss' | 'iat' | 'exp' | 'jti'>, ttlSeconds: number): Promise<SignedToken> {
    const iat = Math.floor(this.#clock() / 1000);
    const exp = iat + ttlSeconds;
    const jti = randomUUID();
    const token = await new SignJWT(claims as JWTPayload)
      .setProtectedHeader({ alg: ALG, typ: 'JWT', kid: this.#kid })
      .setIssuer(this.#issuer)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(jti)
      .sign(this.#privateKey);
    return { token, jti, exp };
  }

  /**
   * Verify signature (ES256 only, so `alg: none` and HMAC confusion are refused), issuer, expiry
   * against the injected clock, and the token's use. Any failure is API_UNAUTHORIZED.
   */
  async verify(token: string, use: TokenUse): Promise<TokenClaims> {
    const known = this.#verified.get(token);
    if (known !== undefined) {
      if (known.exp! * 1000 <= this.#clock()) {
        this.#verified.delete(token);
        throw codedError('API_UNAUTHORIZED', 'the token has expired');
      }
      if (known.token_use !== use) throw codedError('API_UNAUTHORIZED', `the token is not an ${use} token`);
      return known;
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.#publicKey, {
        algorithms: [ALG],
        issuer: this.#issuer,
        typ: 'JWT',
        currentDate: new Date(this.#clock()),
        requiredClaims: ['exp', 'jti', 'sub'],
      }));
    } catch (cause) {
      throw codedError('API_UNAUTHORIZED', reason(cause), { cause });
    }
    const claims = payload as TokenClaims;
    if (claims.token_use !== use || typeof claims.client_id !== 'string' || !Array.isArray(claims.scope)) {
      throw codedError('API_UNAUTHORIZED', `the token is not an ${use} token`);
    }
    this.#verified.set(token, claims);
    return claims;
  }
}

function reason(cause: unknown): string {
  if (cause instanceof errors.JWTExpired) return 'the token has expired';
  if (cause instanceof errors.JWSSignatureVerificationFailed) return 'the token signature is invalid';
  if (cause instanceof errors.JOSEAlgNotAllowed) return 'the token algorithm is not allowed';
  if (cause instanceof errors.JWTClaimValidationFailed) return `the token claim ${cause.claim} is invalid`;
  return 'the token is malformed';
}
