// Search paging planned into SQL (https://developer.sailpoint.com/docs/api/v3/search-post;
// https://developer.sailpoint.com/docs/api/standard-collection-parameters): planSearch run against
// an in-memory identities table — query, sort, offset window, searchAfter, and the body's 400s.

import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { isTransformsError } from '../../src/errors/index.js';
import { registerSearchFunctions } from '../../src/filter/search/index.js';
import { IDENTITIES_INDEX, planSearch } from '../../src/api/search/index.js';

function error(fn: () => unknown): { code: string; status: number; position?: unknown } {
  try {
    fn();
  } catch (err) {
    if (isTransformsError(err)) return { code: err.code, status: err.status, position: err.details?.position };
    throw err;
  }
  throw new Error('expected an error');
}

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
    expect(error(() => run({}, { offset: '10000', limit: '1' })).code).toBe('SEARCH_OFFSET_CAP');
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
  ])('%j %j → 400 %s', (body, query, code) => {
    expect(error(() => planSearch({ indices: ['identities'], ...body }, query, [IDENTITIES_INDEX]))).toMatchObject({ code, status: 400 });
  });

  it('an unknown field is FILTER_FIELD (400)', () => {
    expect(error(() => run({ query: { query: 'salary:100' } }))).toMatchObject({ code: 'FILTER_FIELD', status: 400 });
  });

  it('query values are bound, never inlined', () => {
    const { plan } = run({ query: { query: 'name:"x\'); DROP TABLE identities; --"' } });
    expect(plan.page.sql).not.toContain('DROP');
  });
});
