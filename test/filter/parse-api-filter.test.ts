// parseApiFilter: the collection `filters` language (https://developer.sailpoint.com/docs/api/standard-collection-parameters).

import { describe, expect, it } from 'vitest';
import { parseApiFilter, stripRanges, type FilterNode } from '../../src/filter/index.js';

const R = { start: 0, end: 0 };
const shape = (text: string): FilterNode => stripRanges(parseApiFilter(text));
const str = (value: string) => ({ type: 'string', value }) as const;

describe('parseApiFilter: primitive operators', () => {
  it.each<[string, unknown]>([
    ['name eq "Rajesh"', { kind: 'compare', op: 'eq', property: 'name', value: str('Rajesh'), ignoreCase: true, range: R }],
    ['type ne "ROLE"', { kind: 'compare', op: 'ne', property: 'type', value: str('ROLE'), ignoreCase: true, range: R }],
    ['daysUntilEscalation gt 7', { kind: 'compare', op: 'gt', property: 'daysUntilEscalation', value: { type: 'number', value: 7 }, ignoreCase: true, range: R }],
    ['x ge -1.5', { kind: 'compare', op: 'ge', property: 'x', value: { type: 'number', value: -1.5 }, ignoreCase: true, range: R }],
    ['x lt true', { kind: 'compare', op: 'lt', property: 'x', value: { type: 'boolean', value: true }, ignoreCase: true, range: R }],
    ['x le null', { kind: 'compare', op: 'le', property: 'x', value: { type: 'null' }, ignoreCase: true, range: R }],
    ['created gt 2018-12-18T23:05:55Z', { kind: 'compare', op: 'gt', property: 'created', value: { type: 'datetime', value: '2018-12-18T23:05:55Z' }, ignoreCase: true, range: R }],
    ['created lt 2018-12-18', { kind: 'compare', op: 'lt', property: 'created', value: { type: 'datetime', value: '2018-12-18' }, ignoreCase: true, range: R }],
    ['prop1 eq val1', { kind: 'compare', op: 'eq', property: 'prop1', value: { type: 'identifier', value: 'val1' }, ignoreCase: true, range: R }],
    ['name co "Rajesh"', { kind: 'like', mode: 'anywhere', property: 'name', value: str('Rajesh'), ignoreCase: true, range: R }],
    ['name sw "Rajesh"', { kind: 'like', mode: 'start', property: 'name', value: str('Rajesh'), ignoreCase: true, range: R }],
    ['id in ("a","b")', { kind: 'in', property: 'id', values: [str('a'), str('b')], ignoreCase: true, range: R }],
    ['groups ca ( "Venezia" , "Firenze" )', { kind: 'containsAll', property: 'groups', values: [str('Venezia'), str('Firenze')], ignoreCase: true, range: R }],
    ['pr accountRequestInfo', { kind: 'present', property: 'accountRequestInfo', range: R }],
    ['lastUsed isnull', { kind: 'isNull', property: 'lastUsed', range: R }],
    ['identitySummary.id eq "2c91"', { kind: 'compare', op: 'eq', property: 'identitySummary.id', value: str('2c91'), ignoreCase: true, range: R }],
    ['name eq "\\"Employees\\" \\\\ x"', { kind: 'compare', op: 'eq', property: 'name', value: str('"Employees" \\ x'), ignoreCase: true, range: R }],
  ])('%s', (text, expected) => {
    expect(shape(text)).toEqual(expected);
  });
});

describe('parseApiFilter: composites', () => {
  it('binds not tighter than and, and and tighter than or', () => {
    expect(shape('not a eq 1 or b eq 2 and c eq 3')).toMatchObject({
      kind: 'or',
      children: [{ kind: 'not', operand: { property: 'a' } }, { kind: 'and', children: [{ property: 'b' }, { property: 'c' }] }],
    });
  });

  it('lets parentheses override precedence', () => {
    expect(shape('not (a eq 1 or b eq 2) and c eq 3')).toMatchObject({
      kind: 'and',
      children: [{ kind: 'not', operand: { kind: 'or' } }, { property: 'c' }],
    });
  });

  it('keeps unparenthesised chains n-ary and groups as nodes', () => {
    expect(shape('a eq 1 and b eq 2 and c eq 3')).toMatchObject({ kind: 'and', children: [{}, {}, {}] });
    expect(shape('(a eq 1 and b eq 2) and c eq 3')).toMatchObject({ kind: 'and', children: [{ kind: 'and' }, {}] });
  });

  it('records source ranges', () => {
    const text = 'pr a and (b isnull)';
    const ast = parseApiFilter(text);
    if (ast.kind !== 'and') throw new Error('expected and');
    expect(ast.children.map((c) => text.slice(c.range.start, c.range.end))).toEqual(['pr a', '(b isnull)']);
    expect(ast.range).toEqual({ start: 0, end: text.length });
  });
});

describe('parseApiFilter: syntax errors carry a position and a caret excerpt', () => {
  it.each<[string, number, RegExp]>([
    ['name EQ "Rajesh"', 5, /unknown operator 'EQ' \(operators are lowercase: 'eq'\)/],
    ['name eq "x" AND b eq 1', 12, /unexpected 'AND'/],
    ['name eq "', 8, /unterminated string/],
    ['name eq "a\\tb"', 10, /invalid escape/],
    ["name eq 'x'", 8, /strings need double quotes/],
    ['name co 5', 8, /'co' takes a quoted string/],
    ['name', 4, /expected an operator/],
    ['name eq', 7, /expected a value/],
    ['title pr', 6, /'pr' cannot follow a field/],
    ['emails[type eq "work"]', 0, /'emails\[type' is not a field name/],
    ['id in ()', 7, /expected a value/],
    ['id in "a"', 6, /expected '\('/],
    ['(a eq 1', 7, /expected '\)'/],
    ['created gt 2018-13-45T00:00:00Z', 11, /not an ISO 8601 date-time/],
    ['created gt 2018-12-18T23:05:55', 11, /with a zone/],
    ['and eq 1', 0, /expected a field name/],
    ['', 0, /empty/],
  ])('%j fails at %i', (text, position, message) => {
    let error: unknown;
    try {
      parseApiFilter(text);
    } catch (err) {
      error = err;
    }
    expect(error).toMatchObject({ code: 'FILTER_SYNTAX', status: 400, position, details: { position } });
    expect((error as Error).message).toMatch(message);
    expect((error as { excerpt: string }).excerpt).toBe(`${text}\n${' '.repeat(position)}^`);
  });

  it('is a 400 when a raw # or & in the URL cut the filter short', () => {
    // The escaping table of the standard collection parameters: the query string ends at '#', and '&' starts a new parameter.
    for (const raw of ['name eq "#Employees"', 'name eq "R&D"']) {
      const filters = new URL(`http://tenant/v3/roles?filters=${raw}`).searchParams.get('filters')!;
      expect(() => parseApiFilter(filters)).toThrow(expect.objectContaining({ code: 'FILTER_SYNTAX', details: expect.objectContaining({ position: 8 }) }));
    }
    const escaped = new URL(`http://tenant/v3/roles?filters=name eq "%23Employees"`).searchParams.get('filters')!;
    expect(shape(escaped)).toMatchObject({ value: str('#Employees') });
  });
});

describe('parseApiFilter: comparisons are bounded as search terms are', () => {
  const chain = (n: number) => Array.from({ length: n }, (_, i) => `name eq "n${i}"`).join(' or ');

  it('reads 128 comparisons, and refuses the 129th with FILTER_LIMIT (maxTerms) at its position', () => {
    expect(parseApiFilter(chain(128))).toMatchObject({ kind: 'or' });
    const text = chain(129);
    try {
      parseApiFilter(text);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'FILTER_LIMIT', details: { limit: 'maxTerms', position: text.lastIndexOf('name eq') } });
    }
  });

  it('takes the bound as an option', () => {
    expect(() => parseApiFilter(chain(3), { maxTerms: 2 })).toThrow(/more than 2 comparisons/);
  });
});
