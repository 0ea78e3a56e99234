// buildServer options: validated, defaulted and frozen; an unknown key is an error (as the engine's
// options are). Defaults follow the platform (expires_in 749:
// https://developer.sailpoint.com/docs/api/authentication).

import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { codedError } from '../errors/index.js';

export interface RateLimitOptions {
  /** Requests allowed per window and client address. */
  max: number;
  timeWindowMs: number;
}

/** Limits on what one request may make the server parse, store or compute (SECURITY.md lists them). */
export interface RequestLimits {
  /** Largest request body, and largest stored document, in bytes of JSON text; default 1 MiB. */
  maxBodyBytes: number;
  /** Deepest nesting of objects and arrays in a body or stored document; default 256. */
  maxJsonDepth: number;
  /** Longest search query, in characters; default 10,000. */
  searchMaxLength: number;
  /** Deepest nesting of parentheses and NOT in a search query; default 32. */
  searchMaxDepth: number;
  /** Most terms in a search query; default 128. */
  searchMaxTerms: number;
  /** Time budget of one search's SQL, in milliseconds; default 1,000. */
  searchTimeMs: number;
}

export const DEFAULT_REQUEST_LIMITS: Readonly<RequestLimits> = Object.freeze({
  maxBodyBytes: 1_048_576,
  maxJsonDepth: 256,
  searchMaxLength: 10_000,
  searchMaxDepth: 32,
  searchMaxTerms: 128,
  searchTimeMs: 1_000,
});

export interface ServerUrls {
  baseUrl: string;
  loginUrl: string;
  nonEmployeeUrl: string;
}

export interface ServerOptions {
  /** Fixtures directory seeded into a new store. */
  fixtures?: string;
  /** SQLite file (WAL); absent for an in-memory store. */
  db?: string;
  tenantName?: string;
  pod?: string;
  /** Lifetime of access tokens (expires_in); default 749. */
  accessTokenTtlSeconds?: number;
  refreshTokenTtlSeconds?: number;
  authorizationCodeTtlSeconds?: number;
  /** Rate limit of POST /oauth/token; false to disable (benchmarks). */
  tokenRateLimit?: RateLimitOptions | false;
  /** Rate limit of the login form submissions. */
  loginRateLimit?: RateLimitOptions | false;
  /** Rate limit of every request to the non-employee listener (each one presents a credential). */
  nonEmployeeRateLimit?: RateLimitOptions | false;
  /** Milliseconds since the epoch; injected for expiry tests. */
  clock?: () => number;
  /** A pino logger, or false for none; default pino on stderr. */
  logger?: FastifyBaseLogger | false;
  /** log2 of the scrypt cost for hashing secrets (10–20); default 14. */
  secretHashCost?: number;
  /** Public addresses to advertise (behind a proxy); by default those of the listeners. */
  urls?: Partial<ServerUrls>;
  /** Legacy non-employee API keys to add at start (at least 24 characters each). */
  nonEmployeeApiKeys?: readonly string[];
  /** Request limits; each key defaults to DEFAULT_REQUEST_LIMITS. */
  requestLimits?: Partial<RequestLimits>;
}

export interface ResolvedOptions {
  readonly fixtures: string | undefined;
  readonly db: string | undefined;
  readonly tenantName: string;
  readonly pod: string;
  readonly accessTokenTtlSeconds: number;
  readonly refreshTokenTtlSeconds: number;
  readonly authorizationCodeTtlSeconds: number;
  readonly tokenRateLimit: RateLimitOptions | false;
  readonly loginRateLimit: RateLimitOptions | false;
  readonly nonEmployeeRateLimit: RateLimitOptions | false;
  readonly clock: () => number;
  readonly logger: FastifyBaseLogger | false;
  readonly secretHashCost: number;
  readonly urls: Partial<ServerUrls>;
  readonly nonEmployeeApiKeys: readonly string[];
  readonly requestLimits: Readonly<RequestLimits>;
}

const KEYS = new Set<string>([
  'fixtures', 'db', 'tenantName', 'pod', 'accessTokenTtlSeconds', 'refreshTokenTtlSeconds', 'authorizationCodeTtlSeconds',
  'tokenRateLimit', 'loginRateLimit', 'nonEmployeeRateLimit', 'clock', 'logger', 'secretHashCost', 'urls', 'nonEmployeeApiKeys', 'requestLimits',
]);

function fail(key: string, why: string): never {
  throw codedError('API_OPTIONS', `option ${key} ${why}`, { path: `/${key}` });
}

/** The largest integer option (a token lifetime, a limit): 2³¹ s is 68 years. */
export const MAX_INTEGER_OPTION = 2 ** 31;

function positiveInt(key: string, value: unknown, fallback: number, min = 1, max = MAX_INTEGER_OPTION): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(key, `must be an integer from ${min} to ${max}`);
  return value;
}

function rateLimit(key: string, value: unknown): RateLimitOptions | false {
  if (value === undefined) return Object.freeze({ max: 60, timeWindowMs: 60_000 });
  if (value === false) return false;
  if (typeof value !== 'object' || value === null) fail(key, 'must be {max, timeWindowMs} or false');
  const v = value as Record<string, unknown>;
  for (const k of Object.keys(v)) if (k !== 'max' && k !== 'timeWindowMs') fail(`${key}.${k}`, 'is unknown');
  return Object.freeze({ max: positiveInt(`${key}.max`, v.max, 60), timeWindowMs: positiveInt(`${key}.timeWindowMs`, v.timeWindowMs, 60_000) });
}

function requestLimits(value: unknown): Readonly<RequestLimits> {
  if (value === undefined) return DEFAULT_REQUEST_LIMITS;
  if (typeof value !== 'object' || value === null) fail('requestLimits', 'must be an object');
  const v = value as Record<string, unknown>;
  const out: Record<string, number> = {};
  for (const k of Object.keys(v)) if (!Object.hasOwn(DEFAULT_REQUEST_LIMITS, k)) fail(`requestLimits.${k}`, 'is unknown');
  for (const [k, fallback] of Object.entries(DEFAULT_REQUEST_LIMITS)) out[k] = positiveInt(`requestLimits.${k}`, v[k], fallback);
  // SQLite's JSON functions refuse documents nested deeper than 1000 levels: a stored value must stay below.
  if (out.maxJsonDepth! > 900) fail('requestLimits.maxJsonDepth', 'must be at most 900 (SQLite reads JSON up to 1000 levels deep)');
  return Object.freeze(out as unknown as RequestLimits);
}

function optionalString(key: string, value: unknown): string | undefined {
  if (value !== undefined && (typeof value !== 'string' || value === '')) fail(key, 'must be a non-empty string');
  return value as string | undefined;
}

export function resolveOptions(options: ServerOptions = {}): ResolvedOptions {
  for (const k of Object.keys(options)) if (!KEYS.has(k)) fail(k, 'is unknown');
  const o = options as Record<string, unknown>;
  if (o.clock !== undefined && typeof o.clock !== 'function') fail('clock', 'must be a function');
  const urls = (o.urls ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(urls)) {
    if (!['baseUrl', 'loginUrl', 'nonEmployeeUrl'].includes(k)) fail(`urls.${k}`, 'is unknown');
    if (typeof v !== 'string' || !URL.canParse(v)) fail(`urls.${k}`, 'must be an absolute URL');
  }
  const keys = o.nonEmployeeApiKeys ?? [];
  if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string' && k.length >= 24)) {
    fail('nonEmployeeApiKeys', 'must be an array of strings of at least 24 characters');
  }
  return Object.freeze({
    fixtures: optionalString('fixtures', o.fixtures),
    db: optionalString('db', o.db),
    tenantName: optionalString('tenantName', o.tenantName) ?? 'local',
    pod: optionalString('pod', o.pod) ?? 'local',
    accessTokenTtlSeconds: positiveInt('accessTokenTtlSeconds', o.accessTokenTtlSeconds, 749),
    refreshTokenTtlSeconds: positiveInt('refreshTokenTtlSeconds', o.refreshTokenTtlSeconds, 86_400),
    authorizationCodeTtlSeconds: positiveInt('authorizationCodeTtlSeconds', o.authorizationCodeTtlSeconds, 60, 1, 600),
    tokenRateLimit: rateLimit('tokenRateLimit', o.tokenRateLimit),
    loginRateLimit: rateLimit('loginRateLimit', o.loginRateLimit),
    nonEmployeeRateLimit: rateLimit('nonEmployeeRateLimit', o.nonEmployeeRateLimit),
    clock: (o.clock as (() => number) | undefined) ?? Date.now,
    logger: o.logger === undefined ? (pino({ level: 'info' }, pino.destination(2)) as FastifyBaseLogger) : (o.logger as FastifyBaseLogger | false),
    secretHashCost: positiveInt('secretHashCost', o.secretHashCost, 14, 10, 20),
    urls: Object.freeze({ ...(urls as Partial<ServerUrls>) }),
    nonEmployeeApiKeys: Object.freeze([...(keys as string[])]),
    requestLimits: requestLimits(o.requestLimits),
  });
}
