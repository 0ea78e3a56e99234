// Canonical JSON (keys sorted at every level): the compile cache key, so that two transforms
// that differ only in key order share one compiled closure. It is also the first walk of a
// document the engine has not seen, so it refuses a document nested deeper than JSON_NESTING
// allows (COMPILE_TOO_DEEP with the pointer) before anything recursive (the schema validator,
// compile) could exhaust the stack on it.

import { codedError, escapePointerToken, isTransformsError, type TransformsError } from '../errors/index.js';

/**
 * How deeply the JSON of a transform may nest, given maxDepth (nested transforms): a transform
 * level takes at most four JSON levels (node, attributes, a list, an object literal), and the
 * margin covers the values inside the deepest transform.
 */
export function jsonNestingLimit(maxDepth: number): number {
  return 4 * maxDepth + 16;
}

function tooDeep(maxNesting: number): TransformsError {
  return codedError('COMPILE_TOO_DEEP', `the transform's JSON is nested deeper than ${maxNesting} levels`, { path: '', details: { limit: 'maxDepth', maxNesting } });
}

/** Prefix the pointer of a COMPILE_TOO_DEEP error with the token of the level it came through. */
function through(error: unknown, token: string | number): never {
  if (isTransformsError(error) && error.code === 'COMPILE_TOO_DEEP') error.path = '/' + escapePointerToken(token) + (error.path ?? '');
  throw error;
}

export function canonicalJson(value: unknown, maxNesting = Infinity): string {
  return canonical(value, maxNesting, maxNesting);
}

function canonical(value: unknown, left: number, max: number): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (left <= 0) throw tooDeep(max);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      try {
        out += canonical(value[i], left - 1, max);
      } catch (error) {
        through(error, i);
      }
    }
    return out + ']';
  }
  const keys = Object.keys(value).sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = (value as Record<string, unknown>)[k];
    if (v === undefined) continue;
    if (out.length > 1) out += ',';
    try {
      out += JSON.stringify(k) + ':' + canonical(v, left - 1, max);
    } catch (error) {
      through(error, k);
    }
  }
  return out + '}';
}

/** The same depth check without building the key (compiles that skip the cache). */
export function checkNesting(root: unknown, maxNesting: number): void {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value: root, depth: 0, path: '' }];
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= maxNesting) {
      const error = tooDeep(maxNesting);
      error.path = path;
      throw error;
    }
    for (const [k, v] of Object.entries(value)) stack.push({ value: v, depth: depth + 1, path: path + '/' + escapePointerToken(k) });
  }
}
