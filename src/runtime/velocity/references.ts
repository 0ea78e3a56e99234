// VTL references compiled to closures (https://developer.sailpoint.com/docs/extensibility/transforms/):
// `$a.b(c)[0].d` — the variable looked up in the render's locals, variables and globals (the
// identity graph wrapped on first use), then each property, method call and index in turn through
// the whitelisted Java methods (./methods.ts), with strict references failing where Velocity's
// strict mode fails. Method arguments and indexes are expressions (./expressions.ts).

import { codedError } from '../../errors/index.js';
import { JavaException, getProperty, invokeMethod, propertyGetters, isForbiddenName } from './methods.js';
import { referenceText } from './parse.js';
import { NO_METHOD, javaString, toJava } from './values.js';
import {
  UNDEF, compileExpr, forbidden, guarded, posDetails, renderError, type Ast, type CompileState, type Expr, type IdentityRead, type Pos, type Scope,
} from './expressions.js';

function lookup(s: Scope, name: string): unknown {
  if (s.locals.has(name)) return s.locals.get(name);
  if (Object.hasOwn(s.variables, name)) {
    const v = s.variables[name];
    if (v !== null && v !== undefined) return toJava(v);
  }
  if (name === 'identity') {
    if (s.identity === undefined) s.identity = s.wrapIdentity();
    if (s.identity !== null) return s.identity;
    return UNDEF;
  }
  if (Object.hasOwn(s.globals, name)) {
    const v = s.globals[name];
    if (v !== null && v !== undefined) return toJava(v);
  }
  return UNDEF;
}

/**
 * Velocity 2 ends an identifier at `-` (velocityjs, like Velocity 1.7, reads `$first-$last` as
 * the variable `first-`): the reference up to the hyphen, and the rest as text.
 */
export function splitAtHyphen(ast: Ast): { ref: Ast; text: string } | null {
  if (ast.isWraped || ast.args !== undefined) return null;
  const id = String(ast.id);
  const path = ast.path ?? [];
  const cut = id.indexOf('-');
  if (cut > 0) {
    const rest: Ast = { type: 'references', id: '', leader: '', path };
    return { ref: { ...ast, id: id.slice(0, cut), path: [] }, text: id.slice(cut) + referenceText(rest) };
  }
  const at = path.findIndex((p) => p.type === 'property' && String(p.id).includes('-'));
  if (at < 0) return null;
  const name = String(path[at]!.id);
  const hyphen = name.indexOf('-');
  const kept = hyphen > 0 ? [...path.slice(0, at), { ...path[at]!, id: name.slice(0, hyphen) }] : path.slice(0, at);
  const rest: Ast = { type: 'references', id: '', leader: '', path: path.slice(at + 1) };
  return { ref: { ...ast, path: kept }, text: name.slice(Math.max(hyphen, 0)) + referenceText(rest) };
}

/** A reference `$a.b(c)[0]` as an expression: its value, or UNDEF in lenient mode. */
export function compileReference(ast: Ast, st: CompileState): Expr {
  const name = String(ast.id);
  const pos = ast.pos ?? st.pos;
  // `true` and `false` name no reference in 1.7's lexer: `$true` does not parse (among arguments
  // the `$` vanishes before the literal instead: argument-prefixes.ts).
  if (name === 'true' || name === 'false') {
    const where = pos ? ` (line ${pos.first_line}, column ${pos.first_column + 1})` : '';
    throw codedError('TEMPLATE_SYNTAX', `Template does not parse: '$${name}' is a literal, not a reference${where}`, { details: posDetails(pos) });
  }
  // 1.7's grammar has no call of a reference (`#set($r = $x(1))`, `#if($a())` do not parse); in
  // text and in interpolated strings `$x(1)` is the reference, then the text `(1)` (escapes.ts).
  if (ast.args !== undefined) {
    const where = pos ? ` (line ${pos.first_line}, column ${pos.first_column + 1})` : '';
    throw codedError('TEMPLATE_SYNTAX', `Template does not parse: '$${name}(…)' calls a reference, and Velocity has no such call${where}`, { details: posDetails(pos) });
  }
  if (!st.bound.has(name)) {
    st.references.add(name);
    if (name === 'identity') st.identityReads.push(firstRead(ast.path));
  }
  const strict = st.strict;
  const steps = (ast.path ?? []).map((step) => compileStep(step, st, pos));
  const text = referenceText(ast);
  return (s) => {
    let v = lookup(s, name);
    if (v === UNDEF) {
      if (strict) throw renderError(`$${name} is not defined`, pos);
      return UNDEF;
    }
    for (const step of steps) {
      if (v === null) {
        if (strict) throw renderError(`${text}: a method or property was called on null`, pos);
        return UNDEF;
      }
      v = step(s, v);
      if (v === UNDEF) {
        if (strict) throw renderError(`${text}: no such method or property`, pos);
        return UNDEF;
      }
    }
    return v;
  };
}

/** The first step of a `$identity` reference's path. */
function firstRead(path: Ast[] | undefined): IdentityRead {
  const first = path?.[0];
  if (first === undefined) return WHOLE_READ;
  if (first.type !== 'method' && first.type !== 'property') return INDEX_READ;
  return Object.freeze({ step: first.type, name: String(first.id) });
}

const WHOLE_READ: IdentityRead = Object.freeze({ step: 'whole' });
const INDEX_READ: IdentityRead = Object.freeze({ step: 'index' });

type Step = (s: Scope, target: unknown) => unknown;

function compileStep(step: Ast, st: CompileState, pos: Pos | undefined): Step {
  if (step.type === 'method' || step.type === 'property') {
    const name = String(step.id);
    if (isForbiddenName(name)) throw forbidden(name, pos);
    if (step.type === 'property') {
      const getters = propertyGetters(name);
      return (s, target) => {
        const r = guarded(pos, () => getProperty(target, name, s.ctx, getters));
        return r === NO_METHOD ? UNDEF : r;
      };
    }
    const argAsts = Array.isArray(step.args) ? step.args : [];
    // `null` as an argument is Java's null: the one place 1.7's grammar reads the word (V5). So
    // is any other bare word there (`$a.concat(x)`, `$a.equals(x)` → false): 1.7's lexer, in a
    // call's arguments, reads it as a reference without its `$`, whose value is always null.
    const args = argAsts.map((a): Expr => ((a.type === 'bool' && a.value === 'null') || a.type === 'runt' ? () => null : compileExpr(a, st)));
    st.precompile(name, argAsts.map((a) => (a.type === 'string' && typeof a.value === 'string' && !(a.isEval && /[$#]/.test(a.value)) ? a.value : undefined)));
    return (s, target) => {
      const values = args.map((a) => {
        const v = a(s);
        return v === UNDEF ? null : v;
      });
      const r = guarded(pos, () => invokeMethod(target, name, values, s.ctx));
      // What a method creates is charged where it is created: a new string, a new list.
      if (typeof r === 'string') {
        if (r !== target) s.budget.string(r);
      } else if (Array.isArray(r) && r !== target) s.budget.collection(r.length, r.length);
      return r === NO_METHOD ? UNDEF : r === undefined ? null : r;
    };
  }
  if (step.type === 'index') {
    const key = step.id as Ast;
    if (key.type === 'string' && typeof key.value === 'string' && isForbiddenName(key.value)) throw forbidden(key.value, pos);
    const index = compileExpr(key, st);
    return (s, target) => {
      const k = index(s);
      return guarded(pos, () => indexInto(target, k === UNDEF ? null : k, pos));
    };
  }
  throw codedError('TEMPLATE_SYNTAX', `Unsupported reference step '${step.type}'`, { details: posDetails(pos) });
}

/** `$x[i]`: lists and arrays by int (negative counts from the end, Velocity 2), maps by key. */
function indexInto(target: unknown, key: unknown, pos: Pos | undefined): unknown {
  if (target instanceof Map) {
    const k = javaString(key);
    if (isForbiddenName(k)) throw forbidden(k, pos);
    return target.has(k) ? target.get(k) : null;
  }
  if (Array.isArray(target)) {
    if (typeof key !== 'number') throw new JavaException('java.lang.IllegalArgumentException', `index ${javaString(key)} is not an integer`);
    const at = key < 0 ? target.length + key : key;
    if (at < 0 || at >= target.length) {
      throw new JavaException('java.lang.IndexOutOfBoundsException', `Index ${key} out of bounds for length ${target.length}`);
    }
    return target[at];
  }
  return UNDEF;
}
