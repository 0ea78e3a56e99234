// The search query language subset and search paging
// (https://developer.sailpoint.com/docs/api/v3/search-post): parser table, coded errors with
// positions, word matching, and plans run against an in-memory identities table.

import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { isTransformsError } from '../../src/errors.js';
import {
  IDENTITIES_INDEX,
  matchesPrefix,
  matchesWords,
  parseSearchQuery,
  planSearch,
  registerSearchFunctions,
  type SearchNode,
} from '../../src/api/search/index.js';

/** A compact rendering of the AST for the parser table. */
function show(n: SearchNode): string {
  switch (n.kind) {
    case 'all':
      return '*';
    case 'exists':
      return `${n.field}:*`;
    case 'term':
      return `${n.field ?? '_'}:${n.phrase ? JSON.stringify(n.value) : n.value}${n.prefix ? '*' : ''}`;
    case 'not':
      return `NOT(${show(n.operand)})`;
    default:
      return `${n.kind.toUpperCase()}(${n.children.map(show).join(' ')})`;
  }
}

function error(fn: () => unknown): { code: string; status: number; position?: unknown; reason?: unknown } {
  try {
    fn();
  } catch (err) {
    if (isTransformsError(err)) return { code: err.code, status: err.status, position: err.details?.position, reason: err.details?.reason };
    throw err;
  }
  throw new Error('expected an error');
}

describe('parseSearchQuery', () => {
  it.each([
    ['*', '*'],
    ['name:john', 'name:john'],
    ['name:"John Smith"', 'name:"John Smith"'],
    ['email:*', 'email:*'],
    ['firstName:Jo*', 'firstName:Jo*'],
    ['smith', '_:smith'],
    ['"Yuki Schröder"', '_:"Yuki Schröder"'],
    ['a:1 AND b:2 OR c:3', 'OR(AND(a:1 b:2) c:3)'],
    ['a:1 OR b:2 AND c:3', 'OR(a:1 AND(b:2 c:3))'],
    ['NOT a:1 AND b:2', 'AND(NOT(a:1) b:2)'],
    ['a:1 AND (b:2 OR c:3)', 'AND(a:1 OR(b:2 c:3))'],
    ['a:1 b:2', 'OR(a:1 b:2)'],
    ['a:1 NOT b:2', 'OR(a:1 NOT(b:2))'],
    ['attributes.department:Engineering', 'attributes.department:Engineering'],
    ['name:a\\:b', 'name:a:b'],
    ['name:x\\*', 'name:x*'],
    ['a:1 and b:2', 'OR(a:1 _:and b:2)'],
    ['name:"say \\"hi\\""', 'name:"say \\"hi\\""'],
  ])('%s → %s', (query, expected) => {
    expect(show(parseSearchQuery(query))).toBe(expected);
  });

  it('an escaped star is a literal, not a prefix', () => {
    expect(parseSearchQuery('name:x\\*')).toMatchObject({ kind: 'term', value: 'x*', prefix: false });
  });

  it.each([
    ['', 0],
    ['name:', 5],
    ['(a:1', 4],
    ['a:1)', 3],
    ['name:[a TO b]', 5],
    ['name:jo~', 7],
    ['-name:x', 0],
    ['a:1 && b:2', 4],
    ['name:"open', 5],
    ['name:j*n', 5],
    ['AND a:1', 0],
    ['a:1 AND', 7],
    ['1bad.field:x', 0],
  ])('%j → FILTER_SYNTAX at %i', (query, position) => {
    expect(error(() => parseSearchQuery(query))).toMatchObject({ code: 'FILTER_SYNTAX', status: 400, position });
  });

  it('refuses nesting beyond the depth limit', () => {
    expect(error(() => parseSearchQuery('('.repeat(80) + 'a:1' + ')'.repeat(80))).code).toBe('FILTER_LIMIT');
  });
});

describe('word matching (docs/decisions.md "Search matching")', () => {
  it.each([
    ['John Smith', 'john', true],
    ['John Smith', 'SMITH', true],
    ['John Smith', 'john smith', true],
    ['John Smith', 'smith john', false],
    ['John Smithers', 'smith', false],
    ['fatima.schroder@example.com', 'fatima.schroder@example.com', true],
    ['fatima.schroder@example.com', 'schroder', true],
    ['Schröder', 'schröder', true],
    [null, 'x', false],
    [100001, '100001', true],
  ])('%j matches %j: %s', (value, query, expected) => {
    expect(matchesWords(value, query)).toBe(expected);
  });

  it.each([
    ['John Smith', 'jo', true],
    ['John Smith', 'sm', true],
    ['John Smith', 'mith', false],
  ])('%j has prefix %j: %s', (value, prefix, expected) => {
    expect(matchesPrefix(value, prefix)).toBe(expected);
  });
});

describe('planSearch on an identities table', () => {
  const db = new Database(':memory:');
  registerSearchFunctions(db);
  db.exec('CREATE TABLE identities (id TEXT PRIMARY KEY, name TEXT NOT NULL, manager_id TEXT, doc TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO identities VALUES (?, ?, ?, ?)');
  const people = [
    ['i1', 'john.smith', null, { firstname: 'John', lastname: 'Smith', displayName: 'John Smith', email: 'john.smith@example.com', department: 'Engineering' }],
    ['i2', 'jane.doe', 'i1', { firstname: 'Jane', lastname: 'Doe', displayName: 'Jane Doe', email: 'jane.doe@example.com', department: 'Sales' }],
    ['i3', 'joe.bloggs', 'i1', { firstname: 'Joe', lastname: 'Bloggs', displayName: 'Joe Bloggs', email: null, department: 'Engineering' }],
  ] as const;
  for (const [id, name, manager, attributes] of people) insert.run(id, name, manager, JSON.stringify({ id, name, attributes }));
  // 12,000 more for paging past the 10,000 offset window.
  db.transaction(() => {
    for (let n = 0; n < 12_000; n++) {
      const id = `p${String(n).padStart(5, '0')}`;
      insert.run(id, `person.${id}`, null, JSON.stringify({ id, name: `person.${id}`, attributes: { department: 'Bulk' } }));
    }
  })();
  afterAll(() => db.close());

  const run = (body: Record<string, unknown>, query: Record<string, string> = {}) => {
    const plan = planSearch({ indices: ['identities'], ...body }, query, [IDENTITIES_INDEX], 'id');
    const ids = (db.prepare(plan.page.sql).all(...plan.page.params) as { id: string }[]).map((r) => r.id);
    const total = plan.total === null ? null : (db.prepare(plan.total.sql).get(...plan.total.params) as { n: number }).n;
    return { ids, total, plan };
  };

  it.each([
    ['firstName:john', ['i1']],
    ['attributes.department:engineering', ['i1', 'i3']],
    ['attributes.department:engineering AND NOT lastName:smith', ['i3']],
    ['name:"jane.doe" OR email:"john.smith@example.com"', ['i1', 'i2']],
    ['firstName:j*', ['i1', 'i2', 'i3']],
    ['email:* AND attributes.department:engineering', ['i1']],
    ['manager.id:i1', ['i2', 'i3']],
    // `id` is a keyword: the whole value, with case (an index serves it).
    ['id:i2', ['i2']],
    ['id:"i2" OR id:"i3" OR id:"nobody"', ['i2', 'i3']],
    ['id:I2', []],
    ['id:i*', ['i1', 'i2', 'i3']],
    ['id:p0000*', ['p00000', 'p00001', 'p00002', 'p00003', 'p00004', 'p00005', 'p00006', 'p00007', 'p00008', 'p00009']],
    ['bloggs', ['i3']],
    ['attributes.department:nothing', []],
  ])('%s → %j', (query, ids) => {
    expect(run({ query: { query } }).ids).toEqual(ids);
  });

  it('looks ids up in the primary key index, not row by row', () => {
    const { plan } = run({ query: { query: 'id:"i2" OR id:"i3"' } });
    const detail = (db.prepare(`EXPLAIN QUERY PLAN ${plan.page.sql}`).all(...plan.page.params) as { detail: string }[]).map((r) => r.detail).join('; ');
    expect(detail).not.toMatch(/SCAN identities\b(?! USING)/);
    expect(detail).toMatch(/USING (INDEX|PRIMARY KEY|COVERING INDEX) sqlite_autoindex_identities_1|MULTI-INDEX OR/);
  });

  it('a missing query matches everything, up to the default limit of 10000', () => {
    const { ids, total } = run({}, { count: 'true' });
    expect(ids).toHaveLength(10_000);
    expect(total).toBe(12_003);
  });

  it('sorts with - for descending and breaks ties by id', () => {
    expect(run({ query: { query: 'attributes.department:engineering OR attributes.department:sales' }, sort: ['-firstName'] }).ids).toEqual(['i1', 'i3', 'i2']);
    // The bulk rows have no firstName: equal keys, ordered by id whichever way the key sorts.
    expect(run({ query: { query: 'attributes.department:bulk' }, sort: ['-firstName'] }, { limit: '3' }).ids).toEqual(['p00000', 'p00001', 'p00002']);
  });

  it('offset paging is cut at record 10000 and refused beyond it', () => {
    expect(run({}, { offset: '9990', limit: '100' }).ids).toHaveLength(10);
    expect(error(() => run({}, { offset: '10000', limit: '1' })).reason).toBe('SEARCH_OFFSET_CAP');
  });

  it('searchAfter with sort pages through all 12,003 records', () => {
    const seen: string[] = [];
    let after: string[] | undefined;
    for (;;) {
      const { ids } = run({ query: { query: '*' }, sort: ['name'], ...(after === undefined ? {} : { searchAfter: after }) }, { limit: '2500' });
      if (ids.length === 0) break;
      seen.push(...ids);
      const last = db.prepare('SELECT name FROM identities WHERE id = ?').get(ids.at(-1)) as { name: string };
      after = [last.name];
    }
    expect(seen).toHaveLength(12_003);
    expect(new Set(seen).size).toBe(12_003);
  });

  it('searchAfter continues descending orders too', () => {
    const first = run({ query: { query: 'attributes.department:engineering OR attributes.department:sales' }, sort: ['-name'] }, { limit: '1' });
    expect(first.ids).toEqual(['i1']);
    expect(run({ query: { query: 'attributes.department:engineering OR attributes.department:sales' }, sort: ['-name'], searchAfter: ['john.smith'] }).ids).toEqual(['i3', 'i2']);
  });

  it('a keyset over keys of mixed directions continues after the given values', () => {
    const sort = ['-firstName', 'name'];
    const all = run({ query: { query: 'attributes.department:engineering OR attributes.department:sales' }, sort }).ids;
    expect(all).toEqual(['i1', 'i3', 'i2']);
    // After Joe (i3): John sorts before Joe descending, so only Jane remains.
    expect(run({ query: { query: 'attributes.department:engineering OR attributes.department:sales' }, sort, searchAfter: ['Joe', 'joe.bloggs'] }).ids).toEqual(['i2']);
    expect(run({ query: { query: 'attributes.department:engineering OR attributes.department:sales' }, sort, searchAfter: ['John', 'a'] }).ids).toEqual(['i1', 'i3', 'i2']);
  });

  it.each([
    [{ indices: ['accounts'] }, {}, 'SEARCH_INDEX'],
    [{ indices: [] }, {}, 'SEARCH_INDEX'],
    [{ indices: 'identities' }, {}, 'SEARCH_INDEX'],
    [{ sort: ['password'] }, {}, 'SEARCH_SORT_FIELD'],
    [{ sort: ['phone'] }, {}, 'SEARCH_SORT_FIELD'],
    [{ searchAfter: ['x'] }, {}, 'SEARCH_AFTER_WITHOUT_SORT'],
    [{ sort: ['name'], searchAfter: [{}] }, {}, 'SEARCH_AFTER_INVALID'],
    [{ sort: ['name'], searchAfter: ['a', 'b', 'c'] }, {}, 'SEARCH_AFTER_INVALID'],
    [{ sort: ['name'], searchAfter: ['a'] }, { offset: '10' }, 'SEARCH_AFTER_WITH_OFFSET'],
    [{ queryType: 'DSL' }, {}, 'SEARCH_UNSUPPORTED'],
    [{ textQuery: { terms: ['x'] } }, {}, 'SEARCH_UNSUPPORTED'],
    [{ query: 'name:x' }, {}, 'SEARCH_BODY_INVALID'],
    [{}, { limit: '10001' }, 'LIMIT_EXCEEDED'],
  ])('%j %j → 400 %s', (body, query, reason) => {
    expect(error(() => planSearch({ indices: ['identities'], ...body }, query, [IDENTITIES_INDEX]))).toMatchObject({ code: 'API_BAD_REQUEST', status: 400, reason });
  });

  it('an unknown field is FILTER_FIELD (400)', () => {
    expect(error(() => run({ query: { query: 'salary:100' } }))).toMatchObject({ code: 'FILTER_FIELD', status: 400 });
  });

  it('query values are bound, never inlined', () => {
    const { plan } = run({ query: { query: 'name:"x\'); DROP TABLE identities; --"' } });
    expect(plan.page.sql).not.toContain('DROP');
  });
});
