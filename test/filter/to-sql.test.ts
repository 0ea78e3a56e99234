// compileSql: parameterized SQLite WHERE clauses for a declared field map, and the
// differential property that they select exactly the records compilePredicate accepts.

import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compilePredicate, compileSql, parseApiFilter, parseObjectFilter, registerSqlFunctions, type FieldMap, type FilterNode } from '../../src/filter/index.js';
import { prefixUpperBound } from '../../src/filter/to-sql.js';
import { FIELDS, mixedAst, record, typedAst, type Row } from './arbitraries.js';

let db: Database.Database;

beforeAll(() => {
  db = new Database(':memory:');
  registerSqlFunctions(db);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT, cs TEXT, n REAL, b INTEGER, d TEXT, tags TEXT, doc TEXT)');
});
afterAll(() => db.close());

function load(rows: Row[]): void {
  db.exec('DELETE FROM t');
  const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  rows.forEach((r, id) => {
    const b = r['b'] === undefined || r['b'] === null ? null : r['b'] ? 1 : 0;
    const tags = r['tags'] === undefined || r['tags'] === null ? null : JSON.stringify(r['tags']);
    const doc = r['j'] === undefined ? null : JSON.stringify({ j: r['j'] });
    insert.run(id, r['s'] ?? null, r['cs'] ?? null, r['n'] ?? null, b, r['d'] ?? null, tags, doc);
  });
}

function selectIds(ast: FilterNode, fields: FieldMap): number[] {
  const { text, params } = compileSql(ast, fields);
  return db.prepare(`SELECT id FROM t WHERE ${text} ORDER BY id`).all(...params).map((r) => (r as { id: number }).id);
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code ?? 'UNCODED';
  }
}

describe('compileSql: differential against compilePredicate', () => {
  it('typed: a predicate with the field map selects the same records as the WHERE clause, or both refuse it alike', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 12 }), fc.oneof(typedAst, mixedAst), (rows, ast) => {
        const sqlCode = codeOf(() => compileSql(ast, FIELDS));
        const predCode = codeOf(() => compilePredicate(ast, { fields: FIELDS }));
        expect(predCode).toBe(sqlCode);
        if (sqlCode !== undefined) return;
        load(rows);
        const predicate = compilePredicate(ast, { fields: FIELDS });
        const expected = rows.flatMap((r, id) => (predicate(r) ? [id] : []));
        expect(selectIds(ast, FIELDS)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('untyped: a predicate without a field map agrees when the literals fit the fields', () => {
    // The untyped predicate cannot know that `cs` is case-sensitive, so SQL gets a map without it.
    const relaxed: FieldMap = { ...FIELDS, cs: { type: 'string', column: 'cs' } };
    fc.assert(
      fc.property(fc.array(record, { maxLength: 12 }), typedAst, (rows, ast) => {
        if (codeOf(() => compileSql(ast, relaxed)) !== undefined) return;
        load(rows);
        const predicate = compilePredicate(ast);
        const expected = rows.flatMap((r, id) => (predicate(r) ? [id] : []));
        expect(selectIds(ast, relaxed)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });
});

describe('compileSql: text and parameters', () => {
  const fields: FieldMap = {
    name: { type: 'string', column: 'name', operators: ['eq', 'sw', 'in'] },
    id: { type: 'string', column: 'id', operators: ['eq', 'in'], caseSensitive: true },
    created: { type: 'datetime', column: 'created', operators: ['gt', 'lt', 'ge', 'le'] },
    count: { type: 'number', json: { column: 'doc', path: '$.stats.count' } },
    enabled: { type: 'boolean', column: 'enabled' },
    groups: { type: 'strings', column: 'groups' },
  };

  it.each([
    ['name eq "Ann"', '(filter_fold("name") = ? COLLATE BINARY)', ['ann']],
    ['id eq "Ab1"', '("id" = ? COLLATE BINARY)', ['Ab1']],
    ['name sw "J"', '(instr(filter_fold("name"), ?) = 1)', ['j']],
    ['created gt 2018-12-18T23:05:55Z', '(filter_time("created") > ?)', [Date.UTC(2018, 11, 18, 23, 5, 55)]],
    ["count ge 7", `(json_extract("doc", '$.stats.count') >= ?)`, [7]],
    ['enabled eq true', '("enabled" = ?)', [1]],
    ['id in ("a","B")', '(("id" COLLATE BINARY IN (?, ?)))', ['a', 'B']],
    ['id in (null, "a")', '("id" IS NULL OR ("id" COLLATE BINARY IN (?)))', ['a']],
    ['groups ca ("x")', '(EXISTS (SELECT 1 FROM json_each("groups") WHERE filter_fold(value) = ? COLLATE BINARY))', ['x']],
    ['not enabled eq false', '(NOT COALESCE(("enabled" = ?), 0))', [0]],
    ['pr enabled', '("enabled" IS NOT NULL)', []],
    ['groups isnull', '("groups" IS NULL)', []],
  ])('%s', (filter, text, params) => {
    const where = compileSql(parseApiFilter(filter), fields);
    expect(where.text).toBe(text);
    expect(where.params).toEqual(params);
  });

  it('never writes a value into the SQL text', () => {
    const hostile = `x" OR 1=1; DROP TABLE t; --'`;
    const where = compileSql(parseApiFilter(`name eq "${hostile.replace(/["\\]/g, (c) => `\\${c}`)}"`), fields);
    expect(where.text).not.toContain('DROP');
    expect(where.params).toEqual([hostile.toLowerCase()]);
  });

  it.each([
    ['owner eq "x"', 'FILTER_FIELD', { property: 'owner', operator: 'eq' }],
    ['name co "x"', 'FILTER_OPERATOR', { property: 'name', operator: 'co' }],
    ['created eq 2018-12-18T23:05:55Z', 'FILTER_OPERATOR', { property: 'created', operator: 'eq' }],
    ['count eq "seven"', 'FILTER_VALUE', { property: 'count' }],
    ['enabled eq "maybe"', 'FILTER_VALUE', { property: 'enabled' }],
    ['enabled gt true', 'FILTER_OPERATOR', { property: 'enabled' }],
  ])('%s is %s, located', (filter, code, details) => {
    const ast = parseApiFilter(filter);
    let error: unknown;
    try {
      compileSql(ast, fields);
    } catch (err) {
      error = err;
    }
    expect(error).toMatchObject({ code, status: 400, details: { ...details, start: 0, end: filter.length } });
  });

  it('rejects join, collectionCondition and subquery as FILTER_UNSUPPORTED', () => {
    const map: FieldMap = { a: { type: 'string', column: 'a' } };
    for (const f of ['a.join(Identity.name)', 'a.collectionCondition("b == 1")', 'a.subquery("x", Bundle, "y", "z == 1")']) {
      expect(() => compileSql(parseObjectFilter(f), map)).toThrow(expect.objectContaining({ code: 'FILTER_UNSUPPORTED' }));
    }
  });

  it.each([
    [{ a: { type: 'text', column: 'a' } }],
    [{ a: { type: 'string' } }],
    [{ a: { type: 'string', column: 'a; DROP' } }],
    [{ a: { type: 'string', json: { column: 'doc', path: "$.a') OR (1" } } }],
    [{ a: { type: 'string', column: 'a', operators: ['EQ'] } }],
    [{ a: { type: 'string', column: 'a', sortable: true } }],
    [{ a: { type: 'string', column: 'a', foldedColumn: 'a key' } }],
    [{ a: { type: 'strings', column: 'a', foldedColumn: 'a_key' } }],
  ])('refuses an invalid field map %j', (map) => {
    expect(() => compileSql(parseApiFilter('a eq "x"'), map as unknown as FieldMap)).toThrow(expect.objectContaining({ code: 'FILTER_OPTION_INVALID' }));
  });
});

describe('compileSql: a folded column', () => {
  const fields: FieldMap = {
    name: { type: 'string', column: 'name', foldedColumn: 'name_key' },
    code: { type: 'string', column: 'code', foldedColumn: 'code_key', caseSensitive: true },
  };

  it.each([
    // NOCASE on the key, the literal folded: no filter_fold call per row.
    ['name eq "Ann"', '("name_key" = ? COLLATE NOCASE)', ['ann']],
    ['name ne "ÅSA"', '(NOT COALESCE(("name_key" = ? COLLATE NOCASE), 0))', ['åsa']],
    ['name gt "B"', '("name_key" > ? COLLATE NOCASE)', ['b']],
    ['name in ("A","İ")', '(("name_key" COLLATE NOCASE IN (?, ?)))', ['a', 'i̇']],
    // A listed null is a missing value, as in any list (the value column, not the key).
    ['name in (null, "A")', '("name" IS NULL OR ("name_key" COLLATE NOCASE IN (?)))', ['a']],
    ['name in (null)', '("name" IS NULL)', []],
    ['name ca ("A")', '("name_key" = ? COLLATE NOCASE)', ['a']],
    // A prefix is a NOCASE range an index walks, and the range is exact…
    ['name sw "Jo"', '("name_key" >= ? COLLATE NOCASE AND "name_key" < ? COLLATE NOCASE)', ['jo', 'jp']],
    // …but where its upper bound reads looser ('@' + 1 is 'A', read as 'a'): then the key's lower(), its fold, is checked.
    ['name sw "x@"', '("name_key" >= ? COLLATE NOCASE AND "name_key" < ? COLLATE NOCASE AND instr(lower("name_key"), ?) = 1)', ['x@', 'xA', 'x@']],
    // NOCASE stops at a NUL: a literal holding one is compared through filter_fold instead.
    ['name eq "a\u0000B"', '(filter_fold("name") = ? COLLATE BINARY)', ['a\u0000b']],
    ['name sw "a\u0000B"', '(instr(filter_fold("name"), ?) = 1)', ['a\u0000b']],
    ['name co "É"', '(instr(lower("name_key"), ?) > 0)', ['é']],
    // What compares no string stays on the value column.
    ['name eq null', '("name" IS NULL)', []],
    ['name sw ""', `(typeof("name") = 'text')`, []],
    ['pr name', '("name" IS NOT NULL)', []],
    // A case-sensitive field never uses its key.
    ['code eq "Ab"', '("code" = ? COLLATE BINARY)', ['Ab']],
  ])('%s', (filter, text, params) => {
    const where = compileSql(parseApiFilter(filter), fields);
    expect(where.text).toBe(text);
    expect(where.params).toEqual(params);
  });

  it("keeps the object language's case-sensitive ==, and counts an ew suffix in code points", () => {
    expect(compileSql(parseObjectFilter('name == "Ann"'), fields).text).toBe('("name" = ? COLLATE BINARY)');
    const where = compileSql(parseObjectFilter('name.endsWithIgnoreCase("😀X")'), fields);
    expect(where.text).toBe('(substr(lower("name_key"), ?) = ? COLLATE BINARY)');
    expect(where.params).toEqual([-2, '😀x']);
  });

  it.each([
    ['a', 'b'],
    ['a@', 'aA'],
    ['x\ud7ff', 'x\ue000'],
    ['😀', '😁'],
    ['a\u{10ffff}', null],
  ])('the strings starting with %s sort below %s', (prefix, upper) => {
    const unescape = (t: string) => t.replace(/\\u\{?([0-9a-f]+)\}?/g, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16)));
    expect(prefixUpperBound(unescape(prefix))).toBe(upper === null ? null : unescape(upper));
  });
});

describe('compileSql: a datetime field with indexedText', () => {
  const plain: FieldMap = { d: { type: 'datetime', column: 'd' } };
  const indexed: FieldMap = { d: { type: 'datetime', column: 'd', indexedText: true } };
  const DAY = 86_400_000;

  it('adds a text range the index serves before the exact instant test', () => {
    const where = compileSql(parseApiFilter('d ge "2025-06-01T00:00:00Z"'), indexed);
    expect(where.text).toBe('(unlikely("d" >= ?) AND filter_time("d") >= ?)');
    expect(where.params).toEqual(['2025-05-31', Date.UTC(2025, 5, 1)]);
    const lt = compileSql(parseApiFilter('d lt "2025-06-01T00:00:00Z"'), indexed);
    expect(lt.text).toBe('(unlikely("d" < ?) AND filter_time("d") < ?)');
    expect(lt.params).toEqual(['2025-06-03', Date.UTC(2025, 5, 1)]);
  });

  it('uses an index on the column for a range', () => {
    const d = new Database(':memory:');
    registerSqlFunctions(d);
    d.exec('CREATE TABLE a (id TEXT, d TEXT); CREATE INDEX a_d ON a (d)');
    const { text, params } = compileSql(parseApiFilter('d ge "2025-06-01T00:00:00Z"'), indexed);
    const plan = d.prepare(`EXPLAIN QUERY PLAN SELECT id FROM a WHERE ${text} ORDER BY rowid`).all(...params) as { detail: string }[];
    d.close();
    expect(plan.map((r) => r.detail).join('; ')).toContain('USING INDEX a_d');
  });

  it('selects exactly what the comparison without it selects, whatever the values\' offsets', () => {
    const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');
    // A stored value: an instant near the compared one, written with any offset and precision.
    const stored = fc.record({ at: fc.integer({ min: -3 * DAY, max: 3 * DAY }), offset: fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }), form: fc.nat(3) }).map(({ at, offset, form }) => {
      const local = new Date(Date.UTC(2025, 0, 1) + at + offset * 60_000).toISOString().slice(0, 23);
      const zone = form === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
      if (form === 3) return local.slice(0, 10);
      return form === 0 ? new Date(Date.UTC(2025, 0, 1) + at).toISOString() : `${local}${zone}`;
    });
    fc.assert(
      fc.property(fc.array(fc.oneof(stored, fc.constantFrom('not a date', '')), { maxLength: 20 }), fc.integer({ min: -2 * DAY, max: 2 * DAY }), fc.constantFrom('eq', 'gt', 'ge', 'lt', 'le'), (values, at, op) => {
        load(values.map((d) => ({ d })));
        const filter = `d ${op} "${new Date(Date.UTC(2025, 0, 1) + at).toISOString()}"`;
        expect(selectIds(parseApiFilter(filter), indexed)).toEqual(selectIds(parseApiFilter(filter), plain));
      }),
      { numRuns: 400 },
    );
  });
});
