// How deeply JSON may nest, checked one way wherever JSON is read or written. JSON.parse reads any
// depth, but JSON.stringify and every recursive walk after it (canonical forms, comparisons,
// pseudonymisation, schema validation) overflow the stack somewhere past a few thousand levels, as
// "Maximum call stack size exceeded" — an uncoded crash. So every reader checks the depth of what
// it parsed, iteratively, and reports JSON_TOO_DEEP with what was read and the JSON Pointer of the
// first value too deep. Stricter limits of their own (a request body, a transform) sit below it.

import { codedError, escapePointerToken, type TransformsError } from '../errors/index.js';

/**
 * The deepest nesting of objects and arrays read or written anywhere (the root container is
 * level 1): above every stricter limit (request bodies 256, at most 900; transforms 4 × maxDepth
 * + 16), and far below the depth where recursion exhausts the stack.
 */
export const MAX_JSON_DEPTH = 1_000;

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
 * Whether `value`, at level `depth`, nests deeper than `limit`: depth first, recursing at most
 * `limit` levels (far from the stack's end), allocating nothing. `for...in` visits every own
 * enumerable key that Object.keys lists, and inherited ones too (JSON has none): it may only
 * answer true where the walk below then finds nothing too deep, never the other way round.
 */
function deeperThan(value: object, depth: number, limit: number): boolean {
  if (depth > limit) return true;
  if (Array.isArray(value)) {
    for (let k = 0; k < value.length; k++) {
      const c: unknown = value[k];
      if (c !== null && typeof c === 'object' && deeperThan(c, depth + 1, limit)) return true;
    }
    return false;
  }
  for (const k in value) {
    const c = (value as Record<string, unknown>)[k];
    if (c !== null && typeof c === 'object' && deeperThan(c, depth + 1, limit)) return true;
  }
  return false;
}

/**
 * Throws JSON_TOO_DEEP when `value` nests objects and arrays deeper than `maxDepth`. `where`
 * names the value in the message ("the request body", a file's path).
 */
export function checkJsonDepth(value: unknown, maxDepth: number, where: string): void {
  if (value === null || typeof value !== 'object') return;
  // Records are checked by the million: a walk that allocates nothing answers first, and only a
  // value it finds too deep is walked again, breadth first, for the pointer to report.
  if (!deeperThan(value, 1, maxDepth)) return;
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
