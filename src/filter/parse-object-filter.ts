// The object filter language of accountFilter / accountPropertyFilter (sailpoint.object.Filter,
// https://developer.sailpoint.com/docs/extensibility/rules/java-docs; its FilterCompiler): a
// recursive-descent parser straight over the text, because identifiers may contain spaces and only
// look-ahead decides where they end.

import type { CompareOp, FilterLiteral, FilterNode, LikeMode, SourceRange } from './ast.js';
import { FilterSyntaxError, ParseMeter, parseWithLimits, type FilterLimits } from './errors.js';

const COMPARE_OPS: readonly [string, CompareOp][] = [
  ['==', 'eq'],
  ['!=', 'ne'],
  ['<=', 'le'],
  ['>=', 'ge'],
  ['<', 'lt'],
  ['>', 'gt'],
];

type MethodSpec =
  | { kind: 'like'; mode: LikeMode; ignoreCase: boolean }
  | { kind: 'in' | 'containsAll'; ignoreCase: boolean }
  | { kind: 'isNull' | 'notNull' | 'isEmpty' | 'join' | 'collectionCondition' | 'subquery' };

const METHODS: ReadonlyMap<string, MethodSpec> = new Map<string, MethodSpec>([
  ['startsWith', { kind: 'like', mode: 'start', ignoreCase: false }],
  ['startsWithIgnoreCase', { kind: 'like', mode: 'start', ignoreCase: true }],
  ['endsWith', { kind: 'like', mode: 'end', ignoreCase: false }],
  ['endsWithIgnoreCase', { kind: 'like', mode: 'end', ignoreCase: true }],
  ['contains', { kind: 'like', mode: 'anywhere', ignoreCase: false }],
  ['containsIgnoreCase', { kind: 'like', mode: 'anywhere', ignoreCase: true }],
  ['in', { kind: 'in', ignoreCase: false }],
  ['inIgnoreCase', { kind: 'in', ignoreCase: true }],
  ['containsAll', { kind: 'containsAll', ignoreCase: false }],
  ['containsAllIgnoreCase', { kind: 'containsAll', ignoreCase: true }],
  ['isNull', { kind: 'isNull' }],
  ['notNull', { kind: 'notNull' }],
  ['isEmpty', { kind: 'isEmpty' }],
  ['join', { kind: 'join' }],
  ['collectionCondition', { kind: 'collectionCondition' }],
  ['subquery', { kind: 'subquery' }],
]);

/** Characters that end an identifier word: whitespace and the grammar's punctuation. */
const NOT_IDENT = /[\s.(){},"'!&|=<>]/;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const CONSTANT = /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/y;

/** The escapes a quoted string may use; anything else after a backslash is a syntax error. */
export const STRING_ESCAPES: Readonly<Record<string, string>> = { '"': '"', "'": "'", '\\': '\\' };

/** Parse an object-filter string into the shared AST. Throws FILTER_SYNTAX or FILTER_LIMIT. */
export function parseObjectFilter(text: string, options?: FilterLimits): FilterNode {
  return parseWithLimits(text, options, (t, limits) => new ObjectFilterParser(t, limits).parse());
}

class ObjectFilterParser {
  private pos = 0;
  private readonly meter: ParseMeter;

  constructor(
    private readonly text: string,
    limits: Readonly<Required<FilterLimits>>,
  ) {
    this.meter = new ParseMeter(text, limits, 'filter');
  }

  parse(): FilterNode {
    this.skipWs();
    if (this.pos >= this.text.length) this.fail('the filter is empty');
    const node = this.parseOr();
    this.skipWs();
    if (this.pos < this.text.length) this.fail(`unexpected '${this.text[this.pos]}'`);
    return node;
  }

  private parseOr(): FilterNode {
    return this.parseChain('||', 'or', () => this.parseAnd());
  }

  private parseAnd(): FilterNode {
    return this.parseChain('&&', 'and', () => this.parseUnary());
  }

  private parseChain(token: string, kind: 'and' | 'or', operand: () => FilterNode): FilterNode {
    const first = operand();
    const children = [first];
    for (;;) {
      this.skipWs();
      if (!this.text.startsWith(token, this.pos)) break;
      this.pos += token.length;
      children.push(operand());
    }
    if (children.length === 1) return first;
    return this.meter.node({ kind, children, range: { start: first.range.start, end: children.at(-1)!.range.end } });
  }

  private parseUnary(): FilterNode {
    this.skipWs();
    const start = this.pos;
    const ch = this.text[this.pos];
    if (ch === '!' || ch === '(') {
      this.meter.enter(this.pos);
      this.pos++;
      let node: FilterNode;
      if (ch === '!') {
        const operand = this.parseUnary();
        node = this.meter.node({ kind: 'not', operand, range: { start, end: operand.range.end } });
      } else {
        const inner = this.parseOr();
        this.skipWs();
        if (this.text[this.pos] !== ')') this.fail("expected ')'");
        this.pos++;
        // A parenthesised condition's range covers its parentheses: the text it came from.
        node = { ...inner, range: this.from(start) };
      }
      this.meter.leave();
      return node;
    }
    if (this.pos >= this.text.length) this.fail('expected a condition');
    return this.parseLeaf();
  }

  private parseLeaf(): FilterNode {
    const start = this.pos;
    const segments: string[] = [this.readSegment()];
    let method: { name: string; at: number } | undefined;
    while (this.text[this.pos] === '.') {
      this.pos++;
      const at = this.pos;
      const segment = this.readSegment();
      if (this.peekAfterWs() === '(') {
        method = { name: segment, at };
        break;
      }
      segments.push(segment);
    }
    const property = segments.join('.');
    if (method !== undefined) return this.parseMethod(property, method, start);
    this.skipWs();
    const opAt = this.pos;
    const ignoreCase = this.text[this.pos] === 'i';
    if (ignoreCase) this.pos++;
    const op = COMPARE_OPS.find(([t]) => this.text.startsWith(t, this.pos));
    if (op === undefined) {
      this.pos = opAt;
      this.fail(`expected an operator or a method call after '${property}'`);
    }
    this.pos += op[0].length;
    const value = this.parseValue();
    return this.meter.node({ kind: 'compare', op: op[1], property, value, ignoreCase, range: this.from(start) });
  }

  /** One identifier segment; a space stays inside it unless what follows ends an identifier. */
  private readSegment(): string {
    const start = this.pos;
    this.readWord();
    if (this.pos === start) this.fail('expected a property name');
    for (;;) {
      let p = this.pos;
      while (p < this.text.length && /\s/.test(this.text[p]!)) p++;
      if (p === this.pos || p >= this.text.length || NOT_IDENT.test(this.text[p]!)) break;
      // `name i== "x"`: an `i` glued to a comparison operator is the operator, not a word.
      if (this.text[p] === 'i' && /[=!<>]/.test(this.text[p + 1] ?? '')) break;
      this.pos = p;
      this.readWord();
    }
    return this.text.slice(start, this.pos);
  }

  private readWord(): void {
    while (this.pos < this.text.length && !NOT_IDENT.test(this.text[this.pos]!)) this.pos++;
  }

  private parseMethod(property: string, method: { name: string; at: number }, start: number): FilterNode {
    const spec = METHODS.get(method.name);
    if (spec === undefined) {
      this.pos = method.at;
      this.fail(`unknown method '${method.name}'`);
    }
    this.skipWs();
    this.pos++; // the '(' seen by peekAfterWs
    let node: FilterNode;
    switch (spec.kind) {
      case 'like': {
        const value = this.parseValue();
        if (value.type !== 'string') this.failAt(this.lastValueStart, `${method.name}() takes a string`);
        node = { kind: 'like', mode: spec.mode, property, value, ignoreCase: spec.ignoreCase, range: { start, end: 0 } };
        break;
      }
      case 'in':
      case 'containsAll':
        node = { kind: spec.kind, property, values: this.parseList(), ignoreCase: spec.ignoreCase, range: { start, end: 0 } };
        break;
      case 'isNull':
      case 'notNull':
      case 'isEmpty':
        node = { kind: spec.kind, property, range: { start, end: 0 } };
        break;
      case 'join': {
        this.skipWs();
        const at = this.pos;
        CONSTANT.lastIndex = at;
        const m = CONSTANT.exec(this.text);
        if (m === null || !m[0].includes('.')) this.fail('join() takes ClassName.propertyName');
        this.pos = at + m[0].length;
        node = { kind: 'join', property, target: m[0], range: { start, end: 0 } };
        break;
      }
      case 'collectionCondition': {
        const value = this.parseValue();
        if (value.type !== 'string') this.failAt(this.lastValueStart, 'collectionCondition() takes the element filter as a string');
        node = { kind: 'collectionCondition', property, condition: value.value, range: { start, end: 0 } };
        break;
      }
      case 'subquery': {
        const args = [this.parseValue()];
        while (this.peekAfterWs() === ',') {
          this.skipWs();
          this.pos++;
          args.push(this.parseValue());
        }
        if (args.length !== 4) this.fail(`subquery() takes 4 arguments, not ${args.length}`);
        node = { kind: 'subquery', property, args, range: { start, end: 0 } };
        break;
      }
    }
    this.skipWs();
    if (this.text[this.pos] !== ')') this.fail(`expected ')' to close ${method.name}(`);
    this.pos++;
    return this.meter.node({ ...node, range: this.from(start) });
  }

  /** `{ v, v, … }` — an empty list is allowed (nothing is in it). */
  private parseList(): FilterLiteral[] {
    this.skipWs();
    if (this.text[this.pos] !== '{') this.fail("expected '{' to open a list");
    this.pos++;
    const values: FilterLiteral[] = [];
    if (this.peekAfterWs() === '}') {
      this.skipWs();
      this.pos++;
      return values;
    }
    for (;;) {
      values.push(this.parseValue());
      this.skipWs();
      const ch = this.text[this.pos];
      this.pos++;
      if (ch === '}') return values;
      if (ch !== ',') {
        this.pos--;
        this.fail("expected ',' or '}' in the list");
      }
    }
  }

  private lastValueStart = 0;

  private parseValue(): FilterLiteral {
    this.skipWs();
    const start = (this.lastValueStart = this.pos);
    const ch = this.text[this.pos];
    if (ch === '"' || ch === "'") return { type: 'string', value: this.readString(ch) };
    NUMBER.lastIndex = start;
    const num = NUMBER.exec(this.text);
    if (num !== null) {
      this.pos = start + num[0].length;
      if (this.pos < this.text.length && !NOT_IDENT.test(this.text[this.pos]!)) this.fail('malformed number');
      const value = Number(num[0]);
      if (!Number.isFinite(value)) this.failAt(start, 'number out of range');
      return { type: 'number', value };
    }
    CONSTANT.lastIndex = start;
    const word = CONSTANT.exec(this.text);
    if (word === null) this.fail('expected a value');
    this.pos = start + word[0].length;
    switch (word[0]) {
      case 'true':
      case 'false':
        return { type: 'boolean', value: word[0] === 'true' };
      case 'null':
        return { type: 'null' };
      default:
        return { type: 'identifier', value: word[0] };
    }
  }

  private readString(quote: string): string {
    const start = this.pos;
    this.pos++;
    let out = '';
    for (;;) {
      if (this.pos >= this.text.length) this.failAt(start, 'unterminated string');
      const c = this.text[this.pos]!;
      if (c === quote) {
        this.pos++;
        return out;
      }
      if (c === '\\') {
        const escaped = STRING_ESCAPES[this.text[this.pos + 1] ?? ''];
        if (escaped === undefined) this.fail('invalid escape in string (only \\", \\\' and \\\\ are allowed)');
        out += escaped;
        this.pos += 2;
      } else {
        out += c;
        this.pos++;
      }
    }
  }



  private from(start: number): SourceRange {
    return { start, end: this.pos };
  }

  private skipWs(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  private peekAfterWs(): string | undefined {
    let p = this.pos;
    while (p < this.text.length && /\s/.test(this.text[p]!)) p++;
    return this.text[p];
  }

  private fail(message: string): never {
    throw new FilterSyntaxError(message, this.text, this.pos);
  }

  private failAt(position: number, message: string): never {
    throw new FilterSyntaxError(message, this.text, position);
  }
}
