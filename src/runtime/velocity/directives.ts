// VTL directives compiled to closures (https://developer.sailpoint.com/docs/extensibility/transforms/; https://developer.sailpoint.com/docs/extensibility/transforms/operations/static): text, references, #set, #if /
// #elseif / #else / #{else} / #end, #foreach with $foreach (and Velocity 1.7's $velocityCount),
// #break and inline #macro. #include, #parse and #evaluate would read or run other templates:
// they are refused (TEMPLATE_FORBIDDEN).

import { codedError } from '../../errors/index.js';
import {
  RangeExpr, UNDEF, compileCondition, compileExpr, splitAtHyphen, compileRange, compileReference, forbidden, posDetails, renderError,
  type Ast, type CompileState, type Expr, type Pos, type Scope,
} from './expressions.js';
import { MARK, VANISHED } from './hash-tokens.js';
import { referenceText, type Node } from './parse.js';
import { JavaObject, NO_METHOD, javaString } from './values.js';

export type Render = (s: Scope) => void;

/** Thrown by #break; caught by the enclosing #foreach, or by the template (which then stops). */
export class BreakSignal {}
const BREAK = new BreakSignal();


interface Macro {
  params: string[];
  /** Per parameter, whether the body may read it (a name it never mentions is never read). */
  read: boolean[];
  body: Render | undefined;
  nodes: Node[];
}

export interface DirectiveState extends CompileState {
  readonly macros: Map<string, Macro>;
}

/** Compile a node list (a template body or a block's children). */
export function compileNodes(nodes: readonly Node[], st: DirectiveState): Render {
  const parts: Render[] = [];
  let text = '';
  const flush = () => {
    if (text) {
      const t = text;
      parts.push((s) => {
        s.out += t;
      });
      text = '';
    }
  };
  for (const node of nodes) {
    if (typeof node === 'string') {
      text += node;
      continue;
    }
    if (Array.isArray(node)) {
      flush();
      const r = compileBlock(node, st);
      if (r) parts.push(r);
      continue;
    }
    st.pos = node.pos ?? st.pos;
    switch (node.type) {
      case 'comment':
        continue;
      case 'raw':
        // A marker (hash-tokens.ts) keeps nodes apart and renders nothing.
        if (node.value !== MARK && node.value !== VANISHED) text += String(node.value);
        continue;
      case 'references': {
        flush();
        const split = splitAtHyphen(node);
        parts.push(compileOutput(split ? split.ref : node, st));
        if (split) text += split.text;
        continue;
      }
      case 'set':
        flush();
        parts.push(compileSet(node, st));
        continue;
      case 'break':
        flush();
        parts.push(() => {
          throw BREAK;
        });
        continue;
      case 'macro_call':
        flush();
        parts.push(compileMacroCall(node, st));
        continue;
      default:
        throw codedError('TEMPLATE_SYNTAX', `Unsupported directive #${node.type}`, { details: posDetails(node.pos) });
    }
  }
  flush();
  if (parts.length === 1) return parts[0]!;
  return (s) => {
    for (const p of parts) p(s);
  };
}

/** `$ref` in the output: null renders nothing with `$!`, is an error otherwise (strict). */
function compileOutput(ast: Ast, st: DirectiveState): Render {
  const expr = compileReference(ast, st);
  const quiet = ast.leader === '$!';
  const strict = st.strict;
  const literal = referenceText(ast);
  return (s) => {
    const v = expr(s);
    if (v === UNDEF) {
      s.out += quiet ? '' : literal;
    } else if (v === null) {
      if (quiet) return;
      if (strict) throw renderError(`${literal} is null`, ast.pos);
      s.out += literal;
    } else {
      const max = s.limits.maxStringLength;
      if ((s.out += javaString(v, max)).length > max) s.budget.string(s.out);
    }
  };
}

/** #set: a null right-hand side is stored with strict references, ignored without (Velocity 1.7, V5). */
function compileSet(ast: Ast, st: DirectiveState): Render {
  const [lhs, rhs] = ast.equal as [Ast, Ast];
  const name = String(lhs.id);
  const pos = ast.pos;
  const valueOf = compileExpr(rhs, st);
  const path = lhs.path ?? [];
  // A null right-hand side: Velocity 1.7 with strict references stores the null (`$!x` then
  // renders nothing, `$x` fails as a null reference); without, it leaves the variable as it was.
  const keepOnNull = !st.strict;
  if (path.length === 0) {
    return (s) => {
      const v = valueOf(s);
      if (v === UNDEF || (v === null && keepOnNull)) return;
      s.locals.set(name, v);
    };
  }
  // #set($map.key = v) / #set($map["key"] = v) / #set($list[0] = v): on template-made collections.
  const targetAst: Ast = { ...lhs, path: path.slice(0, -1) };
  const target = compileReference(targetAst, st);
  const last = path[path.length - 1]!;
  if (last.type === 'method') throw codedError('TEMPLATE_SYNTAX', 'Cannot #set a method call', { details: posDetails(pos) });
  const key: Expr = last.type === 'property' ? () => String(last.id) : compileExpr(last.id as Ast, st);
  if (last.type === 'property' && String(last.id).startsWith('__')) throw forbidden(String(last.id), pos);
  return (s) => {
    const t = target(s);
    const v = valueOf(s);
    if (v === UNDEF || (v === null && keepOnNull)) return;
    const k = key(s);
    if (t instanceof Map && !Object.isFrozen(t)) {
      const name = javaString(k);
      if (!t.has(name)) s.budget.collection(t.size + 1, 1);
      t.set(name, v);
    } else if (Array.isArray(t) && !Object.isFrozen(t) && typeof k === 'number' && k >= 0 && k < t.length) {
      t[k] = v;
    } else if (st.strict) {
      throw renderError(`cannot #set ${javaString(k)} on ${javaString(t === UNDEF ? null : t)}`, pos);
    }
  };
}

function compileBlock(block: Node[], st: DirectiveState): Render | undefined {
  const head = block[0] as Ast;
  st.pos = head.pos ?? st.pos;
  switch (head.type) {
    case 'if':
      return compileIf(block, st);
    case 'foreach':
      return compileForeach(block, st);
    case 'macro':
      defineMacro(block, st);
      return undefined;
    default:
      throw codedError('TEMPLATE_SYNTAX', `Unsupported block directive #${head.type}`, { details: posDetails(head.pos) });
  }
}

function compileIf(block: Node[], st: DirectiveState): Render {
  const branches: Array<{ cond: ((s: Scope) => boolean) | null; body: Render }> = [];
  let cond: ((s: Scope) => boolean) | null = compileCondition((block[0] as Ast).condition as Ast, st);
  let body: Node[] = [];
  for (const node of block.slice(1)) {
    if (typeof node === 'object' && !Array.isArray(node) && (node.type === 'elseif' || node.type === 'else')) {
      branches.push({ cond, body: compileNodes(body, st) });
      st.pos = node.pos ?? st.pos;
      cond = node.type === 'elseif' ? compileCondition(node.condition as Ast, st) : null;
      body = [];
    } else {
      body.push(node);
    }
  }
  branches.push({ cond, body: compileNodes(body, st) });
  return (s) => {
    for (const b of branches) {
      if (b.cond === null || b.cond(s)) {
        b.body(s);
        return;
      }
    }
  };
}

/** $foreach: index (0-based), count (1-based), hasNext, first, last, parent. */
class ForeachInfo extends JavaObject {
  readonly javaClass = 'org.apache.velocity.runtime.directive.ForeachScope';
  index = -1;
  hasNext = false;
  constructor(readonly parent: unknown) {
    super();
  }
  call(name: string, args: readonly unknown[]): unknown {
    if (args.length !== 0) return NO_METHOD;
    switch (name) {
      case 'getIndex': return this.index;
      case 'getCount': return this.index + 1;
      case 'hasNext':
      case 'getHasNext': return this.hasNext;
      case 'isFirst':
      case 'getFirst': return this.index === 0;
      case 'isLast':
      case 'getLast': return !this.hasNext;
      case 'getParent': return this.parent;
      default: return NO_METHOD;
    }
  }
  toJavaString(): string {
    return `ForeachScope[index=${this.index}]`;
  }
}

function compileForeach(block: Node[], st: DirectiveState): Render {
  const head = block[0] as Ast;
  const varName = String(head.to);
  const pos = head.pos as Pos | undefined;
  const from = head.from as Ast;
  const range = from.type === 'array' && from.isRange ? compileRange(from, st) : null;
  const source = range ? null : compileExpr(from, st);
  const body = withBound(st, [varName], () => compileNodes(block.slice(1), st));
  // A #foreach of fewer than three arguments (./foreach-arguments.ts): 1.7 never runs its body.
  if (head.shortForeach === 'body') return () => {};
  if (head.shortForeach === 'none') {
    return () => {
      throw renderError('#foreach needs a variable, `in` and a list (Velocity 1.7 fails on fewer arguments)', pos);
    };
  }
  const strict = st.strict;
  return (s) => {
    let items: Iterable<unknown>;
    let size: number;
    if (range instanceof RangeExpr) {
      const [a, b] = range.bounds(s);
      size = Math.abs(b - a) + 1;
      items = countFrom(a, b);
    } else {
      const v = source!(s);
      if (Array.isArray(v)) {
        items = v;
        size = v.length;
      } else if (v instanceof Map) {
        items = v.values();
        size = v.size;
      } else {
        if (strict) throw renderError(`#foreach needs a list, got ${v === UNDEF ? 'an undefined reference' : javaString(v)}`, pos);
        return;
      }
    }
    const saved = saveLocals(s, [varName, 'foreach', 'velocityCount', 'velocityHasNext']);
    const info = new ForeachInfo(s.locals.get('foreach') ?? null);
    s.locals.set('foreach', info);
    try {
      for (const item of items) {
        s.budget.tick();
        if (s.out.length > s.limits.maxStringLength) s.budget.string(s.out);
        info.index++;
        info.hasNext = info.index + 1 < size;
        s.locals.set('velocityCount', info.index + 1);
        s.locals.set('velocityHasNext', info.hasNext);
        if (item === null) s.locals.delete(varName);
        else s.locals.set(varName, item);
        try {
          body(s);
        } catch (signal) {
          if (signal instanceof BreakSignal) break;
          throw signal;
        }
      }
    } finally {
      restoreLocals(s, saved);
    }
  };
}

function* countFrom(a: number, b: number): Generator<number> {
  const step = a <= b ? 1 : -1;
  for (let i = a; i !== b + step; i += step) yield i;
}

function saveLocals(s: Scope, names: string[]): Array<[string, boolean, unknown]> {
  return names.map((n) => [n, s.locals.has(n), s.locals.get(n)]);
}

function restoreLocals(s: Scope, saved: Array<[string, boolean, unknown]>): void {
  for (const [n, had, v] of saved) {
    if (had) s.locals.set(n, v);
    else s.locals.delete(n);
  }
}

function defineMacro(block: Node[], st: DirectiveState): void {
  const head = block[0] as Ast;
  const name = String(head.id);
  const params = ((head.args as Ast[] | undefined) ?? []).map((a) => String(a.id));
  const nodes = block.slice(1);
  // 1.7 passes a macro's arguments by name: one is evaluated only where the body reads its
  // parameter, and one past the parameters never (`#two(1 $u)` renders when the body reads only
  // $p). The body's nodes name a reference by its id, an interpolated string by its text.
  const text = JSON.stringify(nodes);
  const read = params.map((p) => text.includes(`"id":${JSON.stringify(p)}`) || new RegExp(`\\$!?\\{?${p}(?![\\w])`).test(text));
  const macro: Macro = { params, read, body: undefined, nodes };
  st.macros.set(name, macro);
  macro.body = withBound(st, params, () => compileNodes(macro.nodes, st));
}

/**
 * Compile `f` with loop variables or macro parameters bound, so that references to them inside
 * are not reported as the template's variables — but the same names outside still are.
 */
function withBound<T>(st: DirectiveState, names: readonly string[], f: () => T): T {
  const added = names.filter((n) => !st.bound.has(n));
  for (const n of added) st.bound.add(n);
  try {
    return f();
  } finally {
    for (const n of added) st.bound.delete(n);
  }
}

const MAX_MACRO_DEPTH = 64;

function compileMacroCall(ast: Ast, st: DirectiveState): Render {
  const name = String(ast.id);
  const pos = ast.pos;
  if (name === 'include' || name === 'parse' || name === 'evaluate' || name === 'define') throw forbidden(`#${name}`, pos);
  const args = ((ast.args as Ast[] | undefined) ?? []).map((a) => compileExpr(a, st));
  return (s) => {
    const macro = st.macros.get(name);
    if (!macro || !macro.body) {
      if (st.strict) throw renderError(`#${name} is not a macro`, pos);
      s.out += `#${name}`;
      return;
    }
    if (++s.depth > MAX_MACRO_DEPTH) {
      s.depth--;
      throw renderError(`macro #${name} recursion too deep`, pos);
    }
    // Macros that call themselves twice take exponential time within the depth limit.
    s.budget.tick();
    const values = macro.params.map((_p, i) => (macro.read[i] && args[i] ? args[i](s) : undefined));
    const saved = saveLocals(s, macro.params);
    try {
      macro.params.forEach((p, i) => {
        const v = values[i];
        if (v === undefined || v === null || v === UNDEF) s.locals.delete(p);
        else s.locals.set(p, v);
      });
      macro.body(s);
    } finally {
      restoreLocals(s, saved);
      s.depth--;
    }
  };
}
