// Error responses as every operation of https://developer.sailpoint.com/docs/api/v3/ documents them:
// every 4xx and 5xx carries the platform's body {detailCode, trackingId,
// messages:[{locale, localeOrigin, text}], causes}, and the trackingId is written in the request's
// log line (request-log.ts). One member is ours: `code`, the error code of docs/errors.md, so that
// a client branches on it rather than on the message text (the platform's detailCode only names
// the status). Token-endpoint errors also carry RFC 6749 §5.2 `error` and
// `error_description`, with Cache-Control: no-store.

import { STATUS_CODES as HTTP_STATUS } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isTransformsError, type ErrorCode } from '../../errors/index.js';
import { newTrackingId } from '../../errors/tracking-id.js';
import { noteFailure } from '../request-log.js';

export interface ErrorMessage {
  locale: string;
  localeOrigin: 'DEFAULT' | 'REQUEST';
  text: string;
}

export interface PlatformErrorBody {
  detailCode: string;
  trackingId: string;
  messages: ErrorMessage[];
  causes: ErrorMessage[];
  /** Not in the platform's body: the error code of the catalogue (docs/errors.md). */
  code: ErrorCode;
  error?: string;
  error_description?: string;
}

/** The platform's detail codes per status. */
const DETAIL_CODES: Record<number, string> = {
  400: '400.1 Bad Request Content',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not found',
  405: '405 Method Not Allowed',
  413: '413 Payload Too Large',
  408: '408 Request Timeout',
  414: '414 URI Too Long',
  415: '415 Unsupported Media Type',
  431: '431 Request Header Fields Too Large',
  429: '429 Too Many Requests',
  500: '500.0 Internal Fault',
};

/** RFC 6749 §5.2 / §4.1.2.1 names of the OAuth error codes. */
export const OAUTH_ERRORS: Readonly<Record<string, string>> = {
  API_OAUTH_INVALID_REQUEST: 'invalid_request',
  API_OAUTH_INVALID_CLIENT: 'invalid_client',
  API_OAUTH_INVALID_GRANT: 'invalid_grant',
  API_OAUTH_UNAUTHORIZED_CLIENT: 'unauthorized_client',
  API_OAUTH_UNSUPPORTED_GRANT_TYPE: 'unsupported_grant_type',
  API_OAUTH_UNSUPPORTED_RESPONSE_TYPE: 'unsupported_response_type',
  API_OAUTH_INVALID_SCOPE: 'invalid_scope',
};

const message = (text: string): ErrorMessage => ({ locale: 'en-US', localeOrigin: 'DEFAULT', text });

/** A 32-hex tracking id, the platform's format. */
export function errorBody(status: number, code: ErrorCode, text: string, causes: string[] = [], trackingId = newTrackingId()): PlatformErrorBody {
  return {
    detailCode: DETAIL_CODES[status] ?? `${status}`,
    trackingId,
    messages: [message(text)],
    causes: causes.map(message),
    code,
  };
}

interface Classified {
  status: number;
  code: ErrorCode;
  text: string;
  causes: string[];
  headers: Record<string, string>;
}

/** Catalogue codes for errors raised by Fastify itself, its plugins or Node's HTTP parser, by status. */
const STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  400: 'API_BAD_REQUEST',
  401: 'API_UNAUTHORIZED',
  403: 'API_FORBIDDEN',
  404: 'API_NOT_FOUND',
  405: 'API_METHOD_NOT_ALLOWED',
  408: 'API_REQUEST_TIMEOUT',
  413: 'API_PAYLOAD_TOO_LARGE',
  414: 'API_URI_TOO_LONG',
  415: 'API_UNSUPPORTED_MEDIA_TYPE',
  429: 'API_TOO_MANY_REQUESTS',
  431: 'API_HEADERS_TOO_LARGE',
};

const REALM = 'realm="identity-transforms"';

function classify(err: FastifyError | Error): Classified {
  if (isTransformsError(err)) {
    const headers: Record<string, string> = {};
    if (err.code === 'API_UNAUTHORIZED') headers['www-authenticate'] = `Bearer ${REALM}, error="invalid_token"`;
    if (err.code === 'API_OAUTH_INVALID_CLIENT') headers['www-authenticate'] = `Basic ${REALM}`;
    if (err.code.startsWith('API_OAUTH_')) {
      headers['cache-control'] = 'no-store';
      headers.pragma = 'no-cache';
    }
    const causes = Array.isArray(err.details?.causes) ? (err.details.causes as string[]) : [];
    const status = err.status;
    // Internal failures keep their message in the log only.
    const text = status >= 500 ? 'An internal fault occurred.' : err.message;
    return { status, code: err.code, text, causes, headers };
  }
  const fe = err as FastifyError;
  if (fe.validation) {
    const causes = fe.validation.map((v) => `${fe.validationContext ?? 'request'}${v.instancePath} ${v.message ?? 'is invalid'}`);
    return { status: 400, code: 'API_BAD_REQUEST', text: 'The request does not match the schema of this endpoint.', causes, headers: {} };
  }
  const status = typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 600 ? fe.statusCode : 500;
  if (status < 500) return { status, code: STATUS_CODES[status] ?? 'API_BAD_REQUEST', text: fe.message, causes: [], headers: {} };
  return { status, code: 'API_INTERNAL', text: 'An internal fault occurred.', causes: [], headers: {} };
}

/**
 * Send the platform error body for `err`, logging it with its trackingId. With `html`, the body is
 * that page instead (the login listener's pages for a person); status and headers stay the same.
 */
export function sendError(
  err: FastifyError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
  html?: (body: PlatformErrorBody, status: number) => string,
): FastifyReply {
  const c = classify(err);
  const body = errorBody(c.status, c.code, c.text, c.causes);
  if (c.code.startsWith('API_OAUTH_')) {
    body.error = OAUTH_ERRORS[c.code];
    body.error_description = c.text;
  }
  // The request's one log line (request-log.ts) names the failure; an internal one is also
  // logged now, with the error and its stack.
  noteFailure(request, { code: c.code, detailCode: body.detailCode, trackingId: body.trackingId, error: c.text });
  if (c.status >= 500) request.log.error({ trackingId: body.trackingId, detailCode: body.detailCode, code: c.code, statusCode: c.status, err }, c.text);
  reply.code(c.status).headers(c.headers);
  if (html !== undefined) return reply.type('text/html; charset=utf-8').send(html(body, c.status));
  return reply.type('application/json; charset=utf-8').send(body);
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (headers over the size limit,
 * a malformed request line, a request that took too long): the answer still carries the platform
 * error body. Bound to the listener, as Fastify's `clientErrorHandler` is.
 */
export function clientErrorHandler(this: { log: FastifyBaseLogger }, err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const text = status === 431 ? 'The request headers are larger than the server accepts.' : status === 408 ? 'The request took too long to arrive.' : 'The request is not valid HTTP.';
  const body = JSON.stringify(errorBody(status, STATUS_CODES[status]!, text));
  this.log.warn({ code: err.code, statusCode: status, trackingId: JSON.parse(body).trackingId }, text);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${HTTP_STATUS[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/** Fastify's own routing errors (a URL that does not decode, a path parameter over its length). */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(err, request, reply);
}

/** Installs the error and not-found handlers on the instance it is registered on. */
async function errorsPlugin(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((err, request, reply) => sendError(err as FastifyError, request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendError(Object.assign(new Error(`No route ${request.method} ${request.url.split('?')[0]}`), { statusCode: 404 }), request, reply),
  );
}

/** Not encapsulated: the handlers apply to the whole listener. */
export const errors = Object.assign(errorsPlugin, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'errors',
});
