// One log line per request on every listener, in place of Fastify's two ("incoming request",
// "request completed"): method, URL, status and time, at info (< 400), warn (4xx) or error
// (5xx); a failed request's line also names the error code, detailCode and trackingId of its
// body (plugins/errors.ts). Credentials never reach the log: query parameters that carry them
// are redacted (RFC 6749 §2.3.1 allows client_secret in the request, and the token endpoint
// accepts it in the query string), headers and bodies are not logged at all.

import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';

/** Query parameters whose value is a credential or a grant (case-insensitive names). */
export const CREDENTIAL_PARAMETERS: ReadonlySet<string> = new Set([
  'client_secret', 'password', 'refresh_token', 'code', 'code_verifier', 'token', 'access_token', 'id_token',
  'assertion', 'client_assertion', 'secret', 'api_key', 'apikey', 'key',
]);

export const REDACTED = '[REDACTED]';

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** The URL with the values of credential parameters replaced by [REDACTED]. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = pair.slice(0, eq);
      return CREDENTIAL_PARAMETERS.has(decodeName(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

export interface FailureLog {
  code: string;
  detailCode: string;
  trackingId: string;
  error: string;
}

const failures = new WeakMap<FastifyRequest, FailureLog>();

/** Called by the error handler: the request's log line names the failure. */
export function noteFailure(request: FastifyRequest, failure: FailureLog): void {
  failures.set(request, failure);
}

type Level = 'error' | 'warn' | 'info';

/** Whether a line at `level` is written; a logger that cannot say (not pino) is asked to write it. */
function enabled(log: FastifyBaseLogger, level: Level): boolean {
  const check = (log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return typeof check !== 'function' || check.call(log, level);
}

/**
 * Replaces Fastify's request logging (the listener must be created with disableRequestLogging).
 * Without a logger there is no hook at all; with one, a line is built only when its level is
 * written, so that a listener logging warnings only spends nothing on its successful requests.
 */
export function installRequestLog(app: FastifyInstance, logger: boolean): void {
  if (!logger) return;
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const level: Level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    if (enabled(request.log, level)) {
      const url = redactUrl(request.url);
      const ms = Math.round(reply.elapsedTime * 10) / 10;
      const failure = failures.get(request);
      const line = { method: request.method, url, statusCode: status, responseTime: ms, ...failure };
      request.log[level](line, `${request.method} ${url} ${status} ${ms} ms`);
    }
    done();
  });
}
