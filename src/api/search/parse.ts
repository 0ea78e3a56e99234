// The search query language subset (https://developer.sailpoint.com/docs/api/v3/search-post; the
// platform's search is Elasticsearch query_string): `*`, `field:value`, `field:"phrase"`,
// `field:prefix*`, `field:*`, bare terms, AND / OR / NOT (upper case, as in query_string),
// parentheses. Adjacent clauses without an operator are OR'ed (query_string's default operator).
// Everything else is FILTER_SYNTAX with the position and a caret excerpt, never silently read as a
// term.

import { TransformsError } from '../../errors/index.js';
import { caretExcerpt, FilterSyntaxError } from '../../filter/index.js';

export interface SearchRange {
  readonly start: number;
  readonly end: number;
}

export type SearchNode =
  | { readonly kind: 'all'; readonly range: SearchRange }
  /** `field:value` (field null for a bare term); `prefix` for a trailing `*`. */
  | { readonly kind: 'term'; readonly field: string | null; readonly value: string; readonly phrase: boolean; readonly prefix: boolean; readonly range: SearchRange }
  /** `field:*`: the field has a non-empty value. */
  | { readonly kind: 'exists'; readonly field: string; readonly range: SearchRange }
  | { readonly kind: 'and' | 'or'; readonly children: readonly SearchNode[]; readonly range: SearchRange }
  | { readonly kind: 'not'; readonly operand: SearchNode; readonly range: SearchRange };

export interface SearchLimits {
  maxLength: number;
  maxDepth: number;
  /**
   * Terms (`field:value`, bare terms, `field:*`, `*`) per query. Each costs a comparison per
   * identity and field, and a bare term is compared with five fields, so this bounds the work of
   * one search; it also keeps the SQL well inside SQLite's expression-depth limit (1000).
   */
  maxTerms: number;
}

export const DEFAULT_SEARCH_LIMITS: Readonly<SearchLimits> = Object.freeze({ maxLength: 10_000, maxDepth: 32, maxTerms: 128 });

type Token =
  | { type: '(' | ')' | ':' | 'eof'; start: number; end: number }
  | { type: 'word'; text: string; raw: string; start: number; end: number; stars: number[] }
  | { type: 'phrase'; text: string; start: number; end: number };

/** Characters of query_string syntax this subset does not implement (ranges, boosts, fuzzy, regex). */
const UNSUPPORTED = new Set(['[', ']', '{', '}', '^', '~', '/', '<', '>', '=', '!', '?', '&', '|']);
const FIELD = /^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*$/;
const KEYWORDS = new Set(['AND', 'OR', 'NOT']);

export function parseSearchQuery(text: string, limits: SearchLimits = DEFAULT_SEARCH_LIMITS): SearchNode {
  if (typeof text !== 'string') throw new FilterSyntaxError('the query must be a string', '', 0);
  if (text.length > limits.maxLength) throw limitError(`the query is longer than ${limits.maxLength} characters`, 'maxLength', text.slice(0, 80), 0);
  return new Parser(text, limits).parse();
}

/** FILTER_LIMIT (400) with the limit's name, the position and a caret excerpt. */
function limitError(message: string, limit: keyof SearchLimits, text: string, position: number): TransformsError {
  const excerpt = caretExcerpt(text, position);
  return new TransformsError('FILTER_LIMIT', `${message} at position ${position}\n${excerpt}`, { details: { limit, position, excerpt, causes: [message] } });
}

function isStar(t: Extract<Token, { type: 'word' }>): boolean {
  return t.text === '*' && t.stars.length === 1;
}

class Parser {
  private readonly tokens: Token[];
  private i = 0;
  private depth = 0;
  private terms = 0;

  constructor(
    private readonly text: string,
    private readonly limits: SearchLimits,
  ) {
    this.tokens = this.scan();
  }

  parse(): SearchNode {
    if (this.peek().type === 'eof') this.fail(0, 'the query is empty (use * to match everything)');
    const node = this.or();
    const t = this.peek();
    if (t.type !== 'eof') this.fail(t.start, `unexpected ${this.describe(t)}`);
    return node;
  }

  private or(): SearchNode {
    const children = [this.and()];
    for (;;) {
      const t = this.peek();
      if (this.isKeyword(t, 'OR')) {
        this.i++;
        children.push(this.and());
      } else if (this.startsClause(t)) {
        children.push(this.and());
      } else break;
    }
    return this.chain('or', children);
  }

  private and(): SearchNode {
    const children = [this.unary()];
    while (this.isKeyword(this.peek(), 'AND')) {
      this.i++;
      children.push(this.unary());
    }
    return this.chain('and', children);
  }

  private unary(): SearchNode {
    const t = this.peek();
    if (this.isKeyword(t, 'NOT')) {
      this.i++;
      const operand = this.nested(() => this.unary());
      return { kind: 'not', operand, range: { start: t.start, end: operand.range.end } };
    }
    return this.primary();
  }

  private primary(): SearchNode {
    const t = this.next();
    if (t.type !== '(' && ++this.terms > this.limits.maxTerms) {
      throw limitError(`the query has more than ${this.limits.maxTerms} terms`, 'maxTerms', this.text, t.start);
    }
    if (t.type === '(') {
      const inner = this.nested(() => this.or());
      const close = this.next();
      if (close.type !== ')') this.fail(close.start, `expected ')' to close the '(' at position ${t.start}, found ${this.describe(close)}`);
      return inner;
    }
    if (t.type === 'phrase') return { kind: 'term', field: null, value: t.text, phrase: true, prefix: false, range: t };
    if (t.type !== 'word' || KEYWORDS.has(t.text)) this.fail(t.start, `expected a term, found ${this.describe(t)}`);
    if (this.peek().type !== ':') {
      if (isStar(t)) return { kind: 'all', range: t };
      return this.term(null, t, t.start);
    }
    // field:value
    if (!FIELD.test(t.raw)) this.fail(t.start, `'${t.raw}' is not a field name`);
    this.i++;
    const v = this.next();
    if (v.type === 'phrase') return { kind: 'term', field: t.raw, value: v.text, phrase: true, prefix: false, range: { start: t.start, end: v.end } };
    if (v.type !== 'word') this.fail(v.start, `expected a value after '${t.raw}:', found ${this.describe(v)}`);
    if (isStar(v)) return { kind: 'exists', field: t.raw, range: { start: t.start, end: v.end } };
    return this.term(t.raw, v, t.start);
  }

  private term(field: string | null, t: Extract<Token, { type: 'word' }>, start: number): SearchNode {
    const last = t.text.length - 1;
    const prefix = t.stars.length === 1 && t.stars[0] === last && last > 0;
    if (t.stars.length > 0 && !prefix) this.fail(t.start, "'*' is supported alone or at the end of a value (prefix) only");
    const value = prefix ? t.text.slice(0, -1) : t.text;
    return { kind: 'term', field, value, phrase: false, prefix, range: { start, end: t.end } };
  }

  private nested<T>(fn: () => T): T {
    if (++this.depth > this.limits.maxDepth) throw limitError(`the query nests deeper than ${this.limits.maxDepth} levels`, 'maxDepth', this.text, this.peek().start);
    try {
      return fn();
    } finally {
      this.depth--;
    }
  }

  private chain(kind: 'and' | 'or', children: SearchNode[]): SearchNode {
    if (children.length === 1) return children[0]!;
    return { kind, children, range: { start: children[0]!.range.start, end: children.at(-1)!.range.end } };
  }

  private startsClause(t: Token): boolean {
    return t.type === '(' || t.type === 'phrase' || (t.type === 'word' && (!KEYWORDS.has(t.text) || t.text === 'NOT'));
  }

  private isKeyword(t: Token, word: string): boolean {
    return t.type === 'word' && t.raw === word;
  }

  private peek(): Token {
    return this.tokens[this.i]!;
  }

  private next(): Token {
    const t = this.tokens[this.i]!;
    if (t.type !== 'eof') this.i++;
    return t;
  }

  private describe(t: Token): string {
    if (t.type === 'eof') return 'the end of the query';
    if (t.type === 'word') return `'${t.raw}'`;
    if (t.type === 'phrase') return 'a quoted phrase';
    return `'${t.type}'`;
  }

  private fail(position: number, message: string): never {
    throw new FilterSyntaxError(message, this.text, position);
  }

  private scan(): Token[] {
    const s = this.text;
    const out: Token[] = [];
    let p = 0;
    while (p < s.length) {
      const c = s[p]!;
      if (/\s/.test(c)) {
        p++;
      } else if (c === '(' || c === ')' || c === ':') {
        out.push({ type: c, start: p, end: p + 1 });
        p++;
      } else if (c === '"') {
        const start = p++;
        let text = '';
        for (;;) {
          if (p >= s.length) this.fail(start, 'unterminated phrase');
          const d = s[p]!;
          if (d === '"') break;
          if (d === '\\') {
            if (p + 1 >= s.length) this.fail(p, 'a backslash must escape a character');
            text += s[p + 1];
            p += 2;
            continue;
          }
          text += d;
          p++;
        }
        p++;
        out.push({ type: 'phrase', text, start, end: p });
      } else {
        const start = p;
        let text = '';
        const stars: number[] = [];
        while (p < s.length && !/[\s():"]/.test(s[p]!)) {
          const d = s[p]!;
          if (d === '\\') {
            // An escaped character is literal, even a reserved one (query_string's rule).
            if (p + 1 >= s.length) this.fail(p, 'a backslash must escape a character');
            text += s[p + 1];
            p += 2;
            continue;
          }
          if (UNSUPPORTED.has(d)) this.fail(p, `'${d}' is not supported in this query language (quote the value or escape it with \\)`);
          if ((d === '+' || d === '-') && p === start) this.fail(p, `a leading '${d}' is not supported; use AND / NOT`);
          if (d === '*') stars.push(text.length);
          text += d;
          p++;
        }
        out.push({ type: 'word', text, raw: s.slice(start, p), start, end: p, stars });
      }
    }
    out.push({ type: 'eof', start: s.length, end: s.length });
    return out;
  }
}
