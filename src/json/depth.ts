// How deeply JSON may nest, checked one way wherever JSON is read or written. JSON.parse reads any
// depth, but JSON.stringify and every recursive walk after it (canonical forms, comparisons,
// pseudonymisation, schema validation) overflow the stack somewhere past a few thousand levels, as
// "Maximum call stack size exceeded" — an uncoded crash. So every reader checks the depth of what
// it parsed, iteratively, and reports JSON_TOO_DEEP with what was read and the JSON Pointer of the
// first value too deep. Stricter limits of their own (a request body, a transform) sit below it.

import { codedError, escapePointerToken, type TransformsError } from '../errors/index.js';
import { formatPosition, positionOf } from './positions.js';

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

/** The longest pointer a message quotes whole; a longer one (a thousand levels of `/a`) keeps its two ends. */
const MESSAGE_POINTER = 120;

/** A pointer for a message: whole when short, otherwise its start and end around an ellipsis (the error's path holds it whole). */
export function messagePointer(pointer: string): string {
  if (pointer === '') return '/';
  if (pointer.length <= MESSAGE_POINTER) return pointer;
  const half = MESSAGE_POINTER / 2;
  return `${pointer.slice(0, half)}…${pointer.slice(-half)}`;
}

/**
 * The offset in a JSON text of the first `[` or `{` nested deeper than `limit` (the root container
 * is level 1), outside strings; -1 when none is. A scan, so any depth is found without recursion.
 */
function tooDeepOffset(text: string, limit: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

function tooDeep(where: string, pointer: string, limit: number, text: string | undefined): TransformsError {
  const at = messagePointer(pointer);
  const details = { limit, causes: [`${at}: nested deeper than ${limit} levels`] };
  const offset = text === undefined ? -1 : tooDeepOffset(text, limit);
  if (offset < 0) return codedError('JSON_TOO_DEEP', `${where} nests deeper than ${limit} levels at ${at}`, { path: pointer, details });
  const position = positionOf(text!, offset);
  return codedError('JSON_TOO_DEEP', `${formatPosition(where, position)}: the file nests deeper than ${limit} levels at ${at}`, { path: pointer, details: { ...details, file: where, line: position.line, column: position.column } });
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
 * names the value in the message ("the request body", a file's path); with the file's `text`, the
 * message starts with `file:line:column` of the first container too deep.
 */
export function checkJsonDepth(value: unknown, maxDepth: number, where: string, text?: string): void {
  if (value === null || typeof value !== 'object') return;
  // Records are checked by the million: a walk that allocates nothing answers first, and only a
  // value it finds too deep is walked again, breadth first, for the pointer to report.
  if (!deeperThan(value, 1, maxDepth)) return;
  const frames: Frame[] = [{ value, depth: 1, parent: -1, key: '' }];
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i]!;
    if (f.depth > maxDepth) throw tooDeep(where, pointerOf(frames, i), maxDepth, text);
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
