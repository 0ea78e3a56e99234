// parseObjectFilter: the sailpoint.object.Filter string language (https://developer.sailpoint.com/docs/extensibility/rules/java-docs).

import { describe, expect, it } from 'vitest';
import { parseObjectFilter, stripRanges, type FilterNode } from '../../src/filter/index.js';

const R = { start: 0, end: 0 };
const str = (value: string) => ({ type: 'string', value }) as const;
const cmp = (property: string, op: string, value: unknown, ignoreCase = false) => ({ kind: 'compare', op, property, value, ignoreCase, range: R });
const shape = (text: string): FilterNode => stripRanges(parseObjectFilter(text));

describe('parseObjectFilter: every filter string of the official transform material', () => {
  it.each<[string, unknown]>([
    ['(DEPARTMENT == "Engineering")', cmp('DEPARTMENT', 'eq', str('Engineering'))],
    ['!(nativeIdentity.startsWith("*DELETED*"))', { kind: 'not', range: R, operand: { kind: 'like', mode: 'start', property: 'nativeIdentity', value: str('*DELETED*'), ignoreCase: false, range: R } }],
    ['(status != "terminated")', cmp('status', 'ne', str('terminated'))],
    ['(department == "Engineering")', cmp('department', 'eq', str('Engineering'))],
    ['(groups.containsAll({"Admin"}) || location == "Austin")', { kind: 'or', range: R, children: [{ kind: 'containsAll', property: 'groups', values: [str('Admin')], ignoreCase: false, range: R }, cmp('location', 'eq', str('Austin'))] }],
    ["(groups.containsAll({'Admin'}) || location == 'Austin')", { kind: 'or', range: R, children: [{ kind: 'containsAll', property: 'groups', values: [str('Admin')], ignoreCase: false, range: R }, cmp('location', 'eq', str('Austin'))] }],
    ['(WORKER_STATUS__c == "active")', cmp('WORKER_STATUS__c', 'eq', str('active'))],
    ['!(displayName.startsWith("SVC-"))', { kind: 'not', range: R, operand: { kind: 'like', mode: 'start', property: 'displayName', value: str('SVC-'), ignoreCase: false, range: R } }],
    ['(memberOf.contains("All AD Users-rshwart"))', { kind: 'like', mode: 'anywhere', property: 'memberOf', value: str('All AD Users-rshwart'), ignoreCase: false, range: R }],
  ])('%s', (text, expected) => {
    expect(shape(text)).toEqual(expected);
  });
});

describe('parseObjectFilter: leaves', () => {
  it.each<[string, unknown]>([
    ['a == 1', cmp('a', 'eq', { type: 'number', value: 1 })],
    ['a >= -2.5e3', cmp('a', 'ge', { type: 'number', value: -2500 })],
    ['a < true', cmp('a', 'lt', { type: 'boolean', value: true })],
    ['a != null', cmp('a', 'ne', { type: 'null' })],
    ['a i== "X"', cmp('a', 'eq', str('X'), true)],
    ['a i!= "X"', cmp('a', 'ne', str('X'), true)],
    ['a i<= "X"', cmp('a', 'le', str('X'), true)],
    ['a>"x"', cmp('a', 'gt', str('x'))],
    ['type == sailpoint.object.Type.Foo', cmp('type', 'eq', { type: 'identifier', value: 'sailpoint.object.Type.Foo' })],
    ['a == "say \\"hi\\" \\\\ \'"', cmp('a', 'eq', str('say "hi" \\ \''))],
    ["a == 'it\\'s'", cmp('a', 'eq', str("it's"))],
  ])('%s', (text, expected) => {
    expect(shape(text)).toEqual(expected);
  });

  it.each([
    ['startsWith', 'start', false], ['startsWithIgnoreCase', 'start', true],
    ['endsWith', 'end', false], ['endsWithIgnoreCase', 'end', true],
    ['contains', 'anywhere', false], ['containsIgnoreCase', 'anywhere', true],
  ])('%s() is like/%s', (method, mode, ignoreCase) => {
    expect(shape(`name.${method}("x")`)).toEqual({ kind: 'like', mode, property: 'name', value: str('x'), ignoreCase, range: R });
  });

  it.each([
    ['in', 'in', false], ['inIgnoreCase', 'in', true], ['containsAll', 'containsAll', false], ['containsAllIgnoreCase', 'containsAll', true],
  ])('%s({…}) lists values', (method, kind, ignoreCase) => {
    expect(shape(`g.${method}({ "a", 2, null })`)).toEqual({ kind, property: 'g', values: [str('a'), { type: 'number', value: 2 }, { type: 'null' }], ignoreCase, range: R });
    expect(shape(`g.${method}({})`)).toMatchObject({ kind, values: [] });
  });

  it.each(['isNull', 'notNull', 'isEmpty'])('%s()', (method) => {
    expect(shape(`manager.name.${method}( )`)).toEqual({ kind: method, property: 'manager.name', range: R });
  });

  it('parses join, collectionCondition and subquery into their own nodes', () => {
    expect(shape('links.join(Link.identity)')).toEqual({ kind: 'join', property: 'links', target: 'Link.identity', range: R });
    expect(shape('links.collectionCondition("fooProp == \\"bar\\"")')).toEqual({ kind: 'collectionCondition', property: 'links', condition: 'fooProp == "bar"', range: R });
    expect(shape('p.subquery("firstname", sailpoint.object.Bundle, "name", "riskScoreWeight > 500")')).toEqual({
      kind: 'subquery', property: 'p', range: R,
      args: [str('firstname'), { type: 'identifier', value: 'sailpoint.object.Bundle' }, str('name'), str('riskScoreWeight > 500')],
    });
  });
});

describe('parseObjectFilter: identifiers with spaces (IdentitiferLookAhead)', () => {
  it.each<[string, string]>([
    ['Employee Number == "1"', 'Employee Number'],
    ['Employee  Number i== "1"', 'Employee  Number'],
    ['Cost Center.Code Name.startsWith("x")', 'Cost Center.Code Name'],
    ['first name.isNull()', 'first name'],
    ['Is i Valid == true', 'Is i Valid'],
  ])('%s reads property %j', (text, property) => {
    expect(shape(text)).toMatchObject({ property });
  });
});

describe('parseObjectFilter: composites', () => {
  it('gives && precedence over || and keeps chains n-ary', () => {
    expect(shape('a == 1 || b == 2 && c == 3 && d == 4')).toMatchObject({
      kind: 'or',
      children: [{ property: 'a' }, { kind: 'and', children: [{ property: 'b' }, { property: 'c' }, { property: 'd' }] }],
    });
  });

  it('keeps a parenthesised group as its own node', () => {
    expect(shape('(a == 1 && b == 2) && c == 3')).toMatchObject({ kind: 'and', children: [{ kind: 'and' }, { property: 'c' }] });
  });

  it('applies ! to the following unary, with or without parentheses', () => {
    expect(shape('!a.isNull() && b == 1')).toMatchObject({ kind: 'and', children: [{ kind: 'not', operand: { kind: 'isNull' } }, { kind: 'compare' }] });
    expect(shape('!!(a == 1)')).toMatchObject({ kind: 'not', operand: { kind: 'not', operand: { kind: 'compare' } } });
  });

  it('records the source range of every node', () => {
    const text = '  !(name.startsWith("x")) && count >= 3 ';
    const ast = parseObjectFilter(text);
    expect(ast.range).toEqual({ start: 2, end: 39 });
    expect(parseObjectFilter("( a == 1 )").range).toEqual({ start: 0, end: 10 });
    if (ast.kind !== 'and') throw new Error('expected and');
    expect(ast.children.map((c) => text.slice(c.range.start, c.range.end))).toEqual(['!(name.startsWith("x"))', 'count >= 3']);
  });
});

describe('parseObjectFilter: syntax errors carry a position and a caret excerpt', () => {
  it.each<[string, number, RegExp]>([
    ['', 0, /empty/],
    ['   ', 3, /empty/],
    ['a ==', 4, /expected a value/],
    ['a == "x', 5, /unterminated string/],
    ['a == "x\\n"', 7, /invalid escape/],
    ['(a == 1', 7, /expected '\)'/],
    ['a == 1)', 6, /unexpected '\)'/],
    ['a.frobnicate()', 2, /unknown method 'frobnicate'/],
    ['a.startsWith(1)', 13, /takes a string/],
    ['a.in("x")', 5, /expected '\{'/],
    ['a.in({"x" "y"})', 10, /expected ',' or '\}'/],
    ['a.join("x")', 7, /ClassName.propertyName/],
    ['a.subquery("x")', 14, /4 arguments/],
    ['a =! 1', 2, /expected an operator/],
    ['a == 12abc', 7, /malformed number/],
    ['== 1', 0, /expected a property name/],
    ['a == 1 &&', 9, /expected a condition/],
    ['a == 1 & b == 2', 7, /unexpected '&'/],
  ])('%j fails at %i', (text, position, message) => {
    let error: unknown;
    try {
      parseObjectFilter(text);
    } catch (err) {
      error = err;
    }
    expect(error).toMatchObject({ name: 'FilterSyntaxError', code: 'FILTER_SYNTAX', status: 400, position, details: { position } });
    expect((error as Error).message).toMatch(message);
    const excerpt = (error as { excerpt: string }).excerpt;
    const [line, caret] = excerpt.split('\n');
    expect(caret).toBe(' '.repeat(position) + '^');
    expect(line).toBe(text);
  });
});
