// fast-check arbitraries for the query-language tests: ASTs each language can print, and typed
// records + ASTs over one field map for the predicate-vs-SQLite differential test.

import fc from 'fast-check';
import type { CompareOp, FilterLiteral, FilterNode, LikeMode } from '../../src/filter/ast.js';
import type { FieldMap, FieldType } from '../../src/filter/fields.js';
import type { SearchNode } from '../../src/filter/search/ast.js';

const R = { start: 0, end: 0 };
const OPS: CompareOp[] = ['eq', 'ne', 'lt', 'gt', 'le', 'ge'];
const MODES: LikeMode[] = ['start', 'end', 'anywhere'];
const API_WORDS = new Set(['eq', 'ne', 'gt', 'ge', 'lt', 'le', 'co', 'sw', 'in', 'ca', 'pr', 'isnull', 'and', 'or', 'not', 'true', 'false', 'null']);

const word = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,5}$/);
const apiWord = word.filter((w) => !API_WORDS.has(w));
const objectSegment = fc.array(word, { minLength: 1, maxLength: 2 }).map((ws) => ws.join(' '));

/** Object-language property names: dotted segments whose words may be separated by a space. */
export const objectProperty = fc.array(objectSegment, { minLength: 1, maxLength: 3 }).map((s) => s.join('.'));
export const apiProperty = fc.array(apiWord, { minLength: 1, maxLength: 3 }).map((s) => s.join('.'));

/** Strings with quotes, backslashes, operators and characters outside the BMP. */
const text = fc.string({ unit: fc.constantFrom('a', 'B', ' ', '"', "'", '\\', '&&', '(', ')', 'é', 'ß', '😀', '==', 'and', ','), maxLength: 6 });
const number = fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.double({ noNaN: true, noDefaultInfinity: true }));
const isoDate = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

const stringLit = text.map((value): FilterLiteral => ({ type: 'string', value }));
const scalarLit: fc.Arbitrary<FilterLiteral> = fc.oneof(
  stringLit,
  number.map((value): FilterLiteral => ({ type: 'number', value })),
  fc.boolean().map((value): FilterLiteral => ({ type: 'boolean', value })),
  fc.constant<FilterLiteral>({ type: 'null' }),
);
const objectLit = fc.oneof(scalarLit, fc.stringMatching(/^[A-Za-z_][\w]{0,4}(\.[A-Za-z_][\w]{0,4}){0,2}$/)
  .filter((v) => !['true', 'false', 'null'].includes(v))
  .map((value): FilterLiteral => ({ type: 'identifier', value })));
const apiLit = fc.oneof(
  scalarLit,
  isoDate.map((value): FilterLiteral => ({ type: 'datetime', value })),
  apiWord.map((value): FilterLiteral => ({ type: 'identifier', value })),
);

function composite(leaf: fc.Arbitrary<FilterNode>): fc.Arbitrary<FilterNode> {
  return fc.letrec<{ node: FilterNode }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), children: fc.array(tie('node'), { minLength: 2, maxLength: 3 }), range: fc.constant(R) }),
      fc.record({ kind: fc.constant('not' as const), operand: tie('node'), range: fc.constant(R) }),
    ),
  })).node;
}

/** Every AST the object language can express. */
export const objectAst: fc.Arbitrary<FilterNode> = composite(
  fc.oneof(
    fc.record({ kind: fc.constant('compare' as const), op: fc.constantFrom(...OPS), property: objectProperty, value: objectLit, ignoreCase: fc.boolean(), range: fc.constant(R) }),
    fc.record({ kind: fc.constantFrom('in' as const, 'containsAll' as const), property: objectProperty, values: fc.array(objectLit, { maxLength: 3 }), ignoreCase: fc.boolean(), range: fc.constant(R) }),
    fc.record({ kind: fc.constant('like' as const), mode: fc.constantFrom(...MODES), property: objectProperty, value: stringLit, ignoreCase: fc.boolean(), range: fc.constant(R) }),
    fc.record({ kind: fc.constantFrom('isNull' as const, 'notNull' as const, 'isEmpty' as const), property: objectProperty, range: fc.constant(R) }),
    fc.record({ kind: fc.constant('join' as const), property: objectProperty, target: fc.constant('Identity.name'), range: fc.constant(R) }),
    fc.record({ kind: fc.constant('collectionCondition' as const), property: objectProperty, condition: text, range: fc.constant(R) }),
    fc.record({ kind: fc.constant('subquery' as const), property: objectProperty, args: fc.array(objectLit, { minLength: 4, maxLength: 4 }), range: fc.constant(R) }),
  ),
);

/** Every AST the API language can express (it always ignores case; case is the field's). */
export const apiAst: fc.Arbitrary<FilterNode> = composite(
  fc.oneof(
    fc.record({ kind: fc.constant('compare' as const), op: fc.constantFrom(...OPS), property: apiProperty, value: apiLit, ignoreCase: fc.constant(true), range: fc.constant(R) }),
    fc.record({ kind: fc.constantFrom('in' as const, 'containsAll' as const), property: apiProperty, values: fc.array(apiLit, { minLength: 1, maxLength: 3 }), ignoreCase: fc.constant(true), range: fc.constant(R) }),
    fc.record({ kind: fc.constant('like' as const), mode: fc.constantFrom<LikeMode>('start', 'anywhere'), property: apiProperty, value: stringLit, ignoreCase: fc.constant(true), range: fc.constant(R) }),
    fc.record({ kind: fc.constantFrom('isNull' as const, 'present' as const), property: apiProperty, range: fc.constant(R) }),
  ),
);

// ---- differential: a typed table ---------------------------------------------------------

export const FIELDS: FieldMap = {
  s: { type: 'string', column: 's' },
  cs: { type: 'string', column: 'cs', caseSensitive: true },
  n: { type: 'number', column: 'n' },
  b: { type: 'boolean', column: 'b' },
  d: { type: 'datetime', column: 'd' },
  tags: { type: 'strings', column: 'tags' },
  'j.k': { type: 'string', json: { column: 'doc', path: '$.j.k' } },
};

/** Short strings over letters whose case folding is interesting (never numeric, never ISO). */
const smallText = fc.string({ unit: fc.constantFrom('a', 'A', 'b', 'é', 'É', 'ß', 'İ', '😀', 'z'), maxLength: 3 });
const smallNumber = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.5, -1.25, 2.5));
const INSTANTS = ['2020-01-01T00:00:00Z', '2020-01-01T01:00:00+01:00', '2020-01-01T00:00:00.500Z', '2021-06-30', '2019-12-31T23:59:59-05:00'];
const instant = fc.constantFrom(...INSTANTS);

const valueOf: Record<FieldType, fc.Arbitrary<unknown>> = {
  string: smallText,
  number: smallNumber,
  boolean: fc.boolean(),
  datetime: instant,
  strings: fc.array(smallText, { maxLength: 3 }),
};

const absent = Symbol('absent');
function slot(type: FieldType): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 1, arbitrary: fc.constant(absent) }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 4, arbitrary: valueOf[type] });
}

export type Row = Record<string, unknown>;

/** Records over FIELDS; `j.k` lives in a nested object `{ j: { k } }`. */
export const record: fc.Arbitrary<Row> = fc
  .record({ s: slot('string'), cs: slot('string'), n: slot('number'), b: slot('boolean'), d: slot('datetime'), tags: slot('strings'), jk: slot('string') })
  .map((r) => {
    const out: Row = {};
    for (const [k, v] of Object.entries(r)) {
      if (v === absent) continue;
      if (k === 'jk') out['j'] = { k: v };
      else out[k] = v;
    }
    return out;
  });

/** A literal that fits the field's type (so the untyped predicate reads it the same way). */
function literalFor(type: FieldType): fc.Arbitrary<FilterLiteral> {
  switch (type) {
    case 'string':
    case 'strings':
      return smallText.map((value) => ({ type: 'string', value }));
    case 'number':
      return smallNumber.map((value) => ({ type: 'number', value }));
    case 'boolean':
      return fc.boolean().map((value) => ({ type: 'boolean', value }));
    case 'datetime':
      return instant.map((value) => ({ type: 'datetime', value }));
  }
}

/** Any literal of any type, including numeric and boolean strings, for the coercion checks. */
const anyLiteral: fc.Arbitrary<FilterLiteral> = fc.oneof(
  ...(['string', 'number', 'boolean', 'datetime'] as const).map(literalFor),
  fc.constantFrom<FilterLiteral>({ type: 'string', value: '2' }, { type: 'string', value: 'TRUE' }, { type: 'string', value: '2020-01-01T00:00:00Z' }),
);

function leafFor(name: string, type: FieldType, mixed: boolean): fc.Arbitrary<FilterNode> {
  const lit = mixed ? anyLiteral : literalFor(type);
  const maybeNull = fc.oneof({ weight: 6, arbitrary: lit }, { weight: 1, arbitrary: fc.constant<FilterLiteral>({ type: 'null' }) });
  const ops = type === 'boolean' && !mixed ? (['eq', 'ne'] as CompareOp[]) : OPS;
  const leaves: fc.Arbitrary<FilterNode>[] = [
    fc.record({ kind: fc.constant('compare' as const), op: fc.constantFrom(...ops), property: fc.constant(name), value: lit, ignoreCase: fc.boolean(), range: fc.constant(R) }),
    fc.record({ kind: fc.constant('compare' as const), op: fc.constantFrom<CompareOp>('eq', 'ne'), property: fc.constant(name), value: fc.constant<FilterLiteral>({ type: 'null' }), ignoreCase: fc.boolean(), range: fc.constant(R) }),
    fc.record({ kind: fc.constant('in' as const), property: fc.constant(name), values: fc.array(maybeNull, { maxLength: 3 }), ignoreCase: fc.boolean(), range: fc.constant(R) }),
    fc.record({ kind: fc.constant('containsAll' as const), property: fc.constant(name), values: fc.array(lit, { maxLength: 3 }), ignoreCase: fc.boolean(), range: fc.constant(R) }),
    fc.record({ kind: fc.constantFrom('isNull' as const, 'notNull' as const, 'isEmpty' as const, 'present' as const), property: fc.constant(name), range: fc.constant(R) }),
  ];
  if (type === 'string' || type === 'strings' || mixed) {
    leaves.push(fc.record({ kind: fc.constant('like' as const), mode: fc.constantFrom(...MODES), property: fc.constant(name), value: lit, ignoreCase: fc.boolean(), range: fc.constant(R) }));
  }
  return fc.oneof(...leaves);
}

/** ASTs over FIELDS whose literals fit their fields. */
export const typedAst: fc.Arbitrary<FilterNode> = composite(fc.oneof(...Object.entries(FIELDS).map(([name, spec]) => leafFor(name, spec.type, false))));

/** ASTs over FIELDS with literals of any type and operators on any field: some are refused. */
export const mixedAst: fc.Arbitrary<FilterNode> = composite(fc.oneof(...Object.entries(FIELDS).map(([name, spec]) => leafFor(name, spec.type, true))));

// ---- the search query language -------------------------------------------------------------

const searchField = fc.array(word, { minLength: 1, maxLength: 3 }).map((s) => s.join('.'));
/** Values with every character the scanner reads as syntax, keywords and leading signs. */
const searchText = fc.string({
  unit: fc.constantFrom('a', 'Z', '1', ' ', '\t', '"', '\\', '(', ')', ':', '*', '+', '-', '[', '~', '&', '|', '!', '?', '/', 'é', '😀', 'AND', 'OR', 'NOT'),
  maxLength: 5,
});
const searchTerm: fc.Arbitrary<SearchNode> = fc.oneof(
  fc.record({ kind: fc.constant('term' as const), property: fc.option(searchField, { nil: null }), value: searchText, phrase: fc.constant(true), prefix: fc.constant(false), range: fc.constant(R) }),
  fc.record({ kind: fc.constant('term' as const), property: fc.option(searchField, { nil: null }), value: searchText.filter((v) => v !== ''), phrase: fc.constant(false), prefix: fc.boolean(), range: fc.constant(R) }),
  fc.record({ kind: fc.constant('exists' as const), property: searchField, range: fc.constant(R) }),
  fc.constant<SearchNode>({ kind: 'all', range: R }),
);

/** Every AST the search query language can express. */
export const searchAst: fc.Arbitrary<SearchNode> = fc.letrec<{ node: SearchNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    searchTerm,
    fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), children: fc.array(tie('node'), { minLength: 2, maxLength: 3 }), range: fc.constant(R) }),
    fc.record({ kind: fc.constant('not' as const), operand: tie('node'), range: fc.constant(R) }),
  ),
})).node;
// ---- differential: folded columns ---------------------------------------------------------

/**
 * Strings where Unicode and ASCII case folding part ways: the Kelvin and Ångström signs fold to
 * k and å, İ to i + U+0307, a final Σ to ς, ß and ı have no ASCII fold; '@' and '`' sit next to
 * A–Z and a–z, U+D7FF before the surrogates and U+10FFFF last, where a prefix range ends.
 */
export const foldingText = fc.string({
  unit: fc.constantFrom('a', 'A', 'k', 'K', 's', 'S', 'i', 'I', 'z', '@', '`', '[', ' ', 'é', 'É', 'ß', 'İ', 'ı', '\u212a', '\u212b', 'å', 'Σ', 'σ', 'ς', 'ǅ', '😀', '\ud7ff', '\u{10ffff}'),
  maxLength: 4,
});

/** ASTs over string fields `names` (all operators, either case mode) with foldingText literals. */
export function foldingAst(names: readonly string[]): fc.Arbitrary<FilterNode> {
  const lit = foldingText.map((value): FilterLiteral => ({ type: 'string', value }));
  const maybeNull = fc.oneof({ weight: 6, arbitrary: lit }, { weight: 1, arbitrary: fc.constant<FilterLiteral>({ type: 'null' }) });
  const property = fc.constantFrom(...names);
  return composite(
    fc.oneof(
      fc.record({ kind: fc.constant('compare' as const), op: fc.constantFrom(...OPS), property, value: maybeNull, ignoreCase: fc.boolean(), range: fc.constant(R) }),
      fc.record({ kind: fc.constant('in' as const), property, values: fc.array(maybeNull, { maxLength: 3 }), ignoreCase: fc.boolean(), range: fc.constant(R) }),
      fc.record({ kind: fc.constant('containsAll' as const), property, values: fc.array(lit, { maxLength: 2 }), ignoreCase: fc.boolean(), range: fc.constant(R) }),
      fc.record({ kind: fc.constant('like' as const), mode: fc.constantFrom(...MODES), property, value: lit, ignoreCase: fc.boolean(), range: fc.constant(R) }),
      fc.record({ kind: fc.constantFrom('isNull' as const, 'isEmpty' as const, 'present' as const), property, range: fc.constant(R) }),
    ),
  );
}
