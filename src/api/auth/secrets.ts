// Secrets at rest (a PAT secret is shown once, never again:
// https://developer.sailpoint.com/docs/api/v3/create-personal-access-token): client secrets, PAT
// secrets, passwords and legacy API keys are kept only as scrypt hashes.

import { createHash, createHmac, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';

const KEY_LENGTH = 32;
/** log2 of the scrypt cost N; 2^14 with r=8 is the interactive-login cost from the scrypt paper. */
const DEFAULT_LOG_N = 14;
const R = 8;
const P = 1;

/** `scrypt$<logN>$<r>$<p>$<salt base64url>$<hash base64url>` */
export function hashSecret(secret: string, logN: number = DEFAULT_LOG_N): string {
  const salt = randomBytes(16);
  const hash = scryptSync(secret, salt, KEY_LENGTH, { N: 2 ** logN, r: R, p: P, maxmem: 256 * 2 ** logN * R });
  return ['scrypt', logN, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** hashSecret without blocking the event loop (request paths). */
export async function hashSecretAsync(secret: string, logN: number = DEFAULT_LOG_N): Promise<string> {
  const salt = randomBytes(16);
  const hash = await new Promise<Buffer>((resolve, reject) =>
    scrypt(secret, salt, KEY_LENGTH, { N: 2 ** logN, r: R, p: P, maxmem: 256 * 2 ** logN * R }, (err, key) => (err ? reject(err) : resolve(key))),
  );
  return ['scrypt', logN, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

interface Parsed {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function parse(stored: string): Parsed | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [logN, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![logN, r, p].every((n) => Number.isInteger(n) && n > 0) || logN > 20) return null;
  return { N: 2 ** logN, r, p, salt: Buffer.from(parts[4]!, 'base64url'), hash: Buffer.from(parts[5]!, 'base64url') };
}

/** Constant-time check of `secret` against a stored hash; false for a malformed hash. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (parsed === null) return false;
  const derived = await new Promise<Buffer>((resolve, reject) =>
    scrypt(secret, parsed.salt, parsed.hash.length, { N: parsed.N, r: parsed.r, p: parsed.p, maxmem: 256 * parsed.N * parsed.r }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
  return derived.length === parsed.hash.length && timingSafeEqual(derived, parsed.hash);
}

/** verifySecret for start-up code that runs before any request (a few keys at most). */
export function verifySecretSync(secret: string, stored: string): boolean {
  const parsed = parse(stored);
  if (parsed === null) return false;
  const derived = scryptSync(secret, parsed.salt, parsed.hash.length, { N: parsed.N, r: parsed.r, p: parsed.p, maxmem: 256 * parsed.N * parsed.r });
  return timingSafeEqual(derived, parsed.hash);
}

/** A fresh random secret: 32 bytes as 64 hex characters. */
export function newSecret(): string {
  return randomBytes(32).toString('hex');
}

/**
 * Remembers secrets that passed scrypt, keyed by the stored hash, as a SHA-256 digest in memory
 * only. Scrypt is deliberately slow (tens of milliseconds); without this every client-credentials
 * call would pay it. The secrets are 256-bit random values, so a digest of them held in process
 * memory gives an attacker nothing scrypt would have protected; a changed or deleted secret has
 * another stored hash and misses the cache.
 */
export class SecretVerifier {
  readonly #cache = new LRUCache<string, Buffer>({ max: 10_000 });
  /**
   * A hash of a random secret nobody knows, at the server's cost. An unknown client, login or
   * API key is checked against it, so that the answer costs one scrypt as for a known one with
   * a wrong secret: its time does not tell whether the name exists.
   */
  readonly unknownHash: string;

  constructor(cost: number = DEFAULT_LOG_N) {
    this.unknownHash = hashSecret(newSecret(), cost);
  }

  /** A password: scrypt every time, never cached (a password is not a 256-bit random value). */
  verifyPassword(password: string, stored: string): Promise<boolean> {
    return this.kdf(password, stored);
  }

  /**
   * A client or PAT secret. Only the right secret of an id that passed before is answered from
   * the cache; a wrong one runs scrypt against the stored hash, as a first try or an unknown id
   * does (against unknownHash): what a wrong secret costs does not tell whether its id exists or
   * has logged in since the server started.
   */
  async verify(secret: string, stored: string): Promise<boolean> {
    const digest = createHash('sha256').update(secret).digest();
    const known = this.#cache.get(stored);
    if (known !== undefined && timingSafeEqual(known, digest)) return true;
    const ok = await this.kdf(secret, stored);
    if (ok) this.#cache.set(stored, digest);
    return ok;
  }

  /** The key derivation every check that is not a cache hit runs (one scrypt at the stored cost). */
  kdf(secret: string, stored: string): Promise<boolean> {
    return verifySecret(secret, stored);
  }
}

/**
 * The lookup value of a legacy API key: HMAC-SHA256 of the whole key under a random key kept in
 * the store. A presented key is found by its exact digest, so the store holds no part of a key
 * in clear and a guess that shares a prefix with a real key costs what any other guess costs.
 */
export function apiKeyLookup(lookupKey: Buffer, apiKey: string): string {
  return createHmac('sha256', lookupKey).update(apiKey).digest('base64url');
}
