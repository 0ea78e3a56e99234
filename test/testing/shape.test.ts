// fixtureShape / defaultShape: the shape of the bundled tenant is what its records
// show — sources, keys per source, nulls, lists, number ranges, date formats, name-like keys —
// and the default shape is the generator's, so it agrees with the bundled fixtures.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFixtures } from '../../src/providers/fixtures.js';
import { defaultShape, fixtureShape, resolveShape } from '../../src/testing/shape.js';

const fixtures = loadFixtures(join(import.meta.dirname, '../../fixtures'));
const shape = fixtureShape(fixtures);
const source = (name: string) => shape.sources.find((s) => s.source.name === name)!;

describe('fixtureShape', () => {
  it('lists every source of the tenant, with the keys its accounts carry', () => {
    expect(shape.sources.map((s) => s.source.id)).toEqual(fixtures.sources.map((s) => s.id));
    for (const s of shape.sources) {
      const keys = new Set(fixtures.accounts.filter((a) => a.sourceId === s.source.id).flatMap((a) => Object.keys(a.attributes)));
      expect(new Set(Object.keys(s.attributes))).toEqual(keys);
    }
  });

  it('records the kinds each attribute takes: nulls, lists, numbers', () => {
    expect(source('Active Directory').attributes['memberOf']!.kinds).toEqual(['list', 'null']);
    expect(source('Active Directory').attributes['memberOf']!.maxItems).toBeGreaterThan(1);
    expect(source('Corporate HR').attributes['RECORD_SEQ']).toMatchObject({ kinds: ['number'], numbers: { min: 1, max: 3, integers: true } });
    expect(shape.identityAttributes['email']!.kinds).toEqual(['null', 'string']);
    expect(shape.identityAttributes['firstname']!.kinds).toEqual(['string']);
  });

  it('classifies strings: name-like keys by name, dates and digits by their values', () => {
    expect(shape.identityAttributes['firstname']!.format).toBe('first-name');
    expect(shape.identityAttributes['lastname']!.format).toBe('last-name');
    expect(shape.identityAttributes['displayName']!.format).toBe('full-name');
    expect(shape.identityAttributes['uid']!.format).toBe('user-name');
    expect(source('Active Directory').attributes['sn']!.format).toBe('last-name');
    expect(source('Workday').attributes['HIREDATE']!.format).toBe('date-mdy');
    expect(source('HR Source').attributes['hire_date']!.format).toBe('date-ymd');
    expect(source('Okta').attributes['lastLogin']!.format).toBe('iso-date-time');
    expect(source('Workday').attributes['COST_CENTER']!.format).toBe('digits');
    expect(shape.identityAttributes['department']!.format).toBe('text');
    expect(shape.identityAttributes['department']!.examples).toContain('Engineering');
  });

  it('counts the most accounts one identity has on a source', () => {
    expect(source('Active Directory').maxAccounts).toBe(3);
    expect(source('Okta').maxAccounts).toBe(1);
  });

  it('offers the tenant’s identities as managers', () => {
    expect(shape.managerIds.length).toBeGreaterThan(0);
    const ids = new Set(fixtures.identities.map((i) => i.id));
    expect(shape.managerIds.every((id) => ids.has(id))).toBe(true);
  });

  it('marks keys some records lack as optional', () => {
    const partial = fixtureShape({ sources: [], identities: [{ id: 'a', name: 'a', attributes: { x: 1 } }, { id: 'b', name: 'b', attributes: {} }], accounts: [] });
    expect(partial.identityAttributes['x']!.optional).toBe(true);
  });
});

describe('defaultShape', () => {
  it('has the bundled fixtures’ sources and keys (both come from the tenant generator)', () => {
    const d = defaultShape();
    expect(d.sources.map((s) => s.source.id)).toEqual(shape.sources.map((s) => s.source.id));
    expect(Object.keys(d.identityAttributes).sort()).toEqual(Object.keys(shape.identityAttributes).sort());
    expect(d.managerIds).toEqual([]);
  });

  it('is what resolveShape gives without input; a shape passes through unchanged', () => {
    expect(resolveShape(undefined)).toEqual(defaultShape());
    expect(resolveShape(shape)).toBe(shape);
    expect(resolveShape(fixtures)).toEqual(shape);
  });
});
