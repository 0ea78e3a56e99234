// RFC 6902 JSON Patch (https://developer.sailpoint.com/docs/api/patch-requests): add, remove,
// replace, move, copy, test, applied atomically — the input is never touched and any failing
// operation throws, so a caller that stores only the returned document changes nothing on error.
// Written here rather than taken from fast-json-patch or rfc6902 because neither passes the whole
// conformance suite (docs/decisions.md, "JSON Patch").

import { arrayIndex, formatPointer, hasOwn, isObject, parsePointer, patchError } from './pointer.js';

export type PatchOp = 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';

export interface PatchOperation {
  op: PatchOp;
  path: string;
  value?: unknown;
  from?: string;
}

export interface ApplyPatchOptions {
  /**
   * JSON Pointers of members the patch may not change (the platform's rule: "Immutable fields ...
   * cannot be modified", https://developer.sailpoint.com/docs/api/patch-requests). An operation
   * that writes at, above or below one of them is refused; `test` and the `from` of `copy` only
   * read and are allowed.
   */
  immutable?: readonly string[];
  /**
   * The most the patch may copy, in approximate bytes of JSON: the document, every operation's
   * value and every `copy`. Without it a few `copy` operations, each doubling a member, would
   * build a document of gigabytes before anything could measure it. Exceeding it is 400
   * PATCH_TOO_LARGE naming the operation. Unlimited when absent.
   */
  maxBytes?: number;
}

interface Parsed {
  op: PatchOp;
  path: string[];
  from?: string[];
  value?: unknown;
}

const OPS: ReadonlySet<string> = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/**
 * Apply `patch` (a JSON array of operations) to a copy of `document` and return the copy.
 * Throws a PATCH_* error (400, src/errors/patch.ts) with `details.operation` (the
 * failing operation's index); `path` is the pointer concerned.
 */
export function applyPatch<T>(document: T, patch: unknown, options: ApplyPatchOptions = {}): T {
  const ops = parsePatch(patch);
  const immutable = (options.immutable ?? []).map((p) => parsePointer(p, undefined, 'path'));
  ops.forEach((op, i) => checkImmutable(op, i, immutable));
  const budget = options.maxBytes === undefined ? undefined : { bytes: options.maxBytes };
  const tooLarge = (i: number | undefined) =>
    patchError('PATCH_TOO_LARGE', `the patch copies more than ${options.maxBytes} bytes of JSON`, i, i === undefined ? undefined : formatPointer(ops[i]!.path));
  let state: { root: unknown; budget: CloneBudget | undefined };
  try {
    state = { root: cloneJson(document, budget), budget };
  } catch (err) {
    if (err instanceof CloneBudgetExceeded) throw tooLarge(undefined);
    throw err;
  }
  ops.forEach((op, i) => {
    try {
      applyOne(state, op, i);
    } catch (err) {
      if (err instanceof CloneBudgetExceeded) throw tooLarge(i);
      throw err;
    }
  });
  return state.root as T;
}

/** Validate the shape of every operation before any is applied (RFC 6902 §4). */
export function parsePatch(patch: unknown): Parsed[] {
  if (!Array.isArray(patch)) throw patchError('PATCH_NOT_ARRAY', 'the body must be a JSON array of operations', undefined);
  return patch.map((raw, i): Parsed => {
    if (!isObject(raw)) throw patchError('PATCH_OPERATION_INVALID', 'an operation must be a JSON object', i);
    const op = raw.op;
    if (typeof op !== 'string' || !OPS.has(op)) {
      throw patchError('PATCH_OPERATION_INVALID', `'op' must be one of add, remove, replace, move, copy, test (got ${JSON.stringify(op) ?? 'nothing'})`, i);
    }
    if (!hasOwn(raw, 'path')) throw patchError('PATCH_OPERATION_INVALID', `'${op}' needs a 'path'`, i);
    const parsed: Parsed = { op: op as PatchOp, path: parsePointer(raw.path, i, 'path') };
    if (op === 'add' || op === 'replace' || op === 'test') {
      // Present with the value null is a value; absent is an error (RFC 6902 §4.1).
      if (!hasOwn(raw, 'value')) throw patchError('PATCH_OPERATION_INVALID', `'${op}' needs a 'value'`, i, raw.path as string);
      parsed.value = raw.value;
    }
    if (op === 'move' || op === 'copy') {
      if (!hasOwn(raw, 'from')) throw patchError('PATCH_OPERATION_INVALID', `'${op}' needs a 'from'`, i, raw.path as string);
      parsed.from = parsePointer(raw.from, i, 'from');
    }
    return parsed;
  });
}

function isPrefix(a: readonly string[], b: readonly string[]): boolean {
  return a.length <= b.length && a.every((t, k) => t === b[k]);
}

function checkImmutable(op: Parsed, index: number, immutable: readonly string[][]): void {
  if (immutable.length === 0 || op.op === 'test') return;
  const written = op.op === 'move' ? [op.path, op.from!] : [op.path];
  for (const target of written) {
    for (const fixed of immutable) {
      if (isPrefix(fixed, target) || isPrefix(target, fixed)) {
        throw patchError('PATCH_IMMUTABLE', `${formatPointer(fixed)} is immutable and cannot be modified`, index, formatPointer(target));
      }
    }
  }
}

function applyOne(state: { root: unknown; budget: CloneBudget | undefined }, op: Parsed, i: number): void {
  switch (op.op) {
    case 'add':
      state.root = add(state.root, op.path, cloneJson(op.value, state.budget), i);
      return;
    case 'remove':
      remove(state.root, op.path, i, 'PATCH_PATH_MISSING');
      return;
    case 'replace':
      if (op.path.length === 0) {
        state.root = cloneJson(op.value, state.budget);
        return;
      }
      replace(state.root, op.path, cloneJson(op.value, state.budget), i);
      return;
    case 'move': {
      const from = op.from!;
      const value = lookup(state.root, from, i, 'PATCH_FROM_MISSING');
      if (isPrefix(from, op.path) && from.length < op.path.length) {
        throw patchError('PATCH_MOVE_INTO_CHILD', `cannot move ${formatPointer(from)} into one of its own children`, i, formatPointer(op.path));
      }
      if (from.length === op.path.length && isPrefix(from, op.path)) return;
      if (from.length === 0) {
        state.root = value;
        return;
      }
      remove(state.root, from, i, 'PATCH_FROM_MISSING');
      state.root = add(state.root, op.path, value, i);
      return;
    }
    case 'copy':
      state.root = add(state.root, op.path, cloneJson(lookup(state.root, op.from!, i, 'PATCH_FROM_MISSING'), state.budget), i);
      return;
    case 'test': {
      const actual = lookup(state.root, op.path, i, 'PATCH_PATH_MISSING');
      if (!jsonEqual(actual, op.value)) {
        throw patchError('PATCH_TEST_FAILED', `test failed: the value at ${formatPointer(op.path)} is not ${JSON.stringify(op.value)}`, i, formatPointer(op.path));
      }
    }
  }
}

/** The value at `tokens`; a missing location is an error of the given reason. */
function lookup(root: unknown, tokens: readonly string[], i: number, reason: 'PATCH_PATH_MISSING' | 'PATCH_FROM_MISSING'): unknown {
  let current = root;
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k]!;
    if (Array.isArray(current)) {
      const at = arrayIndex(token);
      if (at === undefined || at >= current.length) throw missing(reason, tokens, k, i);
      current = current[at];
    } else if (isObject(current) && hasOwn(current, token)) {
      current = current[token];
    } else {
      throw missing(reason, tokens, k, i);
    }
  }
  return current;
}

function missing(reason: 'PATCH_PATH_MISSING' | 'PATCH_FROM_MISSING', tokens: readonly string[], k: number, i: number) {
  const member = reason === 'PATCH_FROM_MISSING' ? 'from' : 'path';
  return patchError(reason, `${member} ${formatPointer(tokens)} does not exist (no ${formatPointer(tokens.slice(0, k + 1))})`, i, formatPointer(tokens));
}

/** RFC 6902 §4.1: the parent must exist; missing objects are not created. Returns the new root. */
function add(root: unknown, tokens: readonly string[], value: unknown, i: number): unknown {
  if (tokens.length === 0) return value;
  const parent = lookup(root, tokens.slice(0, -1), i, 'PATCH_PATH_MISSING');
  const last = tokens.at(-1)!;
  if (Array.isArray(parent)) {
    if (last === '-') {
      parent.push(value);
      return root;
    }
    const at = arrayIndex(last);
    if (at === undefined || at > parent.length) {
      throw patchError('PATCH_INDEX_INVALID', `${formatPointer(tokens)}: '${last}' is not an index between 0 and ${parent.length} or '-'`, i, formatPointer(tokens));
    }
    parent.splice(at, 0, value);
  } else if (isObject(parent)) {
    parent[last] = value;
  } else {
    throw patchError('PATCH_PATH_MISSING', `${formatPointer(tokens.slice(0, -1))} is not an object or array`, i, formatPointer(tokens));
  }
  return root;
}

function remove(root: unknown, tokens: readonly string[], i: number, reason: 'PATCH_PATH_MISSING' | 'PATCH_FROM_MISSING'): void {
  if (tokens.length === 0) throw patchError('PATCH_OPERATION_INVALID', 'the whole document cannot be removed', i, '');
  const parent = lookup(root, tokens.slice(0, -1), i, reason);
  const last = tokens.at(-1)!;
  if (Array.isArray(parent)) {
    const at = arrayIndex(last);
    if (at === undefined || at >= parent.length) throw missing(reason, tokens, tokens.length - 1, i);
    parent.splice(at, 1);
  } else if (isObject(parent) && hasOwn(parent, last)) {
    delete parent[last];
  } else {
    throw missing(reason, tokens, tokens.length - 1, i);
  }
}

/** RFC 6902 §4.3: the target must exist; it is overwritten in place (member order kept). */
function replace(root: unknown, tokens: readonly string[], value: unknown, i: number): void {
  lookup(root, tokens, i, 'PATCH_PATH_MISSING');
  const parent = lookup(root, tokens.slice(0, -1), i, 'PATCH_PATH_MISSING') as unknown[] | Record<string, unknown>;
  const last = tokens.at(-1)!;
  if (Array.isArray(parent)) parent[arrayIndex(last)!] = value;
  else parent[last] = value;
}

/** JSON equality (RFC 6902 §4.6): member order of objects does not matter, array order does. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, k) => jsonEqual(v, b[k]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** What a patch may copy in all, in approximate bytes of JSON (see ApplyPatchOptions.maxBytes). */
export interface CloneBudget {
  bytes: number;
}

/** Thrown by cloneJson when its budget is spent. */
export class CloneBudgetExceeded extends Error {}

/** Approximate JSON size of a scalar, a member name or a container's punctuation. */
function weight(value: unknown): number {
  return typeof value === 'string' ? value.length + 2 : 8;
}

/**
 * A deep copy of a JSON value into fresh plain objects and arrays. Iterative, so that no depth
 * overflows the stack; with a budget, every node copied spends its approximate size and the
 * copy stops with CloneBudgetExceeded when the budget is spent.
 */
export function cloneJson<T>(value: T, budget?: CloneBudget): T {
  const spend = (n: number) => {
    if (budget !== undefined && (budget.bytes -= n) < 0) throw new CloneBudgetExceeded();
  };
  const pending: [unknown, unknown[] | Record<string, unknown>][] = [];
  const copy = (v: unknown): unknown => {
    spend(weight(v));
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      pending.push([v, out]);
      return out;
    }
    if (isObject(v)) {
      const out: Record<string, unknown> = {};
      pending.push([v, out]);
      return out;
    }
    return v;
  };
  const root = copy(value);
  while (pending.length > 0) {
    const [source, target] = pending.pop()!;
    if (Array.isArray(source)) {
      for (const item of source) (target as unknown[]).push(copy(item));
    } else {
      const src = source as Record<string, unknown>;
      for (const key of Object.keys(src)) {
        spend(key.length + 3);
        // defineProperty keeps an own "__proto__" member (JSON.parse can produce one) as data.
        Object.defineProperty(target, key, { value: copy(src[key]), enumerable: true, writable: true, configurable: true });
      }
    }
  }
  return root as T;
}
