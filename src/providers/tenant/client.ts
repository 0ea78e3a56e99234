// The HTTP side of the tenant-backed providers (https://developer.sailpoint.com/docs/api/authentication,
// https://developer.sailpoint.com/docs/api/standard-collection-parameters, https://developer.sailpoint.com/docs/api/v3/search-post,
// https://developer.sailpoint.com/docs/api/rate-limit): a client-credentials token cached and
// renewed before it expires, every call with
// `Authorization: Bearer`, a concurrency limit, retries with backoff on 429, 5xx and network
// failures (honouring Retry-After), limit/offset paging of collections and searchAfter paging
// of search.
//
// Written on Node's fetch rather than the official SDK (`sailpoint-api-client`), whose
// Configuration fetches one token in its constructor and never renews it, and whose every call
// registers axios-retry's interceptors on the axios instance once more (a refresh of a million
// identities would pile up millions of them); see docs/decisions.md "Tenant-backed providers".

import { codedError, TransformsError } from '../../errors/index.js';
import { MAX_JSON_DEPTH, checkJsonDepth } from '../../json/depth.js';

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
  /** Time limit of one attempt, in ms. Default 30,000. */
  timeoutMs?: number;
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

type Query = Record<string, string | number | boolean | undefined>;

const CLIENT_DEFAULTS = {
  concurrency: 8,
  retries: 5,
  retryDelayMs: 250,
  maxRetryDelayMs: 30_000,
  timeoutMs: 30_000,
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

/** The platform error body's first message (messages[0].text), an OAuth error_description, or the status text. */
function errorText(body: unknown, fallback: string): string {
  if (body !== null && typeof body === 'object') {
    const b = body as { messages?: { text?: unknown }[]; error_description?: unknown; error?: unknown; detailCode?: unknown };
    const text = Array.isArray(b.messages) ? b.messages.find((m) => typeof m?.text === 'string')?.text : undefined;
    if (typeof text === 'string') return text;
    if (typeof b.error_description === 'string') return b.error_description;
    if (typeof b.error === 'string') return b.error;
    if (typeof b.detailCode === 'string') return b.detailCode;
  }
  return fallback;
}

/** Retry-After as seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null || header.trim() === '') return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

const retryable = (status: number): boolean => status === 429 || status >= 500;

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

  /** fetch with the retry policy: 429 and 5xx answers and network failures are tried again. */
  private async send(method: string, url: string, headers: Record<string, string>, body: string | undefined, what: string): Promise<TenantResponse> {
    let refused = false;
    for (let attempt = 0; ; attempt++) {
      let failure: unknown = null;
      let response: Response | null = null;
      if (url !== this.tokenUrl) {
        await this.admit(refused);
        this.counters.requests++;
      }
      try {
        response = await this.fetchImpl(url, { method, headers, ...(body !== undefined ? { body } : {}), signal: AbortSignal.timeout(this.settings.timeoutMs) });
      } catch (error) {
        failure = error;
      }
      if (response !== null && !retryable(response.status)) return { status: response.status, headers: response.headers, body: await this.readBody(response, url) };
      if (attempt >= this.settings.retries) {
        if (response !== null) return { status: response.status, headers: response.headers, body: await this.readBody(response, url, true) };
        const reason = failure instanceof Error ? (failure.cause instanceof Error ? failure.cause.message : failure.message) : String(failure);
        throw codedError('TENANT_NETWORK', `${what} to ${new URL(url).origin} failed after ${attempt + 1} attempt(s): ${reason}`, { cause: failure, details: { url } });
      }
      const wait = response !== null ? retryAfterMs(response.headers.get('retry-after'), this.now()) : null;
      if (response !== null) await response.body?.cancel().catch(() => undefined);
      this.counters.retries++;
      const delay = Math.min(this.settings.maxRetryDelayMs, wait ?? this.backoff(attempt));
      // A 429 with Retry-After speaks for the whole client: the other requests wait as well.
      refused = response?.status === 429 && wait !== null;
      if (refused) this.pausedUntil = Math.max(this.pausedUntil, this.now() + delay);
      await this.sleep(delay);
    }
  }

  /** Exponential backoff with equal jitter: between half and all of base·2ⁿ. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.settings.maxRetryDelayMs, this.settings.retryDelayMs * 2 ** attempt);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  private async readBody(response: Response, url: string, lenient = false): Promise<unknown> {
    const text = await response.text();
    if (text === '') return null;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (lenient || response.status < 200 || response.status > 299) return text;
      throw codedError('TENANT_RESPONSE', `${new URL(url).pathname} answered ${response.status} with a body that is not JSON`, { cause: error, details: { url } });
    }
    checkJsonDepth(value, MAX_JSON_DEPTH, `the answer of ${new URL(url).pathname}`);
    return value;
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
  async *list<T = Record<string, unknown>>(path: string, query: Query = {}, pageSize = LIST_PAGE_MAX, options: { ahead?: number } = {}): AsyncGenerator<T[], void, undefined> {
    const pageAt = async (offset: number, count = false): Promise<{ page: T[]; total: number | null }> => {
      const response = await this.request<unknown>('GET', path, { query: { ...query, limit: pageSize, offset, ...(count ? { count: true } : {}) } });
      const page = expectArray<T>(response.body, path);
      if (page.length > pageSize) throw codedError('TENANT_RESPONSE', `${path} answered ${page.length} records for limit=${pageSize}`, { details: { path } });
      const total = count ? Number(response.headers.get('x-total-count') ?? NaN) : NaN;
      return { page, total: Number.isSafeInteger(total) && total >= 0 ? total : null };
    };
    let offset = 0;
    const ahead = options.ahead ?? 1;
    if (ahead > 1) {
      const first = await pageAt(0, true);
      if (first.page.length > 0) yield first.page;
      if (first.page.length < pageSize) return;
      offset = pageSize;
      // The pages the count implies, at most `ahead` in flight; each settles before the listing ends.
      const inFlight: Promise<{ page: T[] }>[] = [];
      let next = offset;
      const more = () => {
        while (first.total !== null && next < first.total && inFlight.length < ahead) {
          const page = pageAt(next);
          page.catch(() => undefined);
          inFlight.push(page);
          next += pageSize;
        }
      };
      try {
        for (more(); inFlight.length > 0; more()) {
          const { page } = await inFlight.shift()!;
          if (page.length > 0) yield page;
          if (page.length < pageSize) return;
          offset += pageSize;
        }
      } finally {
        await Promise.allSettled(inFlight);
      }
    }
    for (; ; offset += pageSize) {
      const { page } = await pageAt(offset);
      if (page.length > 0) yield page;
      if (page.length < pageSize) return;
    }
  }

  /**
   * Every hit of a search: sorted by `sortField`, each page continuing after the last
   * hit's value of it (searchAfter), so paging goes past the 10,000-record offset cap.
   */
  async *search<T extends Record<string, unknown>>(
    index: string,
    query: string,
    sortField: string,
    pageSize = LIST_PAGE_MAX,
    options: { after?: unknown[]; queryResultFilter?: { includes?: string[]; excludes?: string[] } } = {},
  ): AsyncGenerator<T[], void, undefined> {
    // `after` continues an earlier walk (a resumed copy); `queryResultFilter` keeps only some members of each hit.
    let after: unknown[] | undefined = options.after;
    const extra = options.queryResultFilter ? { queryResultFilter: options.queryResultFilter } : {};
    for (;;) {
      const body = { indices: [index], query: { query }, sort: [sortField], ...extra, ...(after ? { searchAfter: after } : {}) };
      const response = await this.request<unknown>('POST', '/v3/search', { query: { limit: pageSize }, body });
      const page = expectArray<T>(response.body, '/v3/search');
      if (page.length > pageSize) throw codedError('TENANT_RESPONSE', `/v3/search answered ${page.length} hits for limit=${pageSize}`, { details: { path: '/v3/search' } });
      const last = page.length === 0 ? undefined : page[page.length - 1]![sortField];
      // A hit without its sort value, or a page that does not move on, would page forever.
      if (page.length === pageSize && (last === undefined || last === null || (after !== undefined && after[0] === last))) {
        throw codedError('TENANT_RESPONSE', `/v3/search paging does not advance: the last hit's ${sortField} is ${JSON.stringify(last ?? null)}`, { details: { path: '/v3/search' } });
      }
      if (page.length > 0) yield page;
      if (page.length < pageSize) return;
      after = [last];
    }
  }
}

function expectArray<T>(body: unknown, path: string): T[] {
  if (!Array.isArray(body)) throw codedError('TENANT_RESPONSE', `${path} answered with ${body === null ? 'no body' : typeof body} where a JSON array was expected`, { details: { path } });
  return body as T[];
}

export function isTenantError(error: unknown): error is TransformsError {
  return error instanceof TransformsError && error.code.startsWith('TENANT_');
}
