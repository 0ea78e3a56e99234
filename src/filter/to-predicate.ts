// The in-memory back end of the filter AST (transforms.md §7.4 and platform-api.md §4.8 with
// the choices of docs/decisions/filter.md): the AST is compiled once into nested closures.

import { TransformsError } from '../errors.js';
import type { CompareOp, FilterNode, LeafNode } from './ast.js';
import { FilterUnsupportedError } from './errors.js';
import { fieldFor, typedOperand, unsupported, untypedOperand, validateFieldMap, type FieldMap, type Operand } from './fields.js';
import { asNumber, compareStrings, compileGetter, fold, isEmptyValue, isoInstant } from './values.js';

export type Predicate = (record: Record<string, unknown>) => boolean;

export interface PredicateOptions {
  /**
   * Declared fields (the same map compileSql takes). When given, a property outside it is
   * FILTER_FIELD, an operator it does not allow is FILTER_OPERATOR, literals are coerced to
   * the field's type and `caseSensitive` fields ignore the IgnoreCase variants.
   */
  fields?: FieldMap;
}

type Test = (value: unknown) => boolean;

/** Compile an AST into a predicate closure. join/collectionCondition/subquery: FILTER_UNSUPPORTED. */
export function compilePredicate(ast: FilterNode, options: PredicateOptions = {}): Predicate {
  for (const key of Object.keys(options)) {
    if (key !== 'fields') throw new TransformsError('FILTER_OPTION_INVALID', `unknown predicate option '${key}'`);
  }
  if (options.fields !== undefined) validateFieldMap(options.fields, false);
  return compileNode(ast, options.fields) as Predicate;
}

function compileNode(node: FilterNode, fields: FieldMap | undefined): Test {
  switch (node.kind) {
    case 'and': {
      const parts = node.children.map((c) => compileNode(c, fields));
      if (parts.length === 2) {
        const [a, b] = parts as [Test, Test];
        return (r) => a(r) && b(r);
      }
      return (r) => parts.every((p) => p(r));
    }
    case 'or': {
      const parts = node.children.map((c) => compileNode(c, fields));
      if (parts.length === 2) {
        const [a, b] = parts as [Test, Test];
        return (r) => a(r) || b(r);
      }
      return (r) => parts.some((p) => p(r));
    }
    case 'not': {
      const inner = compileNode(node.operand, fields);
      return (r) => !inner(r);
    }
    default: {
      const get = compileGetter(node.property);
      const test = compileLeaf(node, fields);
      return (r) => test(get(r));
    }
  }
}

const isNull: Test = (v) => v === undefined || v === null;

/** A leaf on a multi-valued attribute matches when any element matches. */
function anyElement(test: Test): Test {
  return (v) => (Array.isArray(v) ? v.some(test) : test(v));
}

function compileLeaf(node: LeafNode, fields: FieldMap | undefined): Test {
  const spec = fields === undefined ? undefined : fieldFor(fields, node);
  const foldCase = 'ignoreCase' in node && node.ignoreCase && spec?.caseSensitive !== true;
  const operand = (literal: Parameters<typeof untypedOperand>[0]): Operand =>
    spec === undefined ? untypedOperand(literal) : typedOperand(literal, spec.type, node);
  switch (node.kind) {
    case 'compare': {
      if (node.value.type === 'null') {
        if (node.op === 'eq') return isNull;
        if (node.op === 'ne') return (v) => !isNull(v);
        throw valueError(node, 'null can only be compared with == and !=');
      }
      const o = operand(node.value);
      if (node.op === 'eq' || node.op === 'ne') {
        const eq = anyElement(equalTo(o, foldCase));
        return node.op === 'eq' ? eq : (v) => !eq(v);
      }
      if (o.domain === 'boolean') throw valueError(node, 'booleans have no order');
      return anyElement(ordered(o, node.op, foldCase));
    }
    case 'in': {
      const withNull = node.values.some((l) => l.type === 'null');
      const operands = node.values.filter((l) => l.type !== 'null').map(operand);
      const member = memberOf(operands, foldCase);
      return withNull ? (v) => isNull(v) || member(v) : member;
    }
    case 'containsAll': {
      if (node.values.some((l) => l.type === 'null')) throw valueError(node, 'containsAll() cannot list null');
      const each = node.values.map((l) => anyElement(equalTo(operand(l), foldCase)));
      return (v) => each.every((t) => t(v));
    }
    case 'like': {
      if (node.value.type !== 'string' && node.value.type !== 'identifier') throw valueError(node, 'the pattern must be a string');
      const pattern = foldCase ? fold(node.value.value) : node.value.value;
      const matches =
        node.mode === 'start'
          ? (s: string) => s.startsWith(pattern)
          : node.mode === 'end'
            ? (s: string) => s.endsWith(pattern)
            : (s: string) => s.includes(pattern);
      return anyElement(foldCase ? (e) => typeof e === 'string' && matches(fold(e)) : (e) => typeof e === 'string' && matches(e));
    }
    case 'isNull':
      return isNull;
    case 'notNull':
    case 'present':
      return (v) => !isNull(v);
    case 'isEmpty':
      return isEmptyValue;
    default:
      throw unsupported(node);
  }
}

function valueError(node: LeafNode, message: string): FilterUnsupportedError {
  return new FilterUnsupportedError('FILTER_VALUE', `${node.property}: ${message}`, {
    property: node.property,
    start: node.range.start,
    end: node.range.end,
  });
}

/** Equality of one scalar element with an operand. */
function equalTo(o: Operand, foldCase: boolean): Test {
  switch (o.domain) {
    case 'string': {
      if (!foldCase) return (e) => e === o.text;
      const t = fold(o.text);
      return (e) => typeof e === 'string' && fold(e) === t;
    }
    case 'number':
      return (e) => asNumber(e) === o.n;
    case 'boolean': {
      const text = String(o.b);
      return (e) => e === o.b || (typeof e === 'string' && e.toLowerCase() === text);
    }
    case 'datetime':
      return (e) => isoInstant(e) === o.ms;
    case 'loose': {
      const t = foldCase ? fold(o.text) : o.text;
      return (e) => (typeof e === 'number' ? e === o.n : typeof e === 'string' && (foldCase ? fold(e) : e) === t);
    }
  }
}

const RELATIONS: Record<Exclude<CompareOp, 'eq' | 'ne'>, (c: number) => boolean> = {
  lt: (c) => c < 0,
  le: (c) => c <= 0,
  gt: (c) => c > 0,
  ge: (c) => c >= 0,
};

function sign(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `<`, `<=`, `>`, `>=` of one scalar element against an operand (never booleans). */
function ordered(o: Operand, op: CompareOp, foldCase: boolean): Test {
  const rel = RELATIONS[op as keyof typeof RELATIONS];
  switch (o.domain) {
    case 'string':
    case 'loose': {
      const t = foldCase ? fold(o.text) : o.text;
      const n = o.domain === 'loose' ? o.n : undefined;
      return (e) => {
        if (typeof e === 'string') return rel(compareStrings(foldCase ? fold(e) : e, t));
        return n !== undefined && typeof e === 'number' && rel(sign(e, n));
      };
    }
    case 'number':
      return (e) => {
        const x = asNumber(e);
        return x !== undefined && rel(sign(x, o.n));
      };
    case 'datetime':
      return (e) => {
        const x = isoInstant(e);
        return x !== undefined && rel(sign(x, o.ms));
      };
    case 'boolean':
      return () => false;
  }
}

/** `in`: any element equals any listed value; a Set when every listed value is a string. */
function memberOf(operands: Operand[], foldCase: boolean): Test {
  if (operands.every((o) => o.domain === 'string')) {
    const set = new Set(operands.map((o) => (o.domain === 'string' && foldCase ? fold(o.text) : (o as { text: string }).text)));
    return anyElement(foldCase ? (e) => typeof e === 'string' && set.has(fold(e)) : (e) => typeof e === 'string' && set.has(e));
  }
  const tests = operands.map((o) => equalTo(o, foldCase));
  return anyElement((e) => tests.some((t) => t(e)));
}
