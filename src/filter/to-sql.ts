// The SQLite back end of the filter AST
// (https://developer.sailpoint.com/docs/api/standard-collection-parameters: a field or operator the
// endpoint does not list is a 400). Values are always bound parameters, never interpolated. Case
// folding and ISO instants go through registered functions that run the very code the predicate
// runs, so a WHERE clause and compilePredicate agree on every record.
//
// A field with a `foldedColumn` ignores case without calling JavaScript per row. That column
// holds the value when it is ASCII and fold(value) otherwise, and is declared COLLATE NOCASE;
// NOCASE folds A–Z only, which is exactly what fold does to ASCII, and fold(value) and a folded
// literal hold no A–Z at all. So for every row, comparing the column with NOCASE to the folded
// literal gives what comparing fold(value) to it gives (equality and code-point order alike),
// and SQLite's `lower()` (A–Z only, no ICU) of the column is fold(value) itself. Unicode
// folding that is not character by character (İ → i̇, a final Σ → ς, K → k) was done by fold
// when the column was written. The comparisons use the column's own collation, so an index on
// it serves `eq`, `in` and `sw` (as a range).

import { TransformsError } from '../errors/index.js';
import type { CompareOp, FilterLiteral, FilterNode, LeafNode } from './ast.js';
import { FilterUnsupportedError } from './errors.js';
import { fieldFor, typedOperand, unsupported, validateFieldMap, type FieldMap, type FieldSpec, type Operand } from './fields.js';
import { fold, isoInstant } from './values.js';

export type SqlParam = string | number;

export interface SqlWhere {
  /** A boolean SQL expression for a WHERE clause, with `?` placeholders. */
  readonly text: string;
  /** The placeholder values, in order. */
  readonly params: readonly SqlParam[];
}

/** The functions compiled SQL may call; register them on a connection with registerSqlFunctions. */
export const SQL_FUNCTIONS = {
  /** filter_fold(text) → the text case-folded exactly as the predicate folds it. */
  filter_fold: (value: unknown): unknown => (typeof value === 'string' ? fold(value) : value),
  /** filter_time(text) → milliseconds since the epoch of an ISO 8601 value, else NULL. */
  filter_time: (value: unknown): number | null => isoInstant(value) ?? null,
} as const;

/** The part of a better-sqlite3 Database this module needs. */
export interface SqlFunctionHost {
  function(name: string, options: { deterministic: boolean }, fn: (value: unknown) => unknown): unknown;
}

/** Register filter_fold and filter_time on a better-sqlite3 connection (once per connection). */
export function registerSqlFunctions(db: SqlFunctionHost): void {
  for (const [name, fn] of Object.entries(SQL_FUNCTIONS)) db.function(name, { deterministic: true }, fn);
}

/**
 * Compile an AST to a parameterized WHERE expression over the declared fields. Throws
 * FILTER_FIELD, FILTER_OPERATOR, FILTER_VALUE, or FILTER_UNSUPPORTED (join, …).
 */
export function compileSql(ast: FilterNode, fields: FieldMap): SqlWhere {
  validateFieldMap(fields, true);
  const params: SqlParam[] = [];
  const text = new SqlCompiler(fields, params).node(ast);
  return { text, params };
}

const SQL_OPS: Readonly<Record<CompareOp, string>> = { eq: '=', ne: '=', lt: '<', le: '<=', gt: '>', ge: '>=' };

class SqlCompiler {
  constructor(
    private readonly fields: FieldMap,
    private readonly params: SqlParam[],
  ) {}

  node(node: FilterNode): string {
    switch (node.kind) {
      case 'and':
      case 'or':
        return `(${node.children.map((c) => this.node(c)).join(node.kind === 'and' ? ' AND ' : ' OR ')})`;
      case 'not':
        // Leaves are NULL at worst, never "true by accident": COALESCE makes NOT two-valued.
        return `(NOT COALESCE(${this.node(node.operand)}, 0))`;
      default:
        return this.leaf(node);
    }
  }

  private leaf(node: LeafNode): string {
    const spec = fieldFor(this.fields, node);
    const x = this.column(spec);
    const multi = spec.type === 'strings';
    const foldCase = 'ignoreCase' in node && node.ignoreCase && spec.caseSensitive !== true && (spec.type === 'string' || multi);
    if (foldCase && spec.foldedColumn !== undefined && !multi) {
      const folded = this.folded(node, `"${spec.foldedColumn}"`, x);
      if (folded !== null) return folded;
    }
    // `each(test)` applies an element test to the value, or to any element of a list value.
    const each = (test: (v: string) => string): string =>
      multi ? `EXISTS (SELECT 1 FROM json_each(${x}) WHERE ${test('value')})` : `(${test(x)})`;
    switch (node.kind) {
      case 'compare': {
        if (node.value.type === 'null') {
          if (node.op === 'eq') return `(${x} IS NULL)`;
          if (node.op === 'ne') return `(${x} IS NOT NULL)`;
          throw this.valueError(node, 'null can only be compared with == and !=');
        }
        const o = typedOperand(node.value, spec.type, node);
        const test = each((v) => this.compare(v, o, node.op, foldCase, spec.indexedText === true && !multi));
        return node.op === 'ne' ? `(NOT COALESCE(${test}, 0))` : test;
      }
      case 'in':
        return this.inList(node, x, (literals) => each((v) => `${this.cast(v, spec, foldCase)} COLLATE BINARY IN (${this.bindAll(literals, spec, node, foldCase)})`));
      case 'containsAll': {
        if (node.values.some((l) => l.type === 'null')) throw this.valueError(node, 'containsAll() cannot list null');
        if (node.values.length === 0) return '(1)';
        const parts = node.values.map((l) => {
          const o = typedOperand(l, spec.type, node);
          return each((v) => this.compare(v, o, 'eq', foldCase));
        });
        return `(${parts.join(' AND ')})`;
      }
      case 'like': {
        if (node.value.type !== 'string' && node.value.type !== 'identifier') throw this.valueError(node, 'the pattern must be a string');
        const pattern = foldCase ? fold(node.value.value) : node.value.value;
        return each((v) => {
          const subject = foldCase ? `filter_fold(${v})` : v;
          // An empty pattern matches every string; instr/substr would need special cases.
          if (pattern === '') return `typeof(${v}) = 'text'`;
          if (node.mode === 'start') return `instr(${subject}, ${this.param(pattern)}) = 1`;
          if (node.mode === 'anywhere') return `instr(${subject}, ${this.param(pattern)}) > 0`;
          return `substr(${subject}, ${this.param(-[...pattern].length)}) = ${this.param(pattern)} COLLATE BINARY`;
        });
      }
      case 'isNull':
        return `(${x} IS NULL)`;
      case 'notNull':
      case 'present':
        return `(${x} IS NOT NULL)`;
      case 'isEmpty':
        if (spec.type === 'string') return `(${x} IS NULL OR ${x} = '')`;
        if (multi) return `(${x} IS NULL OR json_array_length(${x}) = 0)`;
        return `(${x} IS NULL)`;
      default:
        throw unsupported(node);
    }
  }

  /**
   * A case-ignoring leaf over a folded column `k` (see the top of this file); null for the
   * leaves that do not compare strings, which the generic code compiles.
   */
  private folded(node: LeafNode, k: string, x: string): string | null {
    // NOCASE stops comparing at a NUL (a\0b = a\0c): a literal holding one takes the generic
    // path. A key holding one still compares right with a literal that does not (at the key's
    // NUL the literal has a greater character, or has ended).
    const literals = node.kind === 'compare' || node.kind === 'like' ? [node.value] : node.kind === 'in' || node.kind === 'containsAll' ? node.values : [];
    if (literals.some((l) => (l.type === 'string' || l.type === 'identifier') && l.value.includes('\0'))) return null;
    switch (node.kind) {
      case 'compare': {
        if (node.value.type === 'null') return null;
        const o = typedOperand(node.value, 'string', node);
        if (o.domain !== 'string') return null;
        const test = `(${k} ${SQL_OPS[node.op]} ${this.param(fold(o.text))} COLLATE NOCASE)`;
        return node.op === 'ne' ? `(NOT COALESCE(${test}, 0))` : test;
      }
      case 'in':
        return this.inList(node, x, (literals) => `(${k} COLLATE NOCASE IN (${this.bindAll(literals, { type: 'string' }, node, true)}))`);
      case 'containsAll': {
        if (node.values.some((l) => l.type === 'null') || node.values.length === 0) return null;
        return `(${node.values.map((l) => `${k} = ${this.param(this.bind(l, { type: 'string' }, node, true))} COLLATE NOCASE`).join(' AND ')})`;
      }
      case 'like': {
        if (node.value.type !== 'string' && node.value.type !== 'identifier') return null;
        const pattern = fold(node.value.value);
        if (pattern === '') return null;
        if (node.mode === 'anywhere') return `(instr(lower(${k}), ${this.param(pattern)}) > 0)`;
        if (node.mode === 'end') return `(substr(lower(${k}), ${this.param(-[...pattern].length)}) = ${this.param(pattern)} COLLATE BINARY)`;
        // A prefix is a range of the NOCASE order, which an index walks, and the range is the
        // test: NOCASE orders keys as their lower() in code-point order, and the folded pattern
        // holds no A–Z. instr() is still needed where the upper bound is looser, being folded
        // too ('@' + 1 is 'A', read as 'a'), or missing (after U+10FFFF).
        const upper = prefixUpperBound(pattern);
        const range = `${k} >= ${this.param(pattern)} COLLATE NOCASE${upper === null ? '' : ` AND ${k} < ${this.param(upper)} COLLATE NOCASE`}`;
        if (upper !== null && !/[A-Z]$/.test(upper)) return `(${range})`;
        return `(${range} AND instr(lower(${k}), ${this.param(pattern)}) = 1)`;
      }
      default:
        return null;
    }
  }

  /**
   * `x in (…)`: a null in the list matches a missing value (`x IS NULL`), and `test` matches the
   * other literals, bound as it binds them; an empty list matches nothing.
   */
  private inList(node: Extract<LeafNode, { kind: 'in' }>, x: string, test: (literals: readonly FilterLiteral[]) => string): string {
    const literals = node.values.filter((l) => l.type !== 'null');
    const parts: string[] = [];
    if (literals.length < node.values.length) parts.push(`${x} IS NULL`);
    if (literals.length > 0) parts.push(test(literals));
    return parts.length === 0 ? '(0)' : `(${parts.join(' OR ')})`;
  }

  /** The placeholders of an `in` list's literals, each bound in the field's domain. */
  private bindAll(literals: readonly FilterLiteral[], spec: Pick<FieldSpec, 'type'>, node: LeafNode, foldCase: boolean): string {
    return literals.map((l) => this.param(this.bind(l, spec, node, foldCase))).join(', ');
  }

  /** One scalar comparison `v OP operand`; NULL (never true) when v is NULL. */
  private compare(v: string, o: Operand, op: CompareOp, foldCase: boolean, indexedText = false): string {
    const sqlOp = SQL_OPS[op];
    switch (o.domain) {
      case 'string':
      case 'loose':
        return `${foldCase ? `filter_fold(${v})` : v} ${sqlOp} ${this.param(foldCase ? fold(o.text) : o.text)} COLLATE BINARY`;
      case 'number':
        return `${v} ${sqlOp} ${this.param(o.n)}`;
      case 'boolean':
        return `${v} ${sqlOp} ${this.param(o.b ? 1 : 0)}`;
      case 'datetime': {
        const range = indexedText ? this.textRange(v, o.ms, op) : '';
        return `${range}filter_time(${v}) ${sqlOp} ${this.param(o.ms)}`;
      }
    }
  }

  /**
   * A text range holding every ISO 8601 value that can compare `op` with the instant `ms`, as
   * conditions an index on the text serves (`x >= ? AND `, or ''). A value the ISO grammar reads
   * begins with its local date `YYYY-MM-DD`, less than a day from its UTC date (an offset is at
   * most ±23:59), so an instant at or after `ms` has a text at or after the date of `ms` − 1 day,
   * and one at or before it a text before the date of `ms` + 2 days. The exact test follows.
   */
  private textRange(v: string, ms: number, op: CompareOp): string {
    const DAY = 86_400_000;
    const date = (t: number): string | null => {
      const d = new Date(t);
      const y = d.getUTCFullYear();
      return Number.isNaN(y) || y < 0 || y > 9999 ? null : d.toISOString().slice(0, 10);
    };
    const parts: string[] = [];
    const low = op === 'ge' || op === 'gt' || op === 'eq' || op === 'ne' ? date(ms - DAY) : null;
    const high = op === 'le' || op === 'lt' || op === 'eq' || op === 'ne' ? date(ms + 2 * DAY) : null;
    // unlikely(): the planner otherwise prefers scanning the table in the page's order to a range
    // of the index and a sort, which suits only ranges holding most of the table.
    if (low !== null) parts.push(`unlikely(${v} >= ${this.param(low)}) AND `);
    if (high !== null) parts.push(`unlikely(${v} < ${this.param(high)}) AND `);
    return parts.join('');
  }

  /** The expression an `in` list is matched against, in the field's comparison domain. */
  private cast(v: string, spec: FieldSpec, foldCase: boolean): string {
    if (spec.type === 'datetime') return `filter_time(${v})`;
    return foldCase ? `filter_fold(${v})` : v;
  }

  private bind(literal: FilterLiteral, spec: Pick<FieldSpec, 'type'>, node: LeafNode, foldCase: boolean): SqlParam {
    const o = typedOperand(literal, spec.type, node);
    switch (o.domain) {
      case 'string':
      case 'loose':
        return foldCase ? fold(o.text) : o.text;
      case 'number':
        return o.n;
      case 'boolean':
        return o.b ? 1 : 0;
      case 'datetime':
        return o.ms;
    }
  }

  /**
   * The value expression of a field: a quoted column, or json_extract. The path is written
   * inline because the expression may repeat; it comes from the trusted field map and
   * validateFieldMap allows only `$`, `.name` and `[n]` steps in it.
   */
  private column(spec: FieldSpec): string {
    if (spec.column !== undefined) return `"${spec.column}"`;
    const json = spec.json!;
    return `json_extract("${json.column}", '${json.path}')`;
  }

  private param(value: SqlParam): string {
    this.params.push(value);
    return '?';
  }

  private valueError(node: LeafNode, message: string): TransformsError {
    return new FilterUnsupportedError('FILTER_VALUE', `${node.property}: ${message}`, {
      property: node.property,
      start: node.range.start,
      end: node.range.end,
    });
  }
}

/**
 * The least string above every string that starts with `prefix`, in code-point order (SQLite's
 * order of UTF-8 text): the prefix with its last code point plus one (skipping the surrogates,
 * which UTF-8 cannot hold). Null when that code point is the last one, U+10FFFF.
 */
export function prefixUpperBound(prefix: string): string | null {
  const chars = [...prefix];
  const last = chars.pop()!.codePointAt(0)!;
  if (last === 0x10ffff) return null;
  return chars.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
}
