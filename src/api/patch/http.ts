// The HTTP side of partial and full updates
// (https://developer.sailpoint.com/docs/api/patch-requests): the JSON Patch media type a PATCH must
// carry (415 otherwise), and PUT's rule for immutable fields.

import type { FastifyRequest } from 'fastify';
import { codedError } from '../../errors/index.js';
import { jsonEqual } from './apply.js';
import { parsePointer, patchError } from './pointer.js';

export const JSON_PATCH_MEDIA_TYPE = 'application/json-patch+json';

/** 415 unless the request says Content-Type: application/json-patch+json. */
export function requirePatchContentType(request: Pick<FastifyRequest, 'headers'>): void {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== JSON_PATCH_MEDIA_TYPE) {
    throw codedError('API_UNSUPPORTED_MEDIA_TYPE', `PATCH needs Content-Type: ${JSON_PATCH_MEDIA_TYPE}${type === '' ? '' : ` (got ${type})`}.`, {
      details: { causes: [`Content-Type must be ${JSON_PATCH_MEDIA_TYPE}`] },
    });
  }
}

/**
 * The operations of a PATCH request: the right media type (else 415) and a non-empty array
 * ("A request has one or more operations"; else 400).
 */
export function patchOperations(request: Pick<FastifyRequest, 'headers' | 'body'>): unknown[] {
  requirePatchContentType(request);
  const body = request.body;
  if (!Array.isArray(body)) throw patchError('PATCH_NOT_ARRAY', 'the body must be a JSON array of operations', undefined);
  if (body.length === 0) throw patchError('PATCH_EMPTY', 'the body must hold at least one operation', undefined);
  return body;
}

/**
 * A full replacement (PUT) of `current` by `body`: immutable top-level members may be omitted
 * (they keep their value) or repeated unchanged; a different value is a 400, as for PATCH.
 */
export function checkReplacement(current: Record<string, unknown>, body: Record<string, unknown>, immutable: readonly string[]): Record<string, unknown> {
  const next: Record<string, unknown> = { ...body };
  for (const pointer of immutable) {
    const tokens = parsePointer(pointer, undefined, 'path');
    if (tokens.length !== 1) throw new Error(`immutable PUT members are top-level, not ${pointer}`);
    const key = tokens[0]!;
    const has = Object.prototype.hasOwnProperty.call(body, key);
    if (has && !jsonEqual(body[key], current[key])) {
      throw codedError('PATCH_IMMUTABLE', `${key} is immutable and cannot be modified.`, { path: pointer, details: { causes: [`${pointer} is immutable`] } });
    }
    if (Object.prototype.hasOwnProperty.call(current, key)) next[key] = current[key];
  }
  return next;
}
