// The HTTP side of the tenant-backed providers (https://developer.sailpoint.com/docs/api/authentication,
// https://developer.sailpoint.com/docs/api/standard-collection-parameters, https://developer.sailpoint.com/docs/api/v3/search-post,
// https://developer.sailpoint.com/docs/api/rate-limit): a client-credentials token cached and
// renewed before it expires, every call with
// `Authorization: Bearer`, a concurrency limit, retries with backoff on 429, 5xx and network
// failures (honouring Retry-After), limit/offset paging of collections and searchAfter paging
// of search. What the tenant answers is bounded (docs/limits.md, "The tenant client"): every
// body by maxBodyBytes, every listing by maxRecords, every attempt by timeoutMs, headers and body
// together; no redirect is followed, so credentials go only to the URLs configured.
//
// Written on Node's fetch rather than the official SDK (`sailpoint-api-client`), whose
// Configuration fetches one token in its constructor and never renews it, and whose every call
// registers axios-retry's interceptors on the axios instance once more (a refresh of a million
// identities would pile up millions of them); see docs/decisions.md "Tenant-backed providers".

import { codedError, isTransformsError, TransformsError } from '../../errors/index.js';
import { listPages, searchPages, type Query, type SearchWalk } from './paging.js';
import { errorText, failureReason, isNetworkFailure, isRedirect, readBody, retryable, retryAfterMs } from './response.js';

export { retryAfterMs } from './response.js';

export interface TenantClientOptions {
  /** The tenant's API base URL ({base_url}), e.g. https://acme.api.identitynow.com or a local `serve`. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The token endpoint ({auth_url}/oauth/token). Default: `${baseUrl}/oauth/token`. */
  tokenUrl?: string;
  /** Requests in flight at once. Default 8. */
  concurrency?: number;
  /** Retries of a request answered 429 or 5xx, or failing on the network. Default 5. */
  retries?: number;
  /** Base of the exponential backoff, in ms (attempt n waits about base·2ⁿ, with jitter). Default 250. */
  retryDelayMs?: number;
  /** Longest wait between two attempts, Retry-After included, in ms. Default 30,000. */
  maxRetryDelayMs?: number;
  /** Time limit of one attempt, in ms: from sending the request to the last byte of its answer. Default 30,000. */
  timeoutMs?: number;
  /** The largest answer body read, in bytes; a larger one is TENANT_LIMIT. Default 256 MiB. */
  maxBodyBytes?: number;
  /** Records one listing or search walk may hand out; more is TENANT_LIMIT. Default 10,000,000. */
  maxRecords?: number;
  /** Renew the token this many seconds before it expires (at most half its lifetime). Default 60. */
  renewBeforeSeconds?: number;
  /** At most this many API requests started per second (retries included), e.g. below the tenant's limit. Default: no cap. */
  maxRequestsPerSecond?: number;
  /** The fetch implementation (tests inject one). Default: the global fetch. */
  fetch?: typeof globalThis.fetch;
  /** Milliseconds since the epoch (tests inject one). Default Date.now. */
  now?: () => number;
  /** Waits between attempts (tests inject one). Default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

export interface TenantClientStats {
  /** API requests sent (attempts, retries included; token requests excluded). */
  requests: number;
  /** Attempts repeated after a 429, a 5xx or a network failure. */
  retries: number;
  /** Tokens obtained from the token endpoint. */
  tokens: number;
  /** Milliseconds every request was held back after a 429's Retry-After (summed over pauses). */
  pausedMs: number;
}

export interface TenantResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

const CLIENT_DEFAULTS = {
  concurrency: 8,
  retries: 5,
  retryDelayMs: 250,
  maxRetryDelayMs: 30_000,
  timeoutMs: 30_000,
  maxBodyBytes: 256 * 1024 * 1024,
  maxRecords: 10_000_000,
  renewBeforeSeconds: 60,
  maxRequestsPerSecond: 0,
};

/** The largest page the list endpoints serve (standard collection parameters). */
export const LIST_PAGE_MAX = 250;
/** The largest page of the search endpoint. */
export const SEARCH_PAGE_MAX = 10_000;

function optionError(message: string, option: string): never {
  throw codedError('TENANT_OPTIONS', message, { details: { option } });
}

function integerOption(value: unknown, option: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    optionError(`${option} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`, option);
  }
  return value;
}

function urlOption(value: unknown, option: string): string {
  if (typeof value !== 'string' || value === '') optionError(`${option} must be an http(s) URL`, option);
  let url: URL;
  try {
    url = new URL(value as string);
  } catch {
    return optionError(`${option} must be an http(s) URL, got ${JSON.stringify(value)}`, option);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') optionError(`${option} must be an http(s) URL, got ${JSON.stringify(value)}`, option);
  // Credentials belong in clientId and clientSecret: in a URL they would be printed in messages
  // and saved with it (a snapshot's checkpoint), so the URL is refused and not quoted.
  if (url.username !== '' || url.password !== '') {
    url.username = '';
    url.password = '';
    optionError(`${option} must not hold credentials (user:password@): pass them as clientId and clientSecret; got ${url.href}`, option);
  }
  return url.href.replace(/\/+$/, '');
}

/** A counting semaphore: at most `size` holders at once, served in arrival order. */
class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/** RFC 6750 section 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

interface Token {
  value: string;
  /** When to ask for a new one (ms since the epoch). */
  renewAt: number;
}

export class TenantClient {
  readonly baseUrl: string;
  private readonly tokenUrl: string;
  private readonly clientId: string;
  private readonly clientSecret: string;
  private readonly settings: typeof CLIENT_DEFAULTS;
  private readonly fetchImpl: typeof globalThis.fetch;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly gate: Semaphore;
  private token: Token | null = null;
  private pendingToken: Promise<Token> | null = null;
  private readonly counters: TenantClientStats = { requests: 0, retries: 0, tokens: 0, pausedMs: 0 };
  /** Until when (ms since the epoch) no request starts: the latest 429's Retry-After holds every request back, not just the one refused. */
  private pausedUntil = 0;
  /** When the next request may start under maxRequestsPerSecond. */
  private nextSlot = 0;

  constructor(options: TenantClientOptions) {
    this.baseUrl = urlOption(options.baseUrl, 'baseUrl');
    this.tokenUrl = options.tokenUrl === undefined ? `${this.baseUrl}/oauth/token` : urlOption(options.tokenUrl, 'tokenUrl');
    if (typeof options.clientId !== 'string' || options.clientId === '') optionError('clientId must be a non-empty string', 'clientId');
    if (typeof options.clientSecret !== 'string' || options.clientSecret === '') optionError('clientSecret must be a non-empty string', 'clientSecret');
    this.clientId = options.clientId;
    this.clientSecret = options.clientSecret;
    this.settings = {
      concurrency: integerOption(options.concurrency, 'concurrency', 1, 256, CLIENT_DEFAULTS.concurrency),
      retries: integerOption(options.retries, 'retries', 0, 20, CLIENT_DEFAULTS.retries),
      retryDelayMs: integerOption(options.retryDelayMs, 'retryDelayMs', 0, 60_000, CLIENT_DEFAULTS.retryDelayMs),
      maxRetryDelayMs: integerOption(options.maxRetryDelayMs, 'maxRetryDelayMs', 0, 600_000, CLIENT_DEFAULTS.maxRetryDelayMs),
      timeoutMs: integerOption(options.timeoutMs, 'timeoutMs', 1, 600_000, CLIENT_DEFAULTS.timeoutMs),
      maxBodyBytes: integerOption(options.maxBodyBytes, 'maxBodyBytes', 1024, 2 ** 31 - 1, CLIENT_DEFAULTS.maxBodyBytes),
      maxRecords: integerOption(options.maxRecords, 'maxRecords', 1, Number.MAX_SAFE_INTEGER, CLIENT_DEFAULTS.maxRecords),
      renewBeforeSeconds: integerOption(options.renewBeforeSeconds, 'renewBeforeSeconds', 0, 86_400, CLIENT_DEFAULTS.renewBeforeSeconds),
      maxRequestsPerSecond: integerOption(options.maxRequestsPerSecond, 'maxRequestsPerSecond', 0, 100_000, CLIENT_DEFAULTS.maxRequestsPerSecond),
    };
    for (const key of ['fetch', 'now', 'sleep'] as const) {
      if (options[key] !== undefined && typeof options[key] !== 'function') optionError(`${key} must be a function`, key);
    }
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.gate = new Semaphore(this.settings.concurrency);
  }

  /** Records one listing or search walk may hand out (the maxRecords option). */
  get maxRecords(): number {
    return this.settings.maxRecords;
  }

  stats(): TenantClientStats {
    return { ...this.counters };
  }

  /** A valid access token: the cached one until its renewal time, else a new one (one request for concurrent callers). */
  async accessToken(): Promise<string> {
    if (this.token !== null && this.now() < this.token.renewAt) return this.token.value;
    this.pendingToken ??= this.requestToken().finally(() => {
      this.pendingToken = null;
    });
    this.token = await this.pendingToken;
    return this.token.value;
  }

  private async requestToken(): Promise<Token> {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: this.clientId, client_secret: this.clientSecret });
    const response = await this.send('POST', this.tokenUrl, { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, form.toString(), 'the token request');
    if (response.status === 400 || response.status === 401 || response.status === 403) {
      throw codedError('TENANT_AUTH', `the tenant refused the client credentials of ${this.clientId}: ${errorText(response.body, `HTTP ${response.status}`)}`, {
        details: { status: response.status, url: this.tokenUrl },
      });
    }
    if (response.status !== 200) this.httpError('POST', this.tokenUrl, response);
    const body = response.body as { access_token?: unknown; expires_in?: unknown } | null;
    if (body === null || typeof body !== 'object' || typeof body.access_token !== 'string' || body.access_token === '') {
      throw codedError('TENANT_RESPONSE', `the token endpoint ${this.tokenUrl} answered without an access_token`, { details: { url: this.tokenUrl } });
    }
    // A bearer token is a b64token (RFC 6750 section 2.1): anything else, a CR or LF above all,
    // cannot go in a header; the value is not quoted, it is a credential.
    if (!BEARER_TOKEN.test(body.access_token)) {
      throw codedError('TENANT_RESPONSE', `the token endpoint ${this.tokenUrl} answered an access_token that is not a bearer token (RFC 6750: letters, digits and -._~+/, then =)`, { details: { url: this.tokenUrl } });
    }
    this.counters.tokens++;
    const lifetimeMs = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in * 1000 : 0;
    // Ask again before the token expires, judged from expires_in.
    const margin = Math.min(this.settings.renewBeforeSeconds * 1000, lifetimeMs / 2);
    return { value: body.access_token, renewAt: this.now() + lifetimeMs - margin };
  }

  /** One API call; 401 renews the token once, 429/5xx/network failures are retried. */
  async request<T = unknown>(method: 'GET' | 'POST', path: string, options: { query?: Query; body?: unknown } = {}): Promise<TenantResponse<T>> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    return this.gate.run(async () => {
      let renewed = false;
      for (;;) {
        const token = await this.accessToken();
        const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
        if (body !== undefined) headers['content-type'] = 'application/json';
        const response = await this.send(method, url.href, headers, body, `${method} ${url.pathname}`);
        if (response.status === 401 && !renewed) {
          // Revoked or expired early: one new token, one more attempt.
          renewed = true;
          if (this.token?.value === token) this.token = null;
          continue;
        }
        if (response.status < 200 || response.status > 299) this.httpError(method, url.href, response);
        return response as TenantResponse<T>;
      }
    });
  }

  /**
   * Wait for the tenant's last Retry-After to pass (unless this request already waited it out,
   * having been the one refused) and for a slot under maxRequestsPerSecond. One wait each: the
   * clock and the sleep are injectable, and a test's sleep need not advance the clock.
   */
  private async admit(waitedOutPause: boolean): Promise<void> {
    const now = this.now();
    if (!waitedOutPause && now < this.pausedUntil) {
      const wait = this.pausedUntil - now;
      this.counters.pausedMs += wait;
      await this.sleep(wait);
    }
    const rate = this.settings.maxRequestsPerSecond;
    if (rate === 0) return;
    // Slots are handed out in order, 1000/rate ms apart; a caller waits for its own slot.
    const at = this.now();
    const slot = Math.max(at, this.nextSlot);
    this.nextSlot = slot + 1000 / rate;
    if (slot > at) await this.sleep(slot - at);
  }

  /**
   * fetch with the retry policy: 429 and 5xx answers and network failures (a body cut off or
   * too slow included) are tried again. A redirect is refused, not followed (the token request
   * would re-post the client secret to wherever it points); a body over maxBodyBytes and a
   * request that cannot be built are refused at once.
   */
  private async send(method: string, url: string, headers: Record<string, string>, body: string | undefined, what: string): Promise<TenantResponse> {
    let refused = false;
    for (let attempt = 0; ; attempt++) {
      if (url !== this.tokenUrl) {
        await this.admit(refused);
        this.counters.requests++;
      }
      const last = attempt >= this.settings.retries;
      let failure: unknown = null;
      let response: Response | null = null;
      try {
        // The time limit runs on into the body: the signal aborts a read that is still going.
        response = await this.fetchImpl(url, { method, headers, redirect: 'manual', ...(body !== undefined ? { body } : {}), signal: AbortSignal.timeout(this.settings.timeoutMs) });
        if (isRedirect(response.status)) this.redirectError(response, url, what);
        if (!retryable(response.status) || last) {
          return { status: response.status, headers: response.headers, body: await readBody(response, url, this.settings.maxBodyBytes, retryable(response.status)) };
        }
      } catch (error) {
        if (isTransformsError(error)) throw error;
        if (!isNetworkFailure(error)) {
          // Not the network's fault, and the same on every attempt; its message may quote a header value.
          throw codedError('TENANT_NETWORK', `${what} to ${new URL(url).origin} could not be sent: the request is malformed (a header value or the URL)`, { details: { url } });
        }
        failure = error;
      }
      if (failure !== null && last) {
        throw codedError('TENANT_NETWORK', `${what} to ${new URL(url).origin} failed after ${attempt + 1} attempt(s): ${failureReason(failure)}`, { cause: failure, details: { url } });
      }
      const wait = failure === null && response !== null ? retryAfterMs(response.headers.get('retry-after'), this.now()) : null;
      if (failure === null) await response?.body?.cancel().catch(() => undefined);
      this.counters.retries++;
      const delay = Math.min(this.settings.maxRetryDelayMs, wait ?? this.backoff(attempt));
      // A 429 with Retry-After speaks for the whole client: the other requests wait as well.
      refused = failure === null && response?.status === 429 && wait !== null;
      if (refused) this.pausedUntil = Math.max(this.pausedUntil, this.now() + delay);
      await this.sleep(delay);
    }
  }

  private redirectError(response: Response, url: string, what: string): never {
    void response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    let target = 'elsewhere';
    try {
      if (location !== null) target = new URL(location, url).origin;
    } catch {
      // An unreadable Location says nothing more.
    }
    throw codedError('TENANT_REDIRECT', `${what} to ${new URL(url).origin} was answered ${response.status}, a redirect to ${target}: no request is sent again elsewhere; configure the URL the tenant answers on`, {
      details: { status: response.status, url, location: target },
    });
  }

  /** Exponential backoff with equal jitter: between half and all of base·2ⁿ. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.settings.maxRetryDelayMs, this.settings.retryDelayMs * 2 ** attempt);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  private httpError(method: string, url: string, response: TenantResponse): never {
    const { pathname } = new URL(url);
    throw codedError('TENANT_HTTP', `${method} ${pathname} answered ${response.status}: ${errorText(response.body, 'no error text')}`, {
      details: { status: response.status, method, path: pathname, body: response.body },
    });
  }

  /**
   * Every record of a collection, page by page (limit ≤ 250, offset in records; the last
   * page is the first shorter than the limit).
   *
   * With `ahead`, the first page also asks for the collection's size (`count=true`, answered in
   * X-Total-Count) and the pages it implies are requested up to `ahead` at a time instead of one
   * after the other, still handed out in order: a long listing waits for one round trip per
   * `ahead` pages. Past the count (records added meanwhile), or without one, paging goes on one
   * page at a time.
   */
  list<T = Record<string, unknown>>(path: string, query: Query = {}, pageSize = LIST_PAGE_MAX, options: { ahead?: number } = {}): AsyncGenerator<T[], void, undefined> {
    return listPages<T>(this, path, query, pageSize, options.ahead ?? 1);
  }

  /**
   * Every hit of a search: sorted by `sortField`, each page continuing after the last
   * hit's value of it (searchAfter), so paging goes past the 10,000-record offset cap.
   * `after` continues an earlier walk (a resumed copy); `queryResultFilter` keeps only some members of each hit.
   */
  search<T extends Record<string, unknown>>(index: string, query: string, sortField: string, pageSize = LIST_PAGE_MAX, options: SearchWalk = {}): AsyncGenerator<T[], void, undefined> {
    return searchPages<T>(this, index, query, sortField, pageSize, options);
  }
}

export function isTenantError(error: unknown): error is TransformsError {
  return error instanceof TransformsError && error.code.startsWith('TENANT_');
}
