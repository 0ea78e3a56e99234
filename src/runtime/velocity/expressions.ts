// VTL expressions compiled to closures (https://developer.sailpoint.com/docs/extensibility/transforms/; https://developer.sailpoint.com/docs/extensibility/transforms/operations/static):
// literals, ranges, maps, arithmetic and comparisons with Velocity/Java semantics, and what the
// compiled template shares (the render's scope, the AST, coded render errors); references
// `$a.b(c)[0].d` are ./references.ts. Strict references (the platform's "Error rendering
// template") are the default; the lenient mode of stock Velocity exists for the Apache
// conformance vectors.

import { codedError, TransformsError } from '../../errors/index.js';
import { isLimitError, type Budget, type BudgetLimits } from '../budget.js';
import { JavaException, type MethodContext } from './methods.js';
import type { JavaIdentity } from './identity.js';
import { referenceText } from './parse.js';
import { compileReference } from './references.js';
import {
  ArithmeticError, JBigInteger, JDouble, type JNumber, arithmetic, compareNumbers, isNumber, javaString, velocityEquals,
  type MathOp,
} from './values.js';

export { compileReference, splitAtHyphen } from './references.js';

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

/**
 * What one `$identity` reference reads first: a property or a method by name, an index, or the
 * identity whole (`$identity` alone: rendered, set to a variable, passed to a method or a macro,
 * iterated by #foreach).
 */
export type IdentityRead = { readonly step: 'property' | 'method'; readonly name: string } | { readonly step: 'index' | 'whole' };

export interface Pos {
  first_line: number;
  first_column: number;
}

/** What the compiler records while it walks the AST. */
export interface CompileState {
  readonly strict: boolean;
  readonly references: Set<string>;
  /** The first step of every `$identity` reference compiled, in order (./references.ts). */
  readonly identityReads: IdentityRead[];
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
export function guarded<T>(pos: Pos | undefined, f: () => T): T {
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

/** `$a-1` in an expression is `$a - 1` (Velocity 2: a hyphen ends an identifier, decision V19). */
function hyphenSubtraction(ast: Ast): Ast | undefined {
  const m = /^([A-Za-z_][\w]*)-(\d+)$/.exec(String(ast.id));
  if (!m || ast.path?.length || ast.isWraped) return undefined;
  return { type: 'math', operator: '-', pos: ast.pos, expression: [{ ...ast, id: m[1] }, { type: 'integer', value: m[2] }] };
}

/**
 * A condition (`#if`, `#elseif`, and the operands of `!`, `&&`, `||`) as Velocity 1.7 evaluates
 * it (`Node.evaluate`): a reference is true unless its value is null or false — an empty string,
 * an empty list, zero are true; `true`/`false` are themselves; a comparison, `!`, `&&`, `||` their
 * result; any other node — a string, number, list, map or range literal, arithmetic — is false,
 * and is not evaluated (`SimpleNode.evaluate`). Decision V8: a tenant was observed giving `T` for
 * `#set($e = "")#if($e)T#{else}F#end`.
 */
export function compileCondition(ast: Ast, st: CompileState): (s: Scope) => boolean {
  switch (ast.type) {
    case 'references': {
      const subtraction = hyphenSubtraction(ast);
      if (subtraction !== undefined) return compileCondition(subtraction, st);
      const e = compileExpr(ast, st);
      return (s) => {
        const v = value(e(s));
        return v !== null && v !== false;
      };
    }
    case 'bool': {
      const e = compileExpr(ast, st);
      return (s) => e(s) === true;
    }
    case 'math': {
      const [a, b] = ast.expression ?? [];
      switch (ast.operator) {
        case 'parenthesis':
          return compileCondition(a!, st);
        case 'not':
        case '!': {
          const x = compileCondition(a!, st);
          return (s) => !x(s);
        }
        case '&&':
        case '||': {
          const x = compileCondition(a!, st);
          const y = compileCondition(b!, st);
          return ast.operator === '&&' ? (s) => x(s) && y(s) : (s) => x(s) || y(s);
        }
        case '==': case '!=': case '<': case '>': case '<=': case '>=': {
          const e = compileMath(ast, st);
          return (s) => e(s) === true;
        }
        default:
          compileMath(ast, st);
          return () => false;
      }
    }
    default:
      // Compiled for its compile-time checks (the sandbox, syntax), never evaluated.
      compileExpr(ast, st);
      return () => false;
  }
}

export function compileExpr(ast: Ast, st: CompileState): Expr {
  switch (ast.type) {
    case 'references': {
      const subtraction = hyphenSubtraction(ast);
      if (subtraction !== undefined) return compileExpr(subtraction, st);
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
      // Velocity 1.7's grammar has no null literal: `#set($x = null)`, `$a == null`, `[null]`
      // do not parse ("Encountered "null""); a method argument is the one place 1.7 reads it
      // (references.ts). Decision V5.
      if (ast.value !== 'true' && ast.value !== 'false') {
        throw codedError('TEMPLATE_SYNTAX', 'VTL has no null literal: "null" may only be a method argument', {
          details: posDetails(ast.pos ?? st.pos),
        });
      }
      const v = ast.value === 'true';
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
  const op = ast.operator;
  if (op === 'not' || op === '!' || op === '&&' || op === '||') return compileCondition(ast, st);
  const operands = (ast.expression ?? []).map((e) => compileExpr(e, st));
  // The source text of a reference operand: what `+` with a String prints for it when it is null.
  const literals = (ast.expression ?? []).map((e) => (e.type === 'references' ? referenceText(e) : undefined));
  const [a, b] = operands as [Expr, Expr];
  const pos = ast.pos ?? (ast.expression?.[0]?.pos as Pos | undefined);
  switch (op) {
    case 'parenthesis':
      return a;
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
