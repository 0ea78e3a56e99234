// The declared field map of a filterable collection
// (https://developer.sailpoint.com/docs/api/standard-collection-parameters: each endpoint lists its
// fields and operators; anything else is a 400), and the literal coercion both back ends apply to a
// typed field at compile time.

import { TransformsError } from '../errors/index.js';
import { closestName, didYouMean } from '../errors/suggest.js';
import type { FilterLiteral, LeafNode } from './ast.js';
import { FilterUnsupportedError } from './errors.js';
import { asNumber, isoInstant, literalText } from './values.js';

/** `strings` is a multi-valued attribute: a list of strings (a JSON array in SQL). */
export type FieldType = 'string' | 'number' | 'boolean' | 'datetime' | 'strings';

/**
 * Operator names for allowlists: the API language's names, plus names for the object-language
 * leaves the API language lacks (`ew` endsWith, `notnull`, `isempty`).
 */
export type OperatorName =
  | 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le' | 'co' | 'sw' | 'ew' | 'in' | 'ca' | 'pr' | 'isnull' | 'notnull' | 'isempty';

export const OPERATOR_NAMES: readonly OperatorName[] = [
  'eq', 'ne', 'gt', 'ge', 'lt', 'le', 'co', 'sw', 'ew', 'in', 'ca', 'pr', 'isnull', 'notnull', 'isempty',
];

export interface FieldSpec {
  readonly type: FieldType;
  /** SQL column holding the value (a plain column name). */
  readonly column?: string;
  /** Or a JSON document column and a JSON path inside it (`$.a.b`), read with json_extract. */
  readonly json?: { readonly column: string; readonly path: string };
  /** Operators the field allows; all when absent. */
  readonly operators?: readonly OperatorName[];
  /** String comparisons on this field respect case even where the filter says ignore it. */
  readonly caseSensitive?: boolean;
  /**
   * SQL only, for a single-valued string field: a column declared `COLLATE NOCASE` holding the
   * value when it is ASCII and its fold (values.ts `fold`) otherwise. The IgnoreCase operators
   * compare it with SQLite's own NOCASE collation and `lower()` instead of calling `fold` per
   * row, so an index on it serves them; the results are the same (to-sql.ts).
   */
  readonly foldedColumn?: string;
  /**
   * A datetime field whose values are ISO 8601 text with an index on them: the SQL back end adds
   * a text range to its comparisons, which the index serves, before the exact instant test.
   */
  readonly indexedText?: boolean;
}

export type FieldMap = Readonly<Record<string, FieldSpec>>;

const FIELD_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'boolean', 'datetime', 'strings']);
const SPEC_KEYS: ReadonlySet<string> = new Set(['type', 'column', 'json', 'operators', 'caseSensitive', 'foldedColumn', 'indexedText']);
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const JSON_PATH = /^\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*$/;

/** Validate a field map once (unknown keys, bad types and bad column names are errors). */
export function validateFieldMap(fields: FieldMap, requireColumn: boolean): void {
  if (fields === null || typeof fields !== 'object') throw optionError('fields must be an object');
  for (const [name, spec] of Object.entries(fields)) {
    if (spec === null || typeof spec !== 'object') throw optionError(`field '${name}' must be an object`);
    for (const key of Object.keys(spec)) {
      if (!SPEC_KEYS.has(key)) throw optionError(`field '${name}' has an unknown key '${key}'`);
    }
    if (!FIELD_TYPES.has(spec.type)) throw optionError(`field '${name}' has an unknown type '${String(spec.type)}'`);
    if (spec.column !== undefined && !IDENT.test(spec.column)) throw optionError(`field '${name}' has an invalid column name`);
    if (spec.foldedColumn !== undefined && (typeof spec.foldedColumn !== 'string' || !IDENT.test(spec.foldedColumn) || spec.type !== 'string')) {
      throw optionError(`field '${name}' has an invalid foldedColumn (a column name, on a string field)`);
    }
    if (spec.json !== undefined && (!IDENT.test(spec.json.column) || typeof spec.json.path !== 'string' || !JSON_PATH.test(spec.json.path))) {
      throw optionError(`field '${name}' has an invalid json column or path`);
    }
    if (requireColumn && (spec.column === undefined) === (spec.json === undefined)) {
      throw optionError(`field '${name}' needs exactly one of column and json`);
    }
    if (spec.indexedText !== undefined && (spec.indexedText !== true || spec.type !== 'datetime')) throw optionError(`field '${name}': indexedText applies to datetime fields only`);
    for (const op of spec.operators ?? []) {
      if (!OPERATOR_NAMES.includes(op)) throw optionError(`field '${name}' allows an unknown operator '${String(op)}'`);
    }
  }
}

function optionError(message: string): TransformsError {
  return new TransformsError('FILTER_OPTION_INVALID', message);
}

/** The allowlist name of a leaf. */
export function operatorOf(node: LeafNode): OperatorName {
  switch (node.kind) {
    case 'compare':
      return node.op;
    case 'like':
      return node.mode === 'start' ? 'sw' : node.mode === 'end' ? 'ew' : 'co';
    case 'in':
      return 'in';
    case 'containsAll':
      return 'ca';
    case 'present':
      return 'pr';
    case 'isNull':
      return 'isnull';
    case 'notNull':
      return 'notnull';
    case 'isEmpty':
      return 'isempty';
    default:
      throw unsupported(node);
  }
}

export function unsupported(node: LeafNode): FilterUnsupportedError {
  return new FilterUnsupportedError('FILTER_UNSUPPORTED', `${node.kind}() is not supported here`, {
    property: node.property,
    start: node.range.start,
    end: node.range.end,
  });
}

/** The field spec of a leaf, checking the field and the operator against the map. */
export function fieldFor(fields: FieldMap, node: LeafNode): FieldSpec {
  const op = operatorOf(node);
  const spec = Object.prototype.hasOwnProperty.call(fields, node.property) ? fields[node.property] : undefined;
  const where = { property: node.property, operator: op, start: node.range.start, end: node.range.end };
  if (spec === undefined) {
    // As SORTER_FIELD lists the sortable fields: the filterable ones, and the one probably meant.
    const list = Object.keys(fields);
    const supported = list.length > 0 ? ` (supported: ${list.join(', ')})` : '';
    throw new FilterUnsupportedError('FILTER_FIELD', `filtering on '${node.property}' is not supported${didYouMean(closestName(node.property, list))}${supported}`, where);
  }
  if (spec.operators !== undefined && !spec.operators.includes(op)) {
    throw new FilterUnsupportedError('FILTER_OPERATOR', `operator '${op}' is not supported on '${node.property}'`, where);
  }
  if ((node.kind === 'like' && spec.type !== 'string' && spec.type !== 'strings') ||
      (node.kind === 'compare' && spec.type === 'boolean' && node.op !== 'eq' && node.op !== 'ne')) {
    throw new FilterUnsupportedError('FILTER_OPERATOR', `operator '${op}' does not apply to a ${spec.type} field`, where);
  }
  return spec;
}

/** A literal coerced for comparison: what the scalar tests of both back ends work on. */
export type Operand =
  | { readonly domain: 'string'; readonly text: string }
  | { readonly domain: 'number'; readonly n: number }
  | { readonly domain: 'boolean'; readonly b: boolean }
  | { readonly domain: 'datetime'; readonly ms: number }
  /** Untyped only: a numeric string literal matches numbers numerically and strings as text. */
  | { readonly domain: 'loose'; readonly text: string; readonly n: number };

/** Coerce a (non-null) literal to a declared field type; FILTER_VALUE when it cannot be. */
export function typedOperand(literal: FilterLiteral, type: FieldType, node: LeafNode): Operand {
  const text = literalText(literal) ?? '';
  switch (type) {
    case 'string':
    case 'strings':
      return { domain: 'string', text };
    case 'number': {
      const n = literal.type === 'number' ? literal.value : literal.type === 'string' ? asNumber(text) : undefined;
      if (n !== undefined) return { domain: 'number', n };
      break;
    }
    case 'boolean': {
      if (literal.type === 'boolean') return { domain: 'boolean', b: literal.value };
      const lower = text.toLowerCase();
      if (literal.type === 'string' && (lower === 'true' || lower === 'false')) return { domain: 'boolean', b: lower === 'true' };
      break;
    }
    case 'datetime': {
      const ms = literal.type === 'string' || literal.type === 'datetime' ? isoInstant(text) : undefined;
      if (ms !== undefined) return { domain: 'datetime', ms };
      break;
    }
  }
  throw new FilterUnsupportedError('FILTER_VALUE', `'${text}' is not a ${type} value for '${node.property}'`, {
    property: node.property,
    start: node.range.start,
    end: node.range.end,
  });
}

/** Coerce a (non-null) literal without a declared type: the literal's own type decides. */
export function untypedOperand(literal: FilterLiteral): Operand {
  switch (literal.type) {
    case 'number':
      return { domain: 'number', n: literal.value };
    case 'boolean':
      return { domain: 'boolean', b: literal.value };
    default: {
      const text = literalText(literal) ?? '';
      const ms = isoInstant(text);
      if (ms !== undefined) return { domain: 'datetime', ms };
      const n = literal.type === 'string' ? asNumber(text) : undefined;
      if (n !== undefined) return { domain: 'loose', text, n };
      return { domain: 'string', text };
    }
  }
}
