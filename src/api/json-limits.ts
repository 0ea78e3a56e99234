// Limits on the JSON a request may send and the server may store (SECURITY.md "Limits"): depth
// of nesting and size. SQLite's JSON functions refuse text nested deeper than 1000 levels, so a
// document stored deeper would make every listing that sorts or filters on a JSON field fail;
// recursive code would overflow the stack long before. Checked iteratively, here, for every body
// and every document a change produces, with the JSON Pointer of the first value too deep.

import { codedError, escapePointerToken, type TransformsError } from '../errors/index.js';

export interface JsonLimits {
  readonly maxJsonDepth: number;
  readonly maxBodyBytes: number;
}

interface Frame {
  readonly value: unknown;
  readonly depth: number;
  readonly parent: number;
  readonly key: string;
}

/** The pointer of frame `i`, rebuilt from its parents (only when reporting). */
function pointerOf(frames: readonly Frame[], i: number): string {
  const tokens: string[] = [];
  for (let k = i; k > 0; k = frames[k]!.parent) tokens.push(escapePointerToken(frames[k]!.key));
  return tokens.reverse().map((t) => `/${t}`).join('');
}

function tooDeep(where: string, pointer: string, limit: number): TransformsError {
  const message = `${where} nests deeper than ${limit} levels at ${pointer || '/'}`;
  return codedError('JSON_TOO_DEEP', message, { path: pointer, details: { limit, causes: [`${pointer || '/'}: nested deeper than ${limit} levels`] } });
}

/**
 * Throws 400 JSON_TOO_DEEP when `value` nests objects and arrays deeper than `maxDepth` (the
 * root container is level 1). `where` names the value in the message ("the request body").
 */
export function checkJsonDepth(value: unknown, maxDepth: number, where: string): void {
  if (value === null || typeof value !== 'object') return;
  const frames: Frame[] = [{ value, depth: 1, parent: -1, key: '' }];
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i]!;
    if (f.depth > maxDepth) throw tooDeep(where, pointerOf(frames, i), maxDepth);
    const v = f.value as Record<string, unknown> | unknown[];
    if (Array.isArray(v)) {
      for (let k = 0; k < v.length; k++) {
        const c = v[k];
        if (c !== null && typeof c === 'object') frames.push({ value: c, depth: f.depth + 1, parent: i, key: String(k) });
      }
    } else {
      for (const k of Object.keys(v)) {
        const c = v[k];
        if (c !== null && typeof c === 'object') frames.push({ value: c, depth: f.depth + 1, parent: i, key: k });
      }
    }
  }
}

/**
 * A document about to be stored: depth as above, and its JSON text at most `maxBodyBytes`
 * (400 DOCUMENT_TOO_LARGE), so that nothing stored is larger than a request could send.
 */
export function checkStoredJson(doc: unknown, limits: JsonLimits, what: string): void {
  checkJsonDepth(doc, limits.maxJsonDepth, what);
  const bytes = Buffer.byteLength(JSON.stringify(doc));
  if (bytes > limits.maxBodyBytes) {
    const message = `${what} would be ${bytes} bytes of JSON; the limit is ${limits.maxBodyBytes}`;
    throw codedError('DOCUMENT_TOO_LARGE', message, { path: '', details: { limit: limits.maxBodyBytes, causes: [message] } });
  }
}
