// How the API reads a JSON body (application/json, and application/json-patch+json through
// patch/body.ts): Fastify's parser — strict JSON, a key that would set an object's prototype
// refused — behind two checks of what the body says of itself. The charset check is the token
// endpoint's for its form bodies too (plugins/oauth.ts).
//
// Charset: JSON exchanged between systems is UTF-8 (RFC 8259 section 8.1) and the server decodes
// every body as UTF-8, so a body that declares another charset (`charset=utf-16`) would be read as
// something it is not: 415 API_UNSUPPORTED_MEDIA_TYPE. The parameter's name and value are
// case-insensitive and the value may be quoted (RFC 9110 section 8.3.1); `content-type` parses it.
//
// Prototype keys: Fastify refuses a `__proto__` key (or `constructor` holding `prototype`) as
// "Body is not valid JSON"; the body is valid JSON, so the answer says which key is refused and
// where, as a JSON Pointer.

import contentType from 'content-type';
import type { FastifyRequest } from 'fastify';
import { codedError, escapePointerToken } from '../errors/index.js';

export type BodyParser = (request: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void) => void;

/** The charset a Content-Type header declares, lower-cased; undefined when it declares none. */
function declaredCharset(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  try {
    return contentType.parse(header).parameters.charset?.toLowerCase();
  } catch {
    return undefined; // a malformed header is the media-type check's to refuse, not this one's
  }
}

/**
 * 415 unless the body is UTF-8: no charset, or utf-8 (utf8 is the common misspelling). `what` names
 * the body in the message: JSON, or the token endpoint's form (oauth.ts), whose percent-escapes
 * are UTF-8 too (https://url.spec.whatwg.org/#application/x-www-form-urlencoded).
 */
export function charsetError(request: FastifyRequest, what = 'JSON'): Error | null {
  const charset = declaredCharset(request.headers['content-type']);
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return null;
  const message = `The body must be UTF-8 ${what}; Content-Type declares charset=${charset.slice(0, 40)}.`;
  return codedError('API_UNSUPPORTED_MEDIA_TYPE', message, { details: { causes: [message] } });
}

/** The pointer of the first key that would set a prototype (breadth first), or undefined. */
function prototypeKey(value: unknown): { pointer: string; key: string } | undefined {
  const queue: [unknown, string][] = [[value, '']];
  for (let i = 0; i < queue.length; i++) {
    const [v, at] = queue[i]!;
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      v.forEach((c, k) => queue.push([c, `${at}/${k}`]));
      continue;
    }
    const o = v as Record<string, unknown>;
    if (Object.prototype.hasOwnProperty.call(o, '__proto__')) return { pointer: `${at}/__proto__`, key: '__proto__' };
    const ctor = Object.prototype.hasOwnProperty.call(o, 'constructor') ? o.constructor : undefined;
    if (ctor !== null && typeof ctor === 'object' && Object.prototype.hasOwnProperty.call(ctor, 'prototype')) return { pointer: `${at}/constructor/prototype`, key: 'constructor.prototype' };
    for (const k of Object.keys(o)) queue.push([o[k], `${at}/${escapePointerToken(k)}`]);
  }
  return undefined;
}

/** Why Fastify's parser refused `body`: a prototype key, said as such, or its own error. */
function explain(err: Error, body: string): Error {
  let value: unknown;
  try {
    value = JSON.parse(body); // creates "__proto__" as an own key, which is what is looked for
  } catch {
    return err; // not JSON at all: the parser's answer stands
  }
  const found = prototypeKey(value);
  if (found === undefined) return err;
  const message = `The body holds a key named ${found.key} at ${found.pointer}: refused, as it would set an object's prototype.`;
  return codedError('API_BAD_REQUEST', message, { path: found.pointer, details: { causes: [`${found.pointer}: key ${found.key} refused`] } });
}

/** Fastify's JSON parser `json`, behind the charset check and with prototype keys explained. */
export function jsonBodyParser(json: BodyParser): BodyParser {
  return (request, body, done) => {
    const charset = charsetError(request);
    if (charset !== null) return done(charset);
    json(request, body, (err, value) => (err !== null ? done(explain(err, body)) : done(null, value)));
  };
}
