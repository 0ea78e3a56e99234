// What the tenant client reads of an answer, bounded: the body (at most maxBodyBytes, refused
// from its Content-Length before a byte is read when it says more), the platform error text, and
// which failures are the network's (tried again) rather than a request that cannot be sent.

import { codedError } from '../../errors/index.js';
import { MAX_JSON_DEPTH, checkJsonDepth } from '../../json/depth.js';

/** The platform error body's first message (messages[0].text), an OAuth error_description, or the status text. */
export function errorText(body: unknown, fallback: string): string {
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

export const retryable = (status: number): boolean => status === 429 || status >= 500;

/** A redirect status: the client follows none (docs/decisions.md, "The tenant client follows no redirect"). */
export const isRedirect = (status: number): boolean => status >= 300 && status <= 399 && status !== 304;

/**
 * Whether fetch failed on the network (refused, reset, cut off mid-body, timed out), which is
 * worth another attempt, rather than refusing to build the request (a header value with CR or
 * LF, a URL with credentials), which fails the same way every time. Node's fetch reports network
 * failures as `TypeError('fetch failed')` with a cause, a body cut off as `TypeError('terminated')`,
 * and the time limit as a TimeoutError or AbortError; a request it cannot build is a TypeError
 * with neither, whose message quotes the offending value.
 */
export function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return true;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return true;
  if (!(error instanceof TypeError)) return true;
  return error.message === 'fetch failed' || error.message === 'terminated' || error.cause !== undefined;
}

/** Why a network failure happened, in words that quote nothing of the request. */
export function failureReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'no complete answer within the time limit';
  const cause = error.cause;
  if (cause instanceof Error) return cause.message;
  return error.message;
}

function tooLarge(url: string, max: number): never {
  throw codedError('TENANT_LIMIT', `${new URL(url).pathname} answered more than ${max} bytes (maxBodyBytes)`, { details: { limit: 'maxBodyBytes', max, path: new URL(url).pathname } });
}

/** The body as text, read up to `max` bytes; more is TENANT_LIMIT and the rest is not read. */
export async function readBoundedText(response: Response, url: string, max: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel().catch(() => undefined);
    tooLarge(url, max);
  }
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      tooLarge(url, max);
    }
    chunks.push(value);
  }
  // As Response.text() decodes: UTF-8, a leading byte-order mark dropped.
  return new TextDecoder().decode(Buffer.concat(chunks, size));
}

/** The body as JSON (null when empty); text that is not JSON is kept as text for errors, else TENANT_RESPONSE. */
export async function readBody(response: Response, url: string, max: number, lenient = false): Promise<unknown> {
  const text = await readBoundedText(response, url, max);
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

/** What a JSON value is, in a message: null, an array, or its typeof. */
const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);

/**
 * A page of a listing or a search: a JSON array whose every element is a record (a JSON object),
 * else TENANT_RESPONSE with the JSON Pointer of the first element that is not one. Everything
 * downstream reads a record's members (a hit's sort value, a source's name, an account's
 * attributes): a null or a number among them would fail there as an uncoded TypeError.
 */
export function expectRecords<T>(body: unknown, path: string): T[] {
  if (!Array.isArray(body)) throw codedError('TENANT_RESPONSE', `${path} answered with ${body === null ? 'no body' : typeof body} where a JSON array was expected`, { details: { path } });
  const at = body.findIndex((record) => record === null || typeof record !== 'object' || Array.isArray(record));
  if (at >= 0) {
    throw codedError('TENANT_RESPONSE', `${path} answered ${kindOf(body[at])} at /${at} where a record (a JSON object) was expected`, { details: { path, pointer: `/${at}` } });
  }
  return body as T[];
}
