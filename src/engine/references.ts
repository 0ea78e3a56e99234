// A transform's references (https://developer.sailpoint.com/docs/extensibility/transforms/operations/reference):
// what a `reference` node is, the references within a JSON value, the transforms reached through
// them, a copy with references renamed, and cycles among named transforms. Every walk here is
// iterative: a hostile document thousands of levels deep, or a chain of thousands of stored
// transforms, must give a coded error, never overflow the call stack.

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The name a node references: its `attributes.id` when it is a `reference` whose id is text. */
export function referenceName(node: Json): string | undefined {
  if (node.type !== 'reference' || !isObject(node.attributes)) return undefined;
  const id = node.attributes.id;
  return typeof id === 'string' ? id : undefined;
}

const escapeToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

export interface ReferenceSite {
  name: string;
  /** JSON Pointer of the reference's `id`, relative to the value searched. */
  pointer: string;
}

/**
 * Every `reference` node within a JSON value, wherever it sits, with the pointer of its id. The
 * order is the walk's (last child first); callers that report one site choose among them.
 */
export function referencesIn(value: unknown): ReferenceSite[] {
  const out: ReferenceSite[] = [];
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    if (Array.isArray(v)) v.forEach((x, i) => stack.push([x, `${at}/${i}`]));
    else if (isObject(v)) {
      const name = referenceName(v);
      if (name !== undefined) out.push({ name, pointer: `${at}/attributes/id` });
      for (const [k, x] of Object.entries(v)) stack.push([x, `${at}/${escapeToken(k)}`]);
    }
  }
  return out;
}

/** Whether some `reference` node within a JSON value names `name`. */
export function referencesName(value: unknown, name: string): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (isObject(v)) {
      if (referenceName(v) === name) return true;
      stack.push(...Object.values(v));
    }
  }
  return false;
}

export interface ReachOptions {
  /**
   * A reference whose id is a Velocity template (it holds `$` or `#`) names no transform known
   * before evaluation: count it as dynamic rather than as a name, and do not follow it. Impact
   * analysis reads references this way (such a reference can reach any transform); evaluation
   * and the uniqueness check look the id up as written.
   */
  templatesAreDynamic?: boolean;
  /** Stop at the first node of this type (it is then in `reached.types`). */
  stopAtType?: string;
}

export interface Reached {
  /** The names referenced, directly or through the transforms they name. */
  names: Set<string>;
  /** Some reference's id is a template (only with `templatesAreDynamic`). */
  dynamic: boolean;
  /** The `type` of every node reached (up to `stopAtType`, when given). */
  types: Set<string>;
}

const isTemplate = (text: string) => text.includes('$') || text.includes('#');

/**
 * What evaluating `definition` can reach: its nodes, and the transforms its references name
 * (looked up with `transform`, followed transitively, each once).
 */
export function reachableFrom(definition: unknown, transform: (name: string) => unknown, options: ReachOptions = {}): Reached {
  const out: Reached = { names: new Set(), dynamic: false, types: new Set() };
  const stack: unknown[] = [definition];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
      continue;
    }
    const node = v as Json;
    if (typeof node.type === 'string') {
      out.types.add(node.type);
      if (node.type === options.stopAtType) return out;
    }
    if (node.type === 'reference' && node.attributes !== null && typeof node.attributes === 'object') {
      const name = referenceName(node);
      if (name !== undefined && !(options.templatesAreDynamic && isTemplate(name))) {
        if (!out.names.has(name)) {
          out.names.add(name);
          const target = transform(name);
          if (target !== undefined) stack.push(target);
        }
      } else if (options.templatesAreDynamic) {
        out.dynamic = true;
      }
    }
    for (const child of Object.values(node)) if (child !== null && typeof child === 'object') stack.push(child);
  }
  return out;
}

/**
 * Whether evaluating `definition` can run an operation of `type` (the refresh asks it of
 * usernameGenerator): its nodes, and the transforms its references name, followed transitively.
 */
export function reachesType(definition: unknown, type: string, transform: (name: string) => unknown): boolean {
  return reachableFrom(definition, transform, { stopAtType: type }).types.has(type);
}

/**
 * A copy of a JSON value in which each reference's id is `rename(id)` (kept when it answers
 * null). Built with an explicit stack; the copy shares nothing with the value.
 */
export function renameReferences(value: unknown, rename: (name: string) => string | null): unknown {
  const root: { v: unknown } = { v: undefined };
  const stack: { from: unknown; into: Record<string | number, unknown>; key: string | number }[] = [{ from: value, into: root, key: 'v' }];
  const nodes: Json[] = [];
  while (stack.length > 0) {
    const { from, into, key } = stack.pop()!;
    if (from === null || typeof from !== 'object') {
      into[key] = from;
    } else if (Array.isArray(from)) {
      const copy: unknown[] = new Array(from.length);
      into[key] = copy;
      from.forEach((x, i) => stack.push({ from: x, into: copy as unknown as Record<number, unknown>, key: i }));
    } else {
      const copy: Json = {};
      into[key] = copy;
      nodes.push(copy);
      for (const [k, x] of Object.entries(from)) {
        copy[k] = undefined; // keeps the members in the original's order
        stack.push({ from: x, into: copy, key: k });
      }
    }
  }
  for (const node of nodes) {
    const name = referenceName(node);
    const renamed = name === undefined ? null : rename(name);
    if (renamed !== null) node.attributes = { ...(node.attributes as Json), id: renamed };
  }
  return root.v;
}

/**
 * Cycles among named transforms: a depth-first search over name → its references (`edges`),
 * from each of `starts` in turn, iterative. At every reference back to a name on the current
 * path it calls `onCycle` with the names of the cycle (the first repeated at the end) and the
 * references taken along it (`taken[i]` leads from `cycle[i]` to `cycle[i + 1]`); answering true
 * stops the search. Names without edges are leaves; each name is explored once.
 */
export function findCycles<R extends { name: string }>(
  starts: Iterable<string>,
  edges: ReadonlyMap<string, readonly R[]>,
  onCycle: (cycle: string[], taken: R[]) => boolean | void,
): void {
  const state = new Map<string, 'active' | 'done'>();
  for (const start of starts) {
    if (state.has(start)) continue;
    const frames: { name: string; next: number; via?: R }[] = [{ name: start, next: 0 }];
    state.set(start, 'active');
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const out = edges.get(frame.name) ?? [];
      if (frame.next >= out.length) {
        state.set(frame.name, 'done');
        frames.pop();
        continue;
      }
      const ref = out[frame.next++]!;
      const s = state.get(ref.name);
      if (s === 'active') {
        const from = frames.findIndex((f) => f.name === ref.name);
        const path = frames.slice(from);
        const taken = [...path.slice(1).map((f) => f.via!), ref];
        if (onCycle([...path.map((f) => f.name), ref.name], taken) === true) return;
      } else if (s === undefined && edges.has(ref.name)) {
        state.set(ref.name, 'active');
        frames.push({ name: ref.name, next: 0, via: ref });
      }
    }
  }
}
