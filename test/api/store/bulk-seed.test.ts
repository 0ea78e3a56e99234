// Seeding a new store loads the tenant's identities and accounts with the indexes and the
// public-identity triggers set aside, then builds them: the store must end up exactly as
// inserting row by row leaves it.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { seedStore } from '../../../src/api/store/seed.js';
import { Store } from '../../../src/api/store/store.js';
import type { Doc } from '../../../src/api/store/resource-repo.js';

const FIXTURES = fileURLToPath(new URL('../fixtures', import.meta.url));
const read = (file: string) => JSON.parse(readFileSync(`${FIXTURES}/${file}`, 'utf8')) as Doc[];

const schema = (store: Store) => store.db.prepare("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name").all();
const rows = (store: Store, table: string) => store.db.prepare(`SELECT * FROM ${table} ORDER BY id`).all();

describe('seeding a new store', () => {
  it('leaves the same schema, rows and public-identity columns as inserting row by row', () => {
    const seeded = Store.open();
    const summary = seedStore(seeded, FIXTURES, { now: new Date('2025-01-01T00:00:00Z'), secretHashCost: 10 });
    expect(summary.identities).toBeGreaterThan(1);
    const oneByOne = Store.open();
    // Identities in reverse order: a manager inserted after its reports fills their manager columns.
    oneByOne.transaction(() => {
      for (const kind of ['sources', 'identities', 'accounts'] as const) for (const d of read(`${kind}.json`).reverse()) oneByOne.resources.put(kind, d);
    });
    expect(schema(seeded)).toEqual(schema(oneByOne));
    for (const table of ['identities', 'accounts', 'public_identity_columns']) expect(rows(seeded, table)).toEqual(rows(oneByOne, table));
    expect(rows(seeded, 'public_identity_columns').some((r) => (r as { manager_ref: unknown }).manager_ref !== null)).toBe(true);
    // The triggers are back: a later change updates the public-identity columns.
    const someone = read('identities.json')[0]!;
    seeded.resources.put('identities', { ...someone, name: 'renamed.person' });
    expect(seeded.db.prepare('SELECT alias FROM public_identity_columns WHERE id = ?').get(someone.id)).toEqual({ alias: 'renamed.person' });
  });

  it('with rows already stored, loads row by row and keeps them', () => {
    const store = Store.open();
    const extra = { ...read('identities.json')[0]!, id: 'already-there', name: 'already.there' };
    store.resources.put('identities', extra);
    seedStore(store, FIXTURES, { now: new Date('2025-01-01T00:00:00Z'), secretHashCost: 10 });
    expect(store.db.prepare('SELECT alias FROM public_identity_columns WHERE id = ?').get('already-there')).toEqual({ alias: 'already.there' });
    expect(store.resources.count('identities')).toBe(read('identities.json').length + 1);
  });
});
