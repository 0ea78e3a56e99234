// The tenant-shaped arbitraries: records carry the fixture's keys and kinds, ids agree
// with each other, sources exist; over many samples the awkward cases occur (no account on a
// source, several with different dates, nulls, lists, names with diacritics, apostrophes and
// hyphens); a generated tenant passes the fixture format's integrity checks.

import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TransformsError } from '../../src/errors/index.js';
import { loadFixtures } from '../../src/providers/fixtures.js';
import type { Account } from '../../src/providers/types.js';
import { arbitraryAccount, arbitraryIdentity, arbitrarySource, arbitraryTenant, fixtureSamples } from '../../src/testing/arbitraries.js';
import { fixtureShape, type AttributeShape, type ValueKind } from '../../src/testing/shape.js';
import { tenantProblems } from '../fixtures/tenant-checks.js';

const fixtures = loadFixtures(join(import.meta.dirname, '../../fixtures'));
const shape = fixtureShape(fixtures);
const sourceIds = new Set(fixtures.sources.map((s) => s.id));
const identityIds = new Set(fixtures.identities.map((i) => i.id));
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function kindOf(value: unknown): ValueKind {
  return value === null ? 'null' : Array.isArray(value) ? 'list' : (typeof value as ValueKind);
}

/** Every key of `record` is in the shape with the value's kind; every required key is there. */
function fitsShape(record: Record<string, unknown>, shapes: Readonly<Record<string, AttributeShape>>): void {
  for (const [key, value] of Object.entries(record)) {
    expect(shapes[key], `unexpected key ${key}`).toBeDefined();
    expect(shapes[key]!.kinds).toContain(kindOf(value));
  }
  for (const [key, s] of Object.entries(shapes)) if (!s.optional) expect(record, `missing key ${key}`).toHaveProperty([key]);
}

function fitsSource(account: Account): void {
  expect(sourceIds.has(account.sourceId)).toBe(true);
  expect(account.created).toMatch(ISO);
  fitsShape(account.attributes, shape.sources.find((s) => s.source.id === account.sourceId)!.attributes);
}

describe('arbitraryIdentity', () => {
  it('gives identities with the fixture’s keys and kinds, and accounts on the fixture’s sources', () => {
    fc.assert(
      fc.property(arbitraryIdentity(fixtures), ({ identity, accounts }) => {
        fitsShape(identity.attributes, shape.identityAttributes);
        expect(identity.attributes['uid']).toBe(identity.name);
        expect(identity.managerId === null || identityIds.has(identity.managerId!)).toBe(true);
        expect(identityIds.has(identity.id)).toBe(false);
        for (const a of accounts) {
          expect(a.identityId).toBe(identity.id);
          fitsSource(a);
        }
        expect(new Set(accounts.map((a) => a.id)).size).toBe(accounts.length);
      }),
      { numRuns: 100 },
    );
  });

  it('produces the awkward cases a fixture-shaped property must meet', () => {
    const samples = fc.sample(arbitraryIdentity(fixtures), { numRuns: 300, seed: 42 });
    const perSource = (s: (typeof samples)[number], id: string) => s.accounts.filter((a) => a.sourceId === id);
    const ad = fixtures.sources.find((s) => s.name === 'Active Directory')!.id;
    expect(samples.some((s) => perSource(s, ad).length === 0)).toBe(true);
    const several = samples.map((s) => perSource(s, ad)).find((list) => list.length >= 2)!;
    expect(new Set(several.map((a) => a.created)).size).toBeGreaterThan(1);
    expect(samples.some((s) => s.identity.attributes['email'] === null)).toBe(true);
    expect(samples.some((s) => s.accounts.some((a) => Array.isArray(a.attributes['memberOf']) && (a.attributes['memberOf'] as unknown[]).length > 1))).toBe(true);
    const names = samples.map((s) => `${String(s.identity.attributes['firstname'])} ${String(s.identity.attributes['lastname'])}`);
    expect(names.some((n) => /[\u00C0-\u024F]/.test(n))).toBe(true);
    expect(names.some((n) => n.includes("'"))).toBe(true);
    expect(names.some((n) => n.includes('-'))).toBe(true);
    expect(samples.some((s) => s.identity.managerId !== null)).toBe(true);
  });

  it('names the same person in the identity and its accounts', () => {
    fc.assert(
      fc.property(arbitraryIdentity(fixtures), ({ identity, accounts }) => {
        const first = String(identity.attributes['firstname']).toLowerCase();
        for (const a of accounts) expect(a.name.toLowerCase()).toContain(first);
      }),
      { numRuns: 50 },
    );
  });

  it('uses the default shape (the generator’s sources) without a fixture', () => {
    const [sample] = fc.sample(arbitraryIdentity(), { numRuns: 1, seed: 1 });
    expect(sample!.identity.managerId).toBeNull();
    for (const a of sample!.accounts) expect(sourceIds.has(a.sourceId)).toBe(true);
  });
});

describe('arbitraryTenant', () => {
  it('passes the fixture format’s integrity checks (ids, names, managers, native identities)', () => {
    fc.assert(
      fc.property(arbitraryTenant(fixtures, { minIdentities: 2, maxIdentities: 12 }), (tenant) => {
        expect(tenantProblems(tenant)).toEqual([]);
        expect(tenant.sources.map((s) => s.id)).toEqual(fixtures.sources.map((s) => s.id));
      }),
      { numRuns: 60 },
    );
  });

  it('keeps names unique even when two identities are the same person', () => {
    const same = fc.sample(arbitraryTenant(undefined, { minIdentities: 40, maxIdentities: 40 }), { numRuns: 5, seed: 3 });
    for (const tenant of same) expect(new Set(tenant.identities.map((i) => i.name)).size).toBe(40);
  });
});

describe('arbitraryAccount and arbitrarySource', () => {
  it('gives accounts on the named source with its keys, owned by the given identity', () => {
    fc.assert(
      fc.property(arbitraryAccount(fixtures, { source: 'Okta', identityId: 'owner' }), (account) => {
        expect(account.identityId).toBe('owner');
        expect(account.sourceId).toBe(fixtures.sources.find((s) => s.name === 'Okta')!.id);
        fitsSource(account);
      }),
      { numRuns: 50 },
    );
  });

  it('draws sources from the fixture only', () => {
    fc.assert(fc.property(arbitrarySource(fixtures), (s) => sourceIds.has(s.id)), { numRuns: 30 });
  });

  it('rejects a source the shape does not have with a coded error', () => {
    expect(() => arbitraryAccount(fixtures, { source: 'Nowhere' })).toThrow(TransformsError);
  });
});

describe('fixtureSamples', () => {
  it('pairs every fixture identity with exactly its accounts', () => {
    const samples = fixtureSamples(fixtures);
    expect(samples).toHaveLength(fixtures.identities.length);
    expect(samples.reduce((n, s) => n + s.accounts.length, 0)).toBe(fixtures.accounts.length);
    for (const s of samples) expect(s.accounts.every((a) => a.identityId === s.identity.id)).toBe(true);
  });
});
