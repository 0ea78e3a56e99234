// VTL references and expressions compiled to closures (https://developer.sailpoint.com/docs/extensibility/transforms/; https://developer.sailpoint.com/docs/extensibility/transforms/operations/static): `$a.b(c)[0].d`,
// literals, ranges, maps, arithmetic and comparisons with Velocity/Java semantics. Strict
// references (the platform's "Error rendering template") are the default; the lenient mode of
// stock Velocity exists for the Apache conformance vectors.

import { codedError, TransformsError } from '../../errors/index.js';
import { isLimitError, type Budget, type BudgetLimits } from '../budget.js';
import { JavaException, getProperty, invokeMethod, isForbiddenName, type MethodContext } from './methods.js';
import type { JavaIdentity } from './identity.js';
import { referenceText } from './parse.js';
import {
  ArithmeticError, JBigInteger, JDouble, type JNumber, NO_METHOD, arithmetic, compareNumbers, isNumber, javaString, toJava, truthy,
  velocityEquals, type MathOp,
} from './values.js';

/** An undefined reference (only ever produced in lenient mode: strict mode throws instead). */
export const UNDEF: unique symbol = Symbol('undefined reference');

/** Everything one render reads and writes. */
export interface Scope {
  out: string;
  readonly locals: Map<string, unknown>;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly globals: Readonly<Record<string, unknown>>;
  identity: JavaIdentity | null | undefined;
  /** $identity as a Java object (called once per render, when first referenced). */
  wrapIdentity(): JavaIdentity | null;
  readonly ctx: MethodContext;
  /** The evaluation's limits, and its resource budget (created on first use). */
  readonly limits: Readonly<BudgetLimits>;
  readonly budget: Budget;
  depth: number;
}

export type Expr = (s: Scope) => unknown;

export interface Pos {
  first_line: number;
  first_column: number;
}

/** What the compiler records while it walks the AST. */
export interface CompileState {
  readonly strict: boolean;
  readonly references: Set<string>;
  /** Names bound by #foreach and macro parameters: not top-level references. */
  readonly bound: Set<string>;
  /** Called with the literal (non-interpolated) string arguments of every method call. */
  readonly precompile: (method: string, literals: readonly (string | undefined)[]) => void;
  /** Compile a nested template (interpolated string literal). */
  readonly template: (source: string, pos: Pos | undefined) => (s: Scope) => string;
  /** Position of the directive being compiled: references inside conditions carry none. */
  pos: Pos | undefined;
}

// velocityjs AST shapes (its published types are loose; these are the fields we read).
export interface Ast {
  type: string;
  id?: unknown;
  value?: unknown;
  leader?: string;
  path?: Ast[];
  args?: Ast[];
  expression?: Ast[];
  operator?: string;
  isEval?: boolean;
  isRange?: boolean;
  isWraped?: boolean;
  pos?: Pos;
  [key: string]: unknown;
}

export function renderError(message: string, pos: Pos | undefined, cause?: unknown): TransformsError {
  const where = pos ? ` at line ${pos.first_line}, column ${pos.first_column + 1}` : '';
  return codedError('TEMPLATE_RENDER', `Error rendering template: ${message}${where}`, {
    cause,
    details: pos ? { line: pos.first_line, column: pos.first_column + 1 } : undefined,
  });
}

export function forbidden(name: string, pos: Pos | undefined): TransformsError {
  const where = pos ? ` at line ${pos.first_line}, column ${pos.first_column + 1}` : '';
  return codedError('TEMPLATE_FORBIDDEN', `Template reaches outside the sandbox: '${name}'${where}`, {
    details: { name, ...(pos ? { line: pos.first_line, column: pos.first_column + 1 } : {}) },
  });
}

/** Run a method and turn Java exceptions, regex errors and arithmetic errors into TEMPLATE_RENDER. */
function guarded<T>(pos: Pos | undefined, f: () => T): T {
  try {
    return f();
  } catch (error) {
    if (error instanceof TransformsError && (error.code === 'TEMPLATE_RENDER' || error.code === 'TEMPLATE_FORBIDDEN' || isLimitError(error))) throw error;
    if (error instanceof JavaException || error instanceof TransformsError || error instanceof ArithmeticError) {
      throw renderError(error.message, pos, error);
    }
    throw error;
  }
}

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
  if (ast.args !== undefined) throw forbidden(`$${name}(…)`, pos);
  if (!st.bound.has(name)) st.references.add(name);
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

type Step = (s: Scope, target: unknown) => unknown;

function compileStep(step: Ast, st: CompileState, pos: Pos | undefined): Step {
  if (step.type === 'method' || step.type === 'property') {
    const name = String(step.id);
    if (isForbiddenName(name)) throw forbidden(name, pos);
    if (step.type === 'property') {
      return (s, target) => {
        const r = guarded(pos, () => getProperty(target, name, s.ctx));
        return r === NO_METHOD ? UNDEF : r;
      };
    }
    const argAsts = Array.isArray(step.args) ? step.args : [];
    const args = argAsts.map((a) => compileExpr(a, st));
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

export function posDetails(pos: Pos | undefined): Record<string, unknown> | undefined {
  return pos ? { line: pos.first_line, column: pos.first_column + 1 } : undefined;
}

function integerLiteral(raw: unknown): number | bigint {
  const text = String(raw);
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}

/** Range bounds: integers, or strings holding integers (`[1..$b]` with $b = "5"). */
function rangeBound(v: unknown, pos: Pos | undefined): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) return Number(v);
  throw renderError(`range bound ${javaString(v)} is not an integer`, pos);
}

/** A lazily iterated range literal; materialized only when stored or called on. */
export class RangeExpr {
  constructor(
    readonly from: Expr,
    readonly to: Expr,
    readonly pos: Pos | undefined,
  ) {}
  bounds(s: Scope): [number, number] {
    return [rangeBound(this.from(s), this.pos), rangeBound(this.to(s), this.pos)];
  }
}

export function compileRange(ast: Ast, st: CompileState): RangeExpr {
  const [a, b] = ast.value as unknown[];
  const bound = (x: unknown): Expr => (typeof x === 'object' && x !== null ? compileExpr(x as Ast, st) : () => integerLiteral(x));
  return new RangeExpr(bound(a), bound(b), ast.pos);
}

export function compileExpr(ast: Ast, st: CompileState): Expr {
  switch (ast.type) {
    case 'references': {
      // `$a-1` in an expression is `$a - 1` (Velocity 2: a hyphen ends an identifier).
      const m = /^([A-Za-z_][\w]*)-(\d+)$/.exec(String(ast.id));
      if (m && !ast.path?.length && !ast.isWraped) {
        return compileExpr(
          { type: 'math', operator: '-', pos: ast.pos, expression: [{ ...ast, id: m[1] }, { type: 'integer', value: m[2] }] },
          st,
        );
      }
      if (String(ast.id).includes('-')) {
        throw codedError('TEMPLATE_SYNTAX', `'-' cannot be part of a reference name: $${String(ast.id)}`, { details: posDetails(ast.pos ?? st.pos) });
      }
      return compileReference(ast, st);
    }
    case 'integer': {
      const v = integerLiteral(ast.value);
      return () => v;
    }
    case 'decimal': {
      const v = new JDouble(Number(ast.value));
      return () => v;
    }
    case 'bool': {
      const v = ast.value === 'true' ? true : ast.value === 'false' ? false : null;
      return () => v;
    }
    case 'string': {
      const text = String(ast.value);
      if (ast.isEval && /[$#]/.test(text)) {
        const render = st.template(text, ast.pos);
        return (s) => s.budget.string(render(s));
      }
      return () => text;
    }
    case 'array': {
      if (ast.isRange) {
        const range = compileRange(ast, st);
        return (s) => {
          const [from, to] = range.bounds(s);
          const size = Math.abs(to - from) + 1;
          s.budget.collection(size, size);
          const out: number[] = [];
          const step = from <= to ? 1 : -1;
          for (let i = from; i !== to + step; i += step) out.push(i);
          return out;
        };
      }
      const items = (ast.value as Ast[]).map((a) => compileExpr(a, st));
      return (s) => items.map((i) => {
        const v = i(s);
        return v === UNDEF ? null : v;
      });
    }
    case 'map': {
      const entries = Object.entries((ast.value ?? {}) as Record<string, Ast>).map(([k, v]) => [k, compileExpr(v, st)] as const);
      return (s) => {
        const m = new Map<string, unknown>();
        for (const [k, v] of entries) {
          const x = v(s);
          m.set(k, x === UNDEF ? null : x);
        }
        return m;
      };
    }
    case 'math':
      return compileMath(ast, st);
    default:
      throw codedError('TEMPLATE_SYNTAX', `Unsupported expression '${ast.type}'`, { details: posDetails(ast.pos) });
  }
}

function compileMath(ast: Ast, st: CompileState): Expr {
  const operands = (ast.expression ?? []).map((e) => compileExpr(e, st));
  // The source text of a reference operand: what `+` with a String prints for it when it is null.
  const literals = (ast.expression ?? []).map((e) => (e.type === 'references' ? referenceText(e) : undefined));
  const [a, b] = operands as [Expr, Expr];
  const pos = ast.pos ?? (ast.expression?.[0]?.pos as Pos | undefined);
  const op = ast.operator;
  switch (op) {
    case 'parenthesis':
      return a;
    case 'not':
    case '!':
      return (s) => !truthy(value(a(s)));
    case '&&':
      return (s) => truthy(value(a(s))) && truthy(value(b(s)));
    case '||':
      return (s) => truthy(value(a(s))) || truthy(value(b(s)));
    case '==':
      return (s) => velocityEquals(value(a(s)), value(b(s)));
    case '!=':
      return (s) => !velocityEquals(value(a(s)), value(b(s)));
    case '<':
    case '>':
    case '<=':
    case '>=':
      return (s) => {
        const c = compare(value(a(s)), value(b(s)), pos, st.strict);
        if (c === null) return false;
        return op === '<' ? c < 0 : op === '>' ? c > 0 : op === '<=' ? c <= 0 : c >= 0;
      };
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
      return (s) => {
        const x = value(a(s));
        const y = value(b(s));
        if (op === '+' && (typeof x === 'string' || typeof y === 'string')) {
          // Velocity 1.7's ASTAddNode concatenates a null reference operand as its source text.
          const left = x === null ? literals[0] : x;
          const right = y === null ? literals[1] : y;
          if (left === undefined || right === undefined) return mathNull(`null operand of '+'`, pos, st.strict);
          const max = s.limits.maxStringLength;
          return s.budget.string(javaString(left, max) + javaString(right, max));
        }
        // Velocity 1.7 (without runtime.strict.math, strict references or not) logs arithmetic on
        // a non-number, and a division or modulus by zero, and evaluates it to null.
        if (!isNumber(x) || !isNumber(y)) return null;
        if (isZero(y) && (op === '/' || op === '%')) return null;
        const r = guarded(pos, () => arithmetic(op as MathOp, x, y));
        return typeof r === 'bigint' ? s.budget.number(r) : r;
      };
    default:
      throw codedError('TEMPLATE_SYNTAX', `Unsupported operator '${op}'`, { details: posDetails(pos) });
  }
}

/** MathUtils.isZero: an integral 0 (a BigInteger's too), or a double 0.0 or -0.0. */
function isZero(v: JNumber): boolean {
  if (v instanceof JDouble) return v.value === 0;
  if (v instanceof JBigInteger) return v.value === 0n;
  return v === 0 || v === 0n;
}

function value(v: unknown): unknown {
  return v === UNDEF ? null : v;
}

function mathNull(message: string, pos: Pos | undefined, strict: boolean): null {
  if (strict) throw renderError(message, pos);
  return null;
}

/**
 * Ordering: numbers only, as Velocity 1.7's ASTLTNode & co. (strings too are "not a Number" and
 * fail the comparison); an error in strict mode.
 */
function compare(x: unknown, y: unknown, pos: Pos | undefined, strict: boolean): number | null {
  if (isNumber(x) && isNumber(y)) return compareNumbers(x, y);
  if (strict) throw renderError(`cannot compare ${javaString(x)} with ${javaString(y)}`, pos);
  return null;
}
