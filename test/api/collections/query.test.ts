// The collection parameters
// (https://developer.sailpoint.com/docs/api/standard-collection-parameters) as pure functions
// producing SQL and parameters, then run against an in-memory SQLite table.

import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { isTransformsError } from '../../../src/errors/index.js';
import { registerSqlFunctions, type FieldMap } from '../../../src/filter/index.js';
import { checkRawEscapes, collectionSql, parseCollectionQuery, prepared, runCollection, type CollectionSpec, type SqlDatabase } from '../../../src/api/collections/index.js';

const FIELDS: FieldMap = {
  id: { type: 'string', column: 'id', operators: ['eq', 'in'] },
  name: { type: 'string', column: 'name', operators: ['eq', 'in', 'sw', 'co'] },
  type: { type: 'string', column: 'type', operators: ['eq'] },
  created: { type: 'datetime', column: 'created', operators: ['gt', 'ge', 'lt', 'le'] },
  'owner.id': { type: 'string', json: { column: 'doc', path: '$.owner.id' }, operators: ['eq'] },
  features: { type: 'strings', json: { column: 'doc', path: '$.features' }, operators: ['ca', 'co'] },
};

const SPEC: CollectionSpec = {
  table: 'items',
  filters: FIELDS,
  sorters: { name: { expr: 'name' }, created: { expr: 'created' }, type: { expr: 'type' }, id: { expr: 'id' } },
  idExpr: 'id',
};

function fails(fn: () => unknown): { code: string; status: number } {
  try {
    fn();
  } catch (err) {
    if (isTransformsError(err)) return { code: err.code, status: err.status };
    throw err;
  }
  throw new Error('expected an error');
}

describe('limit, offset and count', () => {
  it('defaults to limit 250, offset 0, no count, ordered by id', () => {
    const q = parseCollectionQuery({}, SPEC);
    expect(q).toMatchObject({ limit: 250, offset: 0, count: false, where: null });
    expect(q.order.map((k) => k.expr)).toEqual(['id']);
  });

  it.each([
    [{ limit: '20', offset: '1', count: 'true' }, { limit: 20, offset: 1, count: true }],
    [{ limit: '250' }, { limit: 250 }],
    [{ limit: '0' }, { limit: 0 }],
    [{ count: 'false' }, { count: false }],
  ])('%j', (query, expected) => {
    expect(parseCollectionQuery(query, SPEC)).toMatchObject(expected);
  });

  it.each([
    [{ limit: '251' }, 'LIMIT_EXCEEDED'],
    [{ limit: '-1' }, 'PARAM_INVALID'],
    [{ limit: 'ten' }, 'PARAM_INVALID'],
    [{ offset: '1.5' }, 'PARAM_INVALID'],
    [{ count: 'yes' }, 'PARAM_INVALID'],
    [{ limit: ['1', '2'] }, 'PARAM_REPEATED'],
  ])('%j → 400 %s', (query, code) => {
    expect(fails(() => parseCollectionQuery(query, SPEC))).toEqual({ code, status: 400 });
  });

  it('an endpoint may declare other limits (search: 10000)', () => {
    expect(parseCollectionQuery({ limit: '10000' }, { ...SPEC, maxLimit: 10000 }).limit).toBe(10000);
  });
});

describe('sorters', () => {
  it.each([
    ['type,-created', [['type', false], ['created', true], ['id', false]]],
    ['-name', [['name', true], ['id', false]]],
    [' name , id ', [['name', false], ['id', false]]],
    ['-id', [['id', true]]],
  ])('%s', (sorters, expected) => {
    expect(parseCollectionQuery({ sorters }, SPEC).order.map((k) => [k.field, k.descending])).toEqual(expected);
  });

  it.each([
    ['modified', 'SORTER_FIELD'],
    ['name,,id', 'SORTER_INVALID'],
    ['+name', 'SORTER_INVALID'],
    ['name,-name', 'SORTER_REPEATED'],
    ['__proto__', 'SORTER_FIELD'],
  ])('%s → 400 %s', (sorters, code) => {
    expect(fails(() => parseCollectionQuery({ sorters }, SPEC))).toEqual({ code, status: 400 });
  });

  it('lists the sortable fields in SORTER_FIELD, with the one probably meant', () => {
    expect(() => parseCollectionQuery({ sorters: '-crated' }, SPEC)).toThrow("sorting on 'crated' is not supported; did you mean \"created\"? (supported: name, created, type, id)");
  });
});

describe('filters', () => {
  it('compile to a parameterized WHERE: values are never in the SQL text', () => {
    const q = parseCollectionQuery({ filters: 'name sw "Act" and type eq "x\'; DROP TABLE items; --"' }, SPEC);
    const { page } = collectionSql(SPEC, q);
    expect(page.sql).not.toContain('DROP');
    expect(page.params.some((p) => String(p).toLowerCase() === "x'; drop table items; --")).toBe(true);
  });

  it.each([
    ['modified gt "2020-01-01T00:00:00Z"', 'FILTER_FIELD'],
    ['type sw "A"', 'FILTER_OPERATOR'],
    ['name EQ "A"', 'FILTER_SYNTAX'],
    ['name eq', 'FILTER_SYNTAX'],
    ['name eq "a', 'FILTER_SYNTAX'],
    ['created gt "yesterday"', 'FILTER_VALUE'],
  ])('%s → 400 %s', (filters, code) => {
    expect(fails(() => parseCollectionQuery({ filters }, SPEC))).toMatchObject({ code, status: 400 });
  });

  it('an endpoint without filters refuses the parameter', () => {
    expect(fails(() => parseCollectionQuery({ filters: 'id eq "1"' }, { ...SPEC, filters: undefined })).code).toBe('FILTERS_UNSUPPORTED');
  });

  it.each([
    ['/v3/sources?filters=name%20eq%20%22100%%22', true],
    ['/v3/sources?filters=name%20eq%20%22100%25%22', false],
    ['/v3/sources?sorters=name&filters=name%20eq%20%22%23%22', false],
    ['/v3/sources?other=%zz', false],
  ])('raw escapes of %s refused: %s', (url, refused) => {
    if (refused) expect(fails(() => checkRawEscapes(url)).code).toBe('UNESCAPED_CHARACTER');
    else expect(() => checkRawEscapes(url)).not.toThrow();
  });

  it.each([
    ['/v3/sources?filters=%C0%AF', 'filters', 0],
    ['/v3/sources?filters=a%C3', 'filters', 1],
    ['/v3/sources?filters=%ED%A0%80', 'filters', 0],
    ['/v3/sources?filters=%F4%90%80%80', 'filters', 0],
    ['/v3/sources?filters=%E2%82%ACx%E2%82', 'filters', 10],
    ['/v3/transforms?name=%FF', 'name', 0],
  ])('escapes of %s that are not UTF-8: PARAM_INVALID naming %s at %d', (url, parameter, position) => {
    let error: unknown;
    try {
      checkRawEscapes(url);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'PARAM_INVALID', status: 400, details: { parameter } });
    expect((error as Error).message).toMatch(new RegExp(`^the ${parameter} value at position ${position} has percent-escapes that are not UTF-8`));
  });

  it('well-formed UTF-8 escapes (€, an astral character, é) and an escaped percent sign pass', () => {
    expect(() => checkRawEscapes('/v3/sources?filters=%E2%82%AC%F0%9F%98%80%C3%A9&sorters=%25C0')).not.toThrow();
  });
});

describe('running against SQLite', () => {
  const db = new Database(':memory:');
  registerSqlFunctions(db);
  db.exec('CREATE TABLE items (id TEXT PRIMARY KEY, name TEXT, type TEXT, created TEXT, doc TEXT)');
  const rows = [
    { id: 'a', name: 'Active Directory', type: 'AD', created: '2021-02-01T09:30:00Z', owner: 'o1', features: ['ENABLE', 'PASSWORD'] },
    { id: 'b', name: 'Workday', type: 'HR', created: '2021-02-01T09:00:00Z', owner: 'o1', features: ['NO_RANDOM_ACCESS'] },
    { id: 'c', name: 'Okta', type: 'AD', created: '2021-06-14T12:00:00Z', owner: 'o2', features: ['ENABLE'] },
    { id: 'd', name: 'active users', type: 'AD', created: '2020-09-10T07:45:00Z', owner: 'o2', features: [] },
  ];
  const insert = db.prepare('INSERT INTO items VALUES (?, ?, ?, ?, ?)');
  for (const r of rows) insert.run(r.id, r.name, r.type, r.created, JSON.stringify({ owner: { id: r.owner }, features: r.features }));
  afterAll(() => db.close());

  const ids = (query: Record<string, string>) => runCollection(db, SPEC, parseCollectionQuery(query, SPEC), (row) => row.id, 'id').items;

  it.each([
    [{}, ['a', 'b', 'c', 'd']],
    [{ limit: '2', offset: '1' }, ['b', 'c']],
    [{ filters: 'name sw "act"' }, ['a', 'd']],
    [{ filters: 'owner.id eq "o2"' }, ['c', 'd']],
    [{ filters: 'features ca ("ENABLE","PASSWORD")' }, ['a']],
    [{ filters: 'created ge 2021-02-01T09:30:00Z' }, ['a', 'c']],
    [{ filters: 'not type eq "AD"' }, ['b']],
    [{ filters: 'id in ("a","c") or name eq "workday"' }, ['a', 'b', 'c']],
    [{ sorters: '-created' }, ['c', 'a', 'b', 'd']],
    [{ sorters: 'type,-name' }, ['d', 'c', 'a', 'b']],
    [{ filters: 'name eq "nothing"' }, []],
  ])('%j → %j', (query, expected) => {
    expect(ids(query)).toEqual(expected);
  });

  it('prepares each query shape once, keeping the 256 shapes used last', () => {
    const made: string[] = [];
    const counting: SqlDatabase = { prepare: (sql) => (made.push(sql), db.prepare(sql)) };
    const shape = (n: number) => `SELECT ${n} AS n`;
    prepared(counting, shape(0));
    for (let n = 1; n < 256; n++) {
      prepared(counting, shape(n));
      prepared(counting, shape(0));
    }
    expect(made).toHaveLength(256);
    // A new shape evicts the least recently used one (1), not the oldest (0, used all along).
    prepared(counting, shape(256));
    prepared(counting, shape(0));
    expect(made).toHaveLength(257);
    prepared(counting, shape(1));
    expect(made).toHaveLength(258);
    expect((prepared(counting, shape(0)).get() as { n: number }).n).toBe(0);
  });

  it('ties are broken by id so that pages never overlap', () => {
    const pages = [0, 1, 2, 3].map((offset) => ids({ sorters: 'type', limit: '1', offset: String(offset) })[0]);
    expect(pages).toEqual(['a', 'c', 'd', 'b']);
  });

  it('count=true totals the filtered collection, ignoring limit and offset', () => {
    const page = runCollection(db, SPEC, parseCollectionQuery({ filters: 'type eq "AD"', limit: '1', offset: '1', count: 'true' }, SPEC), (r) => r.id, 'id');
    expect(page).toEqual({ items: ['c'], total: 3 });
  });

  it('without count there is no total', () => {
    expect(runCollection(db, SPEC, parseCollectionQuery({}, SPEC), (r) => r.id, 'id').total).toBeNull();
  });

  describe('in storage order (rowid, as accounts are listed without sorters)', () => {
    const STORED: CollectionSpec = { ...SPEC, defaultOrder: 'rowid' };
    const stored = (query: Record<string, string>) => runCollection(db, STORED, parseCollectionQuery(query, STORED), (row) => row.id, 'id').items;

    it('needs no id after the rowid, which is unique', () => {
      expect(parseCollectionQuery({}, STORED).order.map((k) => k.expr)).toEqual(['rowid']);
      expect(parseCollectionQuery({ sorters: 'name' }, STORED).order.map((k) => k.expr)).toEqual(['name', 'id']);
    });

    it('picks a page by rowid first, then reads only its rows', () => {
      const { page } = collectionSql(STORED, parseCollectionQuery({ filters: 'type eq "AD"', limit: '2', offset: '1' }, STORED));
      expect(page.sql).toMatch(/^SELECT doc FROM items WHERE rowid IN \(SELECT rowid FROM items WHERE .+ ORDER BY rowid ASC LIMIT \? OFFSET \?\) ORDER BY rowid ASC$/);
    });

    it.each([
      [{}, ['a', 'b', 'c', 'd']],
      [{ limit: '2', offset: '1' }, ['b', 'c']],
      [{ filters: 'type eq "AD"', limit: '2', offset: '1' }, ['c', 'd']],
      [{ filters: 'created ge 2021-02-01T09:30:00Z' }, ['a', 'c']],
      [{ offset: '4' }, []],
    ])('%j → %j', (query, expected) => {
      expect(stored(query)).toEqual(expected);
    });
  });
});
