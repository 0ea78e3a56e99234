// compilePredicate: the semantics docs/decisions.md fixes where the platform is silent.

import { describe, expect, it } from 'vitest';
import { compilePredicate, parseApiFilter, parseObjectFilter, type FieldMap, type FilterNode } from '../../src/filter/index.js';

const matches = (filter: string, record: Record<string, unknown>) => compilePredicate(parseObjectFilter(filter))(record);
const apiMatches = (filter: string, record: Record<string, unknown>, fields?: FieldMap) =>
  compilePredicate(parseApiFilter(filter), fields === undefined ? {} : { fields })(record);

describe('compilePredicate: the transform documentation examples', () => {
  const account = { DEPARTMENT: 'Engineering', status: 'active', groups: ['Admin', 'Users'], location: 'Boston', memberOf: ['CN=All AD Users-rshwart,OU=x'], nativeIdentity: 'jdoe' };
  it.each<[string, Record<string, unknown>, boolean]>([
    ['(DEPARTMENT == "Engineering")', account, true],
    ['(DEPARTMENT == "engineering")', account, false],
    ['(status != "terminated")', account, true],
    ['(status != "terminated")', { status: 'terminated' }, false],
    ['(groups.containsAll({"Admin"}) || location == "Austin")', account, true],
    ["(groups.containsAll({'Admin'}) || location == 'Austin')", { groups: ['Users'], location: 'Austin' }, true],
    ['(groups.containsAll({"Admin"}) || location == "Austin")', { groups: ['Users'], location: 'Boston' }, false],
    ['(memberOf.contains("All AD Users-rshwart"))', account, true],
    ['!(nativeIdentity.startsWith("*DELETED*"))', account, true],
    ['!(nativeIdentity.startsWith("*DELETED*"))', { nativeIdentity: '*DELETED*jdoe' }, false],
  ])('%s on %j → %s', (filter, record, expected) => {
    expect(matches(filter, record)).toBe(expected);
  });
});

describe('compilePredicate: multi-valued attributes match when any element matches', () => {
  const r = { groups: ['Admin', 'Users'], n: [1, 5] };
  it.each<[string, boolean]>([
    ['groups == "Users"', true],
    ['groups == "Other"', false],
    ['groups != "Users"', false], // != is the negation of ==: no element equals
    ['groups != "Other"', true],
    ['groups.startsWith("Ad")', true],
    ['groups.endsWithIgnoreCase("SERS")', true],
    ['groups.in({"Users", "X"})', true],
    ['groups.in({"X"})', false],
    ['n > 4', true],
    ['n > 5', false],
    ['n < 2 && n > 4', true], // each leaf looks for its own element
  ])('%s → %s', (filter, expected) => {
    expect(matches(filter, r)).toBe(expected);
  });
});

describe('compilePredicate: containsAll is a subset test', () => {
  it.each<[string, unknown, boolean]>([
    ['g.containsAll({"a", "b"})', ['b', 'c', 'a'], true],
    ['g.containsAll({"a", "b"})', ['a', 'c'], false],
    ['g.containsAll({"a", "a"})', ['a'], true],
    ['g.containsAll({"a"})', 'a', true], // a single value is a one-element list
    ['g.containsAll({"a"})', null, false],
    ['g.containsAll({})', [], true], // the empty set is a subset of anything
    ['g.containsAllIgnoreCase({"ADMIN"})', ['admin'], true],
    ['g.containsAll({"ADMIN"})', ['admin'], false],
  ])('%s on %j → %s', (filter, g, expected) => {
    expect(matches(filter, { g })).toBe(expected);
  });
});

describe('compilePredicate: null, missing and empty', () => {
  it.each<[string, Record<string, unknown>, boolean]>([
    ['a.isNull()', {}, true],
    ['a.isNull()', { a: null }, true],
    ['a.isNull()', { a: '' }, false],
    ['a.isNull()', { a: [] }, false],
    ['a.notNull()', { a: '' }, true],
    ['a.notNull()', {}, false],
    ['a.isEmpty()', {}, true],
    ['a.isEmpty()', { a: null }, true],
    ['a.isEmpty()', { a: '' }, true],
    ['a.isEmpty()', { a: [] }, true],
    ['a.isEmpty()', { a: ' ' }, false],
    ['a.isEmpty()', { a: 0 }, false],
    ['a == null', {}, true],
    ['a != null', { a: 'x' }, true],
    ['a == "x"', {}, false],
    ['a != "x"', {}, true], // a missing status is not "terminated"
    ['a < 5', {}, false],
    ['a.in({"x", null})', {}, true],
    ['a.startsWith("")', {}, false],
  ])('%s on %j → %s', (filter, record, expected) => {
    expect(matches(filter, record)).toBe(expected);
  });

  it('treats pr (present) as not null', () => {
    expect(apiMatches('pr a', { a: '' })).toBe(true);
    expect(apiMatches('pr a', { a: null })).toBe(false);
    expect(apiMatches('a isnull', {})).toBe(true);
  });
});

describe('compilePredicate: numbers and numeric strings', () => {
  it.each<[string, unknown, boolean]>([
    ['a == 10', 10, true],
    ['a == 10', '10', true], // a numeric string compares as a number
    ['a == 10', '10.0', true],
    ['a == 10', '1e1', true],
    ['a == 10', ' 10', false], // not exactly a number
    ['a == 10', 'ten', false],
    ['a > 9', '10', true], // numerically, although "10" < "9" as text
    ['a == "10"', 10, true], // a numeric string literal meets a number numerically
    ['a == "10"', '10.0', false], // …but two strings compare as text
    ['a > "9"', '10', false],
    ['a == true', true, true],
    ['a == true', 'TRUE', true],
    ['a == true', 1, false],
  ])('%s on a=%j → %s', (filter, a, expected) => {
    expect(matches(filter, { a })).toBe(expected);
  });
});

describe('compilePredicate: ISO 8601 date-times compare in time order', () => {
  it.each<[string, unknown, boolean]>([
    ['created gt 2018-12-18T23:05:55Z', '2018-12-19T00:00:00+01:00', false], // 23:00Z
    ['created gt 2018-12-18T23:05:55Z', '2018-12-18T23:05:55.001Z', true],
    ['created eq 2018-12-18T23:05:55Z', '2018-12-19T00:05:55+01:00', true],
    ['created lt 2019-01-01', '2018-12-31T23:59:59Z', true],
    ['created lt 2019-01-01', 'yesterday', false],
    ['created lt 2019-01-01', 1_000, false],
    ['created ge "2018-12-18T23:05:55Z"', '2018-12-18T23:05:55Z', true], // a quoted ISO string too
  ])('%s on %j → %s', (filter, created, expected) => {
    expect(apiMatches(filter, { created })).toBe(expected);
  });
});

describe('compilePredicate: case', () => {
  it.each<[string, Record<string, unknown>, boolean]>([
    ['a == "ABC"', { a: 'abc' }, false],
    ['a i== "ABC"', { a: 'abc' }, true],
    ['a i!= "ABC"', { a: 'abc' }, false],
    ['a i< "B"', { a: 'abc' }, true],
    ['a < "B"', { a: 'abc' }, false], // code point order: 'a' > 'B'
    ['a i== "STRAßE"', { a: 'strasse' }, false], // per-character folding, as Java's equalsIgnoreCase
    ['a.inIgnoreCase({"X", "ÉTÉ"})', { a: 'été' }, true],
    ['a.containsIgnoreCase("DMI")', { a: 'Admin' }, true],
    ['a.contains("DMI")', { a: 'Admin' }, false],
  ])('%s on %j → %s', (filter, record, expected) => {
    expect(matches(filter, record)).toBe(expected);
  });

  it('API filters ignore case unless the field is declared case-sensitive', () => {
    const fields: FieldMap = { name: { type: 'string' }, id: { type: 'string', caseSensitive: true } };
    expect(apiMatches('name eq "JOHN"', { name: 'john' }, fields)).toBe(true);
    expect(apiMatches('id eq "ABC"', { id: 'abc' }, fields)).toBe(false);
    expect(apiMatches('id eq "abc"', { id: 'abc' }, fields)).toBe(true);
  });

  it('orders strings by code point, as SQLite does', () => {
    expect(matches('a > "\uffff"', { a: '😀' })).toBe(true); // U+1F600 after U+FFFF
  });
});

describe('compilePredicate: property access', () => {
  it.each<[string, Record<string, unknown>, boolean]>([
    ['manager.name == "Ann"', { manager: { name: 'Ann' } }, true],
    ['manager.name == "Ann"', { 'manager.name': 'Ann', manager: { name: 'Bob' } }, true], // the literal key wins
    ['manager.name == "Ann"', { manager: null }, false],
    ['manager.name.isNull()', { manager: 'Ann' }, true],
    ['emails.type == "work"', { emails: [{ type: 'home' }, { type: 'work' }] }, true],
    ['Name == "x"', { name: 'x' }, false], // keys are case-sensitive
    ['Employee Number == 7', { 'Employee Number': 7 }, true],
    ['toString.isNull()', {}, true], // only own properties
  ])('%s on %j → %s', (filter, record, expected) => {
    expect(matches(filter, record)).toBe(expected);
  });
});

describe('compilePredicate: what it refuses', () => {
  it.each([
    ['links.join(Link.identity)', 'FILTER_UNSUPPORTED'],
    ['links.collectionCondition("a == 1")', 'FILTER_UNSUPPORTED'],
    ['p.subquery("a", B, "c", "d == 1")', 'FILTER_UNSUPPORTED'],
    ['a == 1 && !(b.join(C.d))', 'FILTER_UNSUPPORTED'],
    ['a < null', 'FILTER_VALUE'],
    ['a > true', 'FILTER_VALUE'],
    ['a.containsAll({null})', 'FILTER_VALUE'],
  ])('%s → %s', (filter, code) => {
    expect(() => compilePredicate(parseObjectFilter(filter))).toThrow(expect.objectContaining({ code, status: 400 }));
  });

  it('locates the unsupported node', () => {
    const text = 'a == 1 && links.join(Link.identity)';
    expect(() => compilePredicate(parseObjectFilter(text))).toThrow(expect.objectContaining({ details: { property: 'links', start: 10, end: text.length } }));
  });

  it('checks fields and operators against a field map', () => {
    const fields: FieldMap = { name: { type: 'string', operators: ['eq'] } };
    expect(() => apiMatches('other eq "x"', {}, fields)).toThrow(expect.objectContaining({ code: 'FILTER_FIELD' }));
    expect(() => apiMatches('name sw "x"', {}, fields)).toThrow(expect.objectContaining({ code: 'FILTER_OPERATOR' }));
  });

  it('lists the filterable fields in FILTER_FIELD, as SORTER_FIELD lists the sortable ones, with the one probably meant', () => {
    const fields: FieldMap = { name: { type: 'string' }, created: { type: 'datetime' } };
    expect(() => apiMatches('nmae eq "x"', {}, fields)).toThrow(expect.objectContaining({ code: 'FILTER_FIELD', message: 'filtering on \'nmae\' is not supported; did you mean "name"? (supported: name, created)' }));
  });

  it('rejects unknown options', () => {
    expect(() => compilePredicate(parseObjectFilter('a == 1'), { field: {} } as never)).toThrow(expect.objectContaining({ code: 'FILTER_OPTION_INVALID' }));
  });
});

describe('compilePredicate: generated code treats every name and value as data', () => {
  const hostile = ['"); throw new Error("x"); ("', '`${process.exit(1)}`', '*/ r = null /*', '\u2028\u2029', '\\', "'", '__proto__', 'constructor'];
  it.each(hostile)('the string %j', (text) => {
    const ast = { kind: 'compare', op: 'eq', property: text, value: { type: 'string', value: text }, ignoreCase: false, range: { start: 0, end: 0 } } as const;
    const predicate = compilePredicate(ast);
    expect(predicate({ [text]: text })).toBe(true);
    expect(predicate({ [text]: `${text}!` })).toBe(false);
    expect(predicate({})).toBe(false);
  });

  it('reads __proto__ and constructor only as own properties', () => {
    expect(matches('constructor.isNull()', {})).toBe(true);
    expect(matches('__proto__.isNull()', {})).toBe(true);
    expect(matches('constructor == "x"', JSON.parse('{"constructor":"x"}'))).toBe(true);
  });

  it('evaluates a non-object record as an empty one', () => {
    const predicate = compilePredicate(parseObjectFilter('a.isNull()'));
    expect(predicate(null as never)).toBe(true);
    expect(predicate('text' as never)).toBe(true);
  });

  it('turns an AST too deep to compile into FILTER_LIMIT', () => {
    const leaf = { kind: 'isNull', property: 'a', range: { start: 0, end: 0 } } as const;
    let node: FilterNode = leaf;
    for (let i = 0; i < 200_000; i++) node = { kind: 'and', children: [node, leaf], range: { start: 0, end: 0 } };
    expect(() => compilePredicate(node)).toThrow(expect.objectContaining({ code: 'FILTER_LIMIT' }));
  });
});
