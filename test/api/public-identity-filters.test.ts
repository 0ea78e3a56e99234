// /public-identities filters ignore case inside SQLite: the folded key columns of store
// migration 4 (the value when ASCII, its fold otherwise, COLLATE NOCASE) select exactly what the
// in-memory predicate selects, and what the filter_fold formulation selected, in an in-memory
// store and in a file store (`--db`); the page query walks an index and calls no JavaScript.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { collectionSql, parseCollectionQuery } from '../../src/api/collections/index.js';
import { PUBLIC_IDENTITIES, PUBLIC_IDENTITY_ITEM } from '../../src/api/plugins/identities.js';
import { Store } from '../../src/api/store/store.js';
import { compilePredicate, compileSql, SQL_FUNCTIONS, type FieldMap, type FilterNode } from '../../src/filter/index.js';
import { foldingAst, foldingText } from '../filter/arbitraries.js';
import { ADMIN_PAT, resourceServer, tokenOf } from './resources-server.js';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'public-identity-filters-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const NAMES = ['alias', 'email', 'firstname', 'lastname'] as const;
/** Every operator on the four fields, with their folded keys (what the endpoint allows is a subset). */
const FOLDED: FieldMap = Object.fromEntries(NAMES.map((n) => [n, { type: 'string', column: n, foldedColumn: `${n}_key` }]));
/** The same fields compared through filter_fold, as every case-ignoring filter was before. */
const THROUGH_FOLD: FieldMap = Object.fromEntries(NAMES.map((n) => [n, { type: 'string', column: n }]));

type Person = { alias: string; email?: string | null; firstname?: string | null; lastname?: string | null };

function load(store: Store, people: readonly Person[]): void {
  store.transaction(() => {
    store.db.exec('DELETE FROM identities');
    people.forEach((p, i) => {
      const attributes = Object.fromEntries(Object.entries(p).filter(([k, v]) => k !== 'alias' && v !== undefined));
      store.resources.put('identities', { id: `p-${String(i).padStart(3, '0')}`, name: p.alias, attributes });
    });
  });
}

function selected(store: Store, ast: FilterNode, fields: FieldMap): string[] {
  const { text, params } = compileSql(ast, fields);
  return (store.db.prepare(`SELECT id FROM public_identity_rows WHERE ${text} ORDER BY id`).all(...params) as { id: string }[]).map((r) => r.id);
}

/** The predicate over the values the columns hold. */
function predicted(store: Store, ast: FilterNode): string[] {
  const predicate = compilePredicate(ast, { fields: THROUGH_FOLD });
  const rows = store.db.prepare('SELECT id, alias, email, firstname, lastname FROM public_identity_rows ORDER BY id').all() as Record<string, unknown>[];
  return rows.filter((r) => predicate(Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)))).map((r) => r.id as string);
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code ?? 'UNCODED';
  }
}

const person: fc.Arbitrary<Person> = fc.record(
  { alias: foldingText, email: fc.option(foldingText), firstname: fc.option(foldingText), lastname: fc.option(foldingText) },
  { requiredKeys: ['alias'] },
);

describe.each([
  ['an in-memory store', () => Store.open()],
  ['a file store (--db)', () => Store.open({ file: join(tempDir(), 'store.db') })],
])('folded keys in %s', (_label, open) => {
  it('select what the predicate and the filter_fold formulation select, for every operator', () => {
    const store = open();
    try {
      fc.assert(
        fc.property(fc.array(person, { maxLength: 8 }), foldingAst(NAMES), (people, ast) => {
          // A leaf no back end can compile (ge null) is refused by all three alike.
          const refused = [() => compileSql(ast, FOLDED), () => compileSql(ast, THROUGH_FOLD), () => compilePredicate(ast, { fields: THROUGH_FOLD })].map(codeOf);
          expect(new Set(refused).size).toBe(1);
          if (refused[0] !== undefined) return;
          load(store, people);
          const expected = predicted(store, ast);
          expect(selected(store, ast, FOLDED)).toEqual(expected);
          expect(selected(store, ast, THROUGH_FOLD)).toEqual(expected);
        }),
        { numRuns: 300 },
      );
    } finally {
      store.close();
    }
  });

  it.each<[string, string[]]>([
    // ASCII both ways, and a value whose fold is ASCII (the Kelvin sign folds to k).
    ['firstname eq "KIM"', ['kim', 'Kim', '\u212aim']],
    ['firstname eq "\u212aIM"', ['kim', 'Kim', '\u212aim']],
    // Non-ASCII letters fold in full, not A–Z only.
    ['firstname eq "MÁRÏA"', ['Márïa', 'MÁRÏA']],
    // İ folds to i + U+0307, which is not plain i; STRASSE folds to strasse, not straße.
    ['firstname eq "i̇stanbul"', ['İstanbul']],
    ['firstname eq "istanbul"', ['istanbul']],
    ['firstname eq "strasse"', ['STRASSE']],
    // A final Σ folds to ς as the whole word is folded.
    ['firstname eq "οδυσσευς"', ['ΟΔΥΣΣΕΥΣ']],
    ['firstname sw "οδυσσευσ"', []],
    ['firstname sw "MÁR"', ['Márïa', 'MÁRÏA']],
    ['firstname sw "k"', ['kim', 'Kim', '\u212aim']],
    // '@' + 1 is 'A', which NOCASE reads as 'a': the prefix test stays exact.
    ['firstname sw "@"', ['@home']],
    ['firstname sw "x@"', ['x@1', 'X@2']],
    // NOCASE stops comparing at a NUL; a literal holding one still selects exactly.
    ['firstname eq "A\u0000B"', ['a\u0000b', 'A\u0000B']],
    ['firstname sw "a\u0000b"', ['a\u0000b', 'A\u0000B', 'a\u0000bz']],
    ['firstname sw "a\u0000"', ['a\u0000b', 'A\u0000B', 'a\u0000bz', 'a\u0000c']],
    ['firstname sw "a"', ['a\u0000b', 'A\u0000B', 'a\u0000bz', 'a\u0000c', 'ahome', 'Ahome']],
  ])('%s', (filters, expected) => {
    const store = open();
    try {
      const names = ['kim', 'Kim', '\u212aim', 'Márïa', 'MÁRÏA', 'Maria', 'İstanbul', 'istanbul', 'straße', 'STRASSE', 'ΟΔΥΣΣΕΥΣ', '@home', 'Ahome', 'ahome',
        'x@1', 'X@2', 'xA', 'x[', 'x`', 'a\u0000b', 'A\u0000B', 'a\u0000bz', 'a\u0000c'];
      load(store, names.map((firstname, i) => ({ alias: `a${i}`, firstname })));
      const q = parseCollectionQuery({ filters }, PUBLIC_IDENTITIES);
      const rows = store.db.prepare(collectionSql(PUBLIC_IDENTITIES, q).page.sql).all(...collectionSql(PUBLIC_IDENTITIES, q).page.params) as { doc: string }[];
      const firstnames = rows.map((r) => (JSON.parse(r.doc) as { attributes: { firstname: string } }).attributes.firstname);
      expect(firstnames.sort()).toEqual([...expected].sort());
    } finally {
      store.close();
    }
  });
});

describe('the public-identities page query', () => {
  const FIRST = ['Maria', 'John', 'Aiko', 'Müller', 'Åsa'];
  const LAST = ['Smith', 'Silva', 'Tanaka', 'Øberg', 'Kim'];
  function seeded(): Store {
    const store = Store.open();
    store.transaction(() => {
      for (let n = 0; n < 2000; n++) {
        const first = FIRST[n % FIRST.length]!;
        const last = LAST[Math.floor(n / FIRST.length) % LAST.length]!;
        store.resources.put('identities', { id: `i-${n}`, name: `${first}.${last}.${n}`.toLowerCase(), attributes: { firstname: first, lastname: last, displayName: `${first} ${last}`, email: `${first}.${n}@example.com` } });
      }
    });
    return store;
  }

  const plan = (store: Store, query: Record<string, string>) => {
    // The page as the endpoint reads it: the items SQLite writes from the index alone.
    const { page } = collectionSql(PUBLIC_IDENTITIES, parseCollectionQuery({ limit: '250', ...query }, PUBLIC_IDENTITIES), `${PUBLIC_IDENTITY_ITEM} AS item`);
    expect(page.sql).not.toContain('filter_fold');
    return (store.db.prepare(`EXPLAIN QUERY PLAN ${page.sql}`).all(...page.params) as { detail: string }[]).map((r) => r.detail);
  };

  it.each<[Record<string, string>, RegExp]>([
    [{ filters: 'firstname eq "Maria" and lastname sw "S"', sorters: '-name' }, /^SEARCH c USING COVERING INDEX public_identity_columns_firstname_desc \(firstname_key=\?\)$/],
    [{ filters: 'firstname eq "maria" and lastname sw "s"', sorters: 'name' }, /^SEARCH c USING COVERING INDEX public_identity_columns_firstname \(firstname_key=\?\)$/],
    [{ filters: 'lastname eq "ØBERG"', sorters: '-name' }, /^SEARCH c USING COVERING INDEX public_identity_columns_lastname_desc \(lastname_key=\?\)$/],
    [{ filters: 'email eq "Maria.0@example.com"' }, /^SEARCH c USING INDEX public_identity_columns_email \(email_key=\?\)$/],
    [{ filters: 'alias sw "maria."', sorters: 'alias' }, /^SEARCH c USING INDEX public_identity_columns_alias \(alias_key>\? AND alias_key<\?\)$/],
  ])('%j is served by an index on the folded key, sorted by it when filtered in name order', (query, first) => {
    const store = seeded();
    try {
      const detail = plan(store, query);
      expect(detail[0]).toMatch(first);
      if (query.sorters?.endsWith('name')) expect(detail.join('\n')).not.toContain('TEMP B-TREE');
    } finally {
      store.close();
    }
  });

  it('calls no JavaScript function while it runs, and finds what the predicate finds', () => {
    const store = seeded();
    try {
      let calls = 0;
      store.db.function('filter_fold', { deterministic: true }, (v: unknown) => {
        calls++;
        return SQL_FUNCTIONS.filter_fold(v);
      });
      const filters = 'firstname eq "MARIA" and lastname sw "s"';
      const q = parseCollectionQuery({ limit: '250', filters, sorters: '-name' }, PUBLIC_IDENTITIES);
      const { page } = collectionSql(PUBLIC_IDENTITIES, q);
      const docs = (store.db.prepare(page.sql).all(...page.params) as { doc: string }[]).map((r) => JSON.parse(r.doc) as { id: string; attributes: { displayName: string } });
      expect(calls).toBe(0);
      expect(docs).toHaveLength(160);
      expect(docs.every((d) => /^Maria S/.test(d.attributes.displayName))).toBe(true);
      // Name descending, id ascending among equal names.
      expect(docs.map((d) => d.attributes.displayName)).toEqual([...Array(80).fill('Maria Smith'), ...Array(80).fill('Maria Silva')]);
      const ids = docs.slice(0, 80).map((d) => d.id);
      expect(ids).toEqual([...ids].sort());
      // A write of a non-ASCII value folds it once, when it is written.
      store.resources.put('identities', { id: 'new-1', name: 'new.one', attributes: { firstname: 'MÅRIA' } });
      expect(calls).toBe(1);
      const key = store.db.prepare("SELECT firstname_key AS k FROM public_identity_columns WHERE id = 'new-1'").get() as { k: string };
      expect(key.k).toBe('måria');
    } finally {
      store.close();
    }
  });
});

describe.each([
  ['in memory', () => ({})],
  ['with --db', () => ({ db: join(tempDir(), 'api.db') })],
])('GET /v3/public-identities ignores case in full Unicode (%s)', (_label, options) => {
  it('matches non-ASCII names whatever their case, and ASCII ones through NOCASE', async () => {
    const server = await resourceServer(options());
    try {
      const auth = { authorization: `Bearer ${await tokenOf(server, ADMIN_PAT)}` };
      for (const [id, firstname, lastname] of [['u-1', 'Émile', 'Zoë'], ['u-2', 'ÉMILE', 'ZOË'], ['u-3', 'emile', 'Zoe']]) {
        server.store.resources.put('identities', { id: id!, name: `user.${id}`, attributes: { firstname, lastname } });
      }
      const get = async (filters: string) => {
        const res = await server.api.inject({ url: `/v3/public-identities?filters=${encodeURIComponent(filters)}&sorters=alias`, headers: auth });
        expect(res.statusCode).toBe(200);
        return (res.json() as { id: string }[]).map((r) => r.id);
      };
      expect(await get('firstname eq "émile"')).toEqual(['u-1', 'u-2']);
      expect(await get('firstname eq "EMILE"')).toEqual(['u-3']);
      expect(await get('lastname sw "zoË"')).toEqual(['u-1', 'u-2']);
      expect(await get('lastname sw "ZO" and firstname eq "émile"')).toEqual(['u-1', 'u-2']);
    } finally {
      await server.close();
    }
  });
});
