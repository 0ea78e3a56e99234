// The in-memory back end of the filter AST (sailpoint.object.Filter semantics and the collection
// `filters` of https://developer.sailpoint.com/docs/api/standard-collection-parameters, with the
// choices of docs/decisions.md). Like ajv, it compiles once into JavaScript source and builds one
// function per filter: each filter gets its own code, so V8 keeps every property load and
// comparison monomorphic (shared closures were 2.5× a hand-written predicate; see
// docs/bench-filter.md). Only fixed templates, generated names, JSON string literals and finite
// numbers enter the source; everything else is passed in `c`.

import { TransformsError } from '../errors/index.js';
import type { CompareOp, FilterLiteral, FilterNode, LeafNode } from './ast.js';
import { FilterUnsupportedError, limitError } from './errors.js';
import { fieldFor, typedOperand, unsupported, untypedOperand, validateFieldMap, type FieldMap, type Operand } from './fields.js';
import { asNumber, compareStrings, compileGetter, isEmptyValue, isoInstant } from './values.js';

export type Predicate = (record: Record<string, unknown>) => boolean;

export interface PredicateOptions {
  /**
   * Declared fields (the same map compileSql takes). When given, a property outside it is
   * FILTER_FIELD, an operator it does not allow is FILTER_OPERATOR, literals are coerced to
   * the field's type and `caseSensitive` fields ignore the IgnoreCase variants.
   */
  fields?: FieldMap;
}

/** Helpers the generated code calls, passed as `h`. */
const HELPERS = { num: asNumber, time: isoInstant, cmp: compareStrings, empty: isEmptyValue, EMPTY: Object.freeze({}) };

/** Compile an AST into a predicate. join/collectionCondition/subquery: FILTER_UNSUPPORTED. */
export function compilePredicate(ast: FilterNode, options: PredicateOptions = {}): Predicate {
  for (const key of Object.keys(options)) {
    if (key !== 'fields') throw new TransformsError('FILTER_OPTION_INVALID', `unknown predicate option '${key}'`);
  }
  if (options.fields !== undefined) validateFieldMap(options.fields, false);
  const gen = new Generator(options.fields);
  let body: string;
  let factory: (c: unknown[], h: typeof HELPERS) => Predicate;
  try {
    const expr = gen.node(ast);
    body = `'use strict';\n${gen.decls.join('\n')}\nreturn function filterPredicate(r) {\n  if (r === null || typeof r !== 'object') r = h.EMPTY;\n  return ${expr};\n};`;
    factory = new Function('c', 'h', body) as typeof factory;
  } catch (err) {
    // A hand-built AST nested deeper than the generator or V8's parser can follow.
    if (err instanceof RangeError || err instanceof SyntaxError) throw limitError('the filter nests too deeply to compile', 'maxDepth', 0);
    throw err;
  }
  return factory(gen.constants, HELPERS);
}

const REL: Readonly<Record<Exclude<CompareOp, 'eq' | 'ne'>, string>> = { lt: '<', le: '<=', gt: '>', ge: '>=' };

/** A JavaScript string literal for any string: JSON is a subset of JavaScript (ES2019). */
const js = (text: string): string => JSON.stringify(text);
const jsNumber = (n: number): string => (Object.is(n, -0) ? '-0' : String(n));

class Generator {
  readonly decls: string[] = [];
  readonly constants: unknown[] = [];
  private leaves = 0;

  constructor(private readonly fields: FieldMap | undefined) {}

  node(node: FilterNode): string {
    switch (node.kind) {
      case 'and':
      case 'or':
        return `(${node.children.map((c) => this.node(c)).join(node.kind === 'and' ? ' && ' : ' || ')})`;
      case 'not':
        return `!${this.node(node.operand)}`;
      default:
        return this.leaf(node);
    }
  }

  private constant(value: unknown): string {
    this.constants.push(value);
    return `c[${this.constants.length - 1}]`;
  }

  /** Declare `function lN(r)` computing the leaf, and return its call. */
  private leaf(node: LeafNode): string {
    const id = this.leaves++;
    const spec = this.fields === undefined ? undefined : fieldFor(this.fields, node);
    const foldCase = 'ignoreCase' in node && node.ignoreCase && spec?.caseSensitive !== true;
    const operand = (literal: FilterLiteral): Operand =>
      spec === undefined ? untypedOperand(literal) : typedOperand(literal, spec.type, node);
    const test = this.test(node, operand, foldCase, id);
    this.decls.push(`function l${id}(r) {\n  const v = ${this.getter(node.property)};\n  return ${test};\n}`);
    return `l${id}(r)`;
  }

  /** Reading a property: see compileGetter (literal key first, then the dotted path). */
  private getter(property: string): string {
    if (!property.includes('.') && !(property in Object.prototype)) return `r[${js(property)}]`;
    return `${this.constant(compileGetter(property))}(r)`;
  }

  /** Declare an element test `tN(e)` and return the "any element" expression over `v`. */
  private anyElement(id: string, elementTest: string): string {
    this.decls.push(`function t${id}(e) {\n  return ${elementTest};\n}`);
    return `(Array.isArray(v) ? v.some(t${id}) : t${id}(v))`;
  }

  private test(node: LeafNode, operand: (l: FilterLiteral) => Operand, foldCase: boolean, id: number): string {
    switch (node.kind) {
      case 'compare': {
        if (node.value.type === 'null') {
          if (node.op === 'eq') return 'v == null';
          if (node.op === 'ne') return 'v != null';
          throw valueError(node, 'null can only be compared with == and !=');
        }
        const o = operand(node.value);
        if (node.op === 'eq' || node.op === 'ne') {
          const eq = this.equal(o, foldCase, `${id}`);
          return node.op === 'eq' ? eq : `!${eq}`;
        }
        if (o.domain === 'boolean') throw valueError(node, 'booleans have no order');
        return this.anyElement(`${id}`, this.ordered(o, REL[node.op], foldCase));
      }
      case 'in': {
        const withNull = node.values.some((l) => l.type === 'null');
        const operands = node.values.filter((l) => l.type !== 'null').map(operand);
        let member: string;
        if (operands.every((o) => o.domain === 'string')) {
          const set = this.constant(new Set(operands.map((o) => (o.domain === 'string' ? (foldCase ? o.text.toLowerCase() : o.text) : ''))));
          member = this.anyElement(`${id}`, `typeof e === 'string' && ${set}.has(${foldCase ? 'e.toLowerCase()' : 'e'})`);
        } else {
          const tests = operands.map((o) => this.elementEqual(o, foldCase));
          member = tests.length === 0 ? 'false' : this.anyElement(`${id}`, tests.map((t) => `(${t})`).join(' || '));
        }
        return withNull ? `(v == null || ${member})` : member;
      }
      case 'containsAll': {
        if (node.values.some((l) => l.type === 'null')) throw valueError(node, 'containsAll() cannot list null');
        if (node.values.length === 0) return 'true';
        return node.values.map((l, i) => this.equal(operand(l), foldCase, `${id}_${i}`)).join(' && ');
      }
      case 'like': {
        if (node.value.type !== 'string' && node.value.type !== 'identifier') throw valueError(node, 'the pattern must be a string');
        const pattern = js(foldCase ? node.value.value.toLowerCase() : node.value.value);
        const method = node.mode === 'start' ? 'startsWith' : node.mode === 'end' ? 'endsWith' : 'includes';
        return this.anyElement(`${id}`, `typeof e === 'string' && e${foldCase ? '.toLowerCase()' : ''}.${method}(${pattern})`);
      }
      case 'isNull':
        return 'v == null';
      case 'notNull':
      case 'present':
        return 'v != null';
      case 'isEmpty':
        return 'h.empty(v)';
      default:
        throw unsupported(node);
    }
  }

  /** "Some element equals the operand", with a fast path for exact strings. */
  private equal(o: Operand, foldCase: boolean, id: string): string {
    if (o.domain === 'string' && !foldCase) {
      const s = js(o.text);
      return `(v === ${s} || (Array.isArray(v) && v.includes(${s})))`;
    }
    return this.anyElement(id, this.elementEqual(o, foldCase));
  }

  /** Equality of one scalar element `e` with an operand. */
  private elementEqual(o: Operand, foldCase: boolean): string {
    switch (o.domain) {
      case 'string':
        return foldCase ? `typeof e === 'string' && e.toLowerCase() === ${js(o.text.toLowerCase())}` : `e === ${js(o.text)}`;
      case 'number':
        return `(typeof e === 'number' ? e === ${jsNumber(o.n)} : h.num(e) === ${jsNumber(o.n)})`;
      case 'boolean':
        return `(e === ${o.b} || (typeof e === 'string' && e.toLowerCase() === ${js(String(o.b))}))`;
      case 'datetime':
        return `h.time(e) === ${jsNumber(o.ms)}`;
      case 'loose': {
        const text = js(foldCase ? o.text.toLowerCase() : o.text);
        return `(typeof e === 'number' ? e === ${jsNumber(o.n)} : typeof e === 'string' && e${foldCase ? '.toLowerCase()' : ''} === ${text})`;
      }
    }
  }

  /** `e REL operand` for one scalar element (never booleans). */
  private ordered(o: Operand, rel: string, foldCase: boolean): string {
    switch (o.domain) {
      case 'string':
      case 'loose': {
        const text = js(foldCase ? o.text.toLowerCase() : o.text);
        const strings = `h.cmp(e${foldCase ? '.toLowerCase()' : ''}, ${text}) ${rel} 0`;
        if (o.domain === 'string') return `typeof e === 'string' && ${strings}`;
        return `(typeof e === 'string' ? ${strings} : typeof e === 'number' && e ${rel} ${jsNumber(o.n)})`;
      }
      case 'number':
        return `(typeof e === 'number' ? e ${rel} ${jsNumber(o.n)} : (e = h.num(e)) !== undefined && e ${rel} ${jsNumber(o.n)})`;
      case 'datetime':
        return `(e = h.time(e)) !== undefined && e ${rel} ${jsNumber(o.ms)}`;
      case 'boolean':
        return 'false';
    }
  }
}

function valueError(node: LeafNode, message: string): FilterUnsupportedError {
  return new FilterUnsupportedError('FILTER_VALUE', `${node.property}: ${message}`, {
    property: node.property,
    start: node.range.start,
    end: node.range.end,
  });
}
