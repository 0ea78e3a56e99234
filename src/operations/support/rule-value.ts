// The value a registered rule returns, checked before the engine takes it: a rule is code
// outside the library and may return what no transform can (a bigint, a symbol, a function, a
// Date or a Map), which JSON would drop silently or fail on later, far from the rule.

import { escapePointerToken } from '../../errors/index.js';
import type { Value } from '../../engine/types.js';

/** What the first value a transform cannot hold is, and where (a JSON Pointer into the result); null when every value is one. */
export function foreignValue(root: unknown, maxNodes: number): { what: string; at: string } | null {
  const stack: Array<[unknown, string]> = [[root, '']];
  // A result larger than the output limit is reported by that limit (engine/output-limit.ts);
  // the count keeps a cyclic one from holding this loop.
  for (let seen = 0; stack.length > 0 && seen <= maxNodes; seen++) {
    const [value, at] = stack.pop()!;
    if (value === null || value === undefined || typeof value === 'string' || typeof value === 'boolean') continue;
    if (typeof value === 'number') {
      if (Number.isFinite(value)) continue;
      return { what: String(value), at };
    }
    if (typeof value !== 'object') return { what: `a ${typeof value}`, at };
    if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push([item, `${at}/${i}`]));
      continue;
    }
    const proto = Object.getPrototypeOf(value) as object | null;
    if (proto !== Object.prototype && proto !== null) return { what: `an instance of ${constructorName(proto)}`, at };
    for (const [key, item] of Object.entries(value)) stack.push([item, `${at}/${escapePointerToken(key)}`]);
  }
  return null;
}

function constructorName(proto: object): string {
  const ctor = (proto as { constructor?: { name?: unknown } }).constructor;
  return typeof ctor?.name === 'string' && ctor.name !== '' ? ctor.name : 'a class';
}

/** The rule's answer as a transform's value: undefined (no return) is null. */
export function asValue(value: unknown): Value {
  return value === undefined ? null : (value as Value);
}
