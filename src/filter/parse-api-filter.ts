// The collection `filters` language (SailPoint "Standard Collection Parameters",
// https://developer.sailpoint.com/docs/api/standard-collection-parameters): lowercase operators,
// prefix `pr`, postfix `isnull`, not > and > or.

import type { CompareOp, FilterLiteral, FilterNode, LikeMode } from './ast.js';
import { FilterSyntaxError, ParseMeter, parseWithLimits, type FilterLimits } from './errors.js';
import { isoInstant } from './values.js';

type Token =
  | { type: 'punct'; text: '(' | ')' | ','; start: number; end: number }
  | { type: 'string'; value: string; start: number; end: number }
  | { type: 'word'; text: string; start: number; end: number }
  | { type: 'eof'; start: number; end: number };

const COMPARE: Readonly<Record<string, CompareOp>> = { eq: 'eq', ne: 'ne', gt: 'gt', ge: 'ge', lt: 'lt', le: 'le' };
const LIKE: Readonly<Record<string, LikeMode>> = { co: 'anywhere', sw: 'start' };
const OPERATORS = new Set(['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'co', 'sw', 'in', 'ca', 'pr', 'isnull', 'and', 'or', 'not']);

/** A field path: dot-separated identifiers (`identitySummary.id`). */
export const API_ATTRIBUTE = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}/;

/** Parse a collection `filters` value into the shared AST. Throws FILTER_SYNTAX or FILTER_LIMIT. */
export function parseApiFilter(text: string, options?: FilterLimits): FilterNode {
  return parseWithLimits(text, options, (t, limits) => new ApiFilterParser(t, limits).parse());
}

class ApiFilterParser {
  private pos = 0;
  private token: Token;
  private readonly meter: ParseMeter;

  constructor(
    private readonly text: string,
    limits: Readonly<Required<FilterLimits>>,
  ) {
    this.meter = new ParseMeter(text, limits, 'filter');
    this.token = this.scan();
  }

  parse(): FilterNode {
    if (this.atEnd()) this.fail('the filter is empty');
    const node = this.parseOr();
    if (!this.atEnd()) this.fail(`unexpected ${this.describe()}`);
    return node;
  }

  private parseOr(): FilterNode {
    return this.parseChain('or', () => this.parseAnd());
  }

  private parseAnd(): FilterNode {
    return this.parseChain('and', () => this.parseNot());
  }

  private parseChain(keyword: 'and' | 'or', operand: () => FilterNode): FilterNode {
    const first = operand();
    const children = [first];
    while (this.isWord(keyword)) {
      this.advance();
      children.push(operand());
    }
    if (children.length === 1) return first;
    return this.meter.node({ kind: keyword, children, range: { start: first.range.start, end: children.at(-1)!.range.end } });
  }

  private parseNot(): FilterNode {
    const start = this.token.start;
    if (this.isWord('not')) {
      this.meter.enter(this.token.start);
      this.advance();
      const operand = this.parseNot();
      this.meter.leave();
      return this.meter.node({ kind: 'not', operand, range: { start, end: operand.range.end } });
    }
    if (this.token.type === 'punct' && this.token.text === '(') {
      this.meter.enter(this.token.start);
      this.advance();
      const inner = this.parseOr();
      this.expectPunct(')');
      this.meter.leave();
      // A parenthesised condition's range covers its parentheses: the text it came from.
      return { ...inner, range: { start, end: this.lastEnd } };
    }
    return this.parseLeaf();
  }

  private parseLeaf(): FilterNode {
    const start = this.token.start;
    this.meter.term(start);
    if (this.isWord('pr')) {
      this.advance();
      const property = this.attribute();
      return this.meter.node({ kind: 'present', property, range: { start, end: this.lastEnd } });
    }
    const property = this.attribute();
    const op = this.token;
    if (op.type !== 'word') this.fail(`expected an operator after '${property}'`);
    if (!OPERATORS.has(op.text)) {
      const hint = OPERATORS.has(op.text.toLowerCase()) ? ` (operators are lowercase: '${op.text.toLowerCase()}')` : '';
      this.fail(`unknown operator '${op.text}'${hint}`);
    }
    this.advance();
    if (op.text === 'isnull') return this.meter.node({ kind: 'isNull', property, range: { start, end: this.lastEnd } });
    if (op.text === 'in' || op.text === 'ca') {
      const values = this.list();
      const kind = op.text === 'in' ? 'in' : 'containsAll';
      return this.meter.node({ kind, property, values, ignoreCase: true, range: { start, end: this.lastEnd } });
    }
    const mode = LIKE[op.text];
    if (mode !== undefined) {
      const at = this.token.start;
      const value = this.value();
      if (value.type !== 'string') this.failAt(at, `'${op.text}' takes a quoted string`);
      return this.meter.node({ kind: 'like', mode, property, value, ignoreCase: true, range: { start, end: this.lastEnd } });
    }
    const cmp = COMPARE[op.text];
    if (cmp === undefined) this.failAt(op.start, `'${op.text}' cannot follow a field`);
    const value = this.value();
    return this.meter.node({ kind: 'compare', op: cmp, property, value, ignoreCase: true, range: { start, end: this.lastEnd } });
  }

  private attribute(): string {
    const t = this.token;
    if (t.type !== 'word' || OPERATORS.has(t.text)) this.fail(`expected a field name, found ${this.describe()}`);
    if (!API_ATTRIBUTE.test(t.text)) this.fail(`'${t.text}' is not a field name`);
    this.advance();
    return t.text;
  }

  private list(): FilterLiteral[] {
    this.expectPunct('(');
    const values = [this.value()];
    while (this.token.type === 'punct' && this.token.text === ',') {
      this.advance();
      values.push(this.value());
    }
    this.expectPunct(')');
    return values;
  }

  private value(): FilterLiteral {
    const t = this.token;
    if (t.type === 'string') {
      this.advance();
      return { type: 'string', value: t.value };
    }
    if (t.type !== 'word' || OPERATORS.has(t.text)) this.fail(`expected a value, found ${this.describe()}`);
    let literal: FilterLiteral;
    if (t.text === 'true' || t.text === 'false') literal = { type: 'boolean', value: t.text === 'true' };
    else if (t.text === 'null') literal = { type: 'null' };
    else if (DATE_LIKE.test(t.text)) {
      if (isoInstant(t.text) === undefined) this.fail(`'${t.text}' is not an ISO 8601 date-time with a zone`);
      literal = { type: 'datetime', value: t.text };
    } else if (NUMBER.test(t.text)) {
      const value = Number(t.text);
      if (!Number.isFinite(value)) this.fail('number out of range');
      literal = { type: 'number', value };
    } else if (API_ATTRIBUTE.test(t.text)) literal = { type: 'identifier', value: t.text };
    else this.fail(`'${t.text}' is not a value (strings need double quotes)`);
    this.advance();
    return literal;
  }

  private expectPunct(text: '(' | ')'): void {
    if (this.token.type !== 'punct' || this.token.text !== text) this.fail(`expected '${text}', found ${this.describe()}`);
    this.advance();
  }

  private atEnd(): boolean {
    return this.token.type === 'eof';
  }

  private isWord(text: string): boolean {
    return this.token.type === 'word' && this.token.text === text;
  }

  private lastEnd = 0;

  private advance(): void {
    this.lastEnd = this.token.end;
    this.token = this.scan();
  }

  private scan(): Token {
    const s = this.text;
    while (this.pos < s.length && /\s/.test(s[this.pos]!)) this.pos++;
    const start = this.pos;
    if (start >= s.length) return { type: 'eof', start, end: start };
    const c = s[start]!;
    if (c === '(' || c === ')' || c === ',') {
      this.pos++;
      return { type: 'punct', text: c, start, end: this.pos };
    }
    if (c === '"') return this.scanString(start);
    while (this.pos < s.length && !/[\s(),"]/.test(s[this.pos]!)) this.pos++;
    return { type: 'word', text: s.slice(start, this.pos), start, end: this.pos };
  }

  /** A double-quoted string; the only escapes are \" and \\ (standard collection parameters). */
  private scanString(start: number): Token {
    const s = this.text;
    let out = '';
    let p = start + 1;
    for (;;) {
      if (p >= s.length) this.failAt(start, 'unterminated string');
      const c = s[p]!;
      if (c === '"') break;
      if (c === '\\') {
        const next = s[p + 1];
        if (next !== '"' && next !== '\\') this.failAt(p, 'invalid escape in string (only \\" and \\\\ are allowed)');
        out += next;
        p += 2;
      } else {
        out += c;
        p++;
      }
    }
    this.pos = p + 1;
    return { type: 'string', value: out, start, end: this.pos };
  }

  private describe(): string {
    const t = this.token;
    if (t.type === 'eof') return 'the end of the filter';
    if (t.type === 'string') return 'a string';
    return `'${t.text}'`;
  }



  private fail(message: string): never {
    throw new FilterSyntaxError(message, this.text, this.token.start);
  }

  private failAt(position: number, message: string): never {
    throw new FilterSyntaxError(message, this.text, position);
  }
}
