// Limits on the JSON a request may send and the server may store (SECURITY.md "Limits"): depth
// of nesting and size. SQLite's JSON functions refuse text nested deeper than 1000 levels, so a
// document stored deeper would make every listing that sorts or filters on a JSON field fail;
// recursive code would overflow the stack long before. Checked (json/depth.ts) for every
// body and every document a change produces, with the JSON Pointer of the first value too deep.

import { codedError } from '../errors/index.js';
import { checkJsonDepth } from '../json/depth.js';

export { checkJsonDepth } from '../json/depth.js';

export interface JsonLimits {
  readonly maxJsonDepth: number;
  readonly maxBodyBytes: number;
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
