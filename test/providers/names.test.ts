// The names of a tenant's model, for suggestions: source names, the attribute names each source's
// accounts carry, the closest source name of a SourceRef, and whether an attribute is carried.

import { describe, expect, it } from 'vitest';
import { TenantNames } from '../../src/providers/names.js';
import type { Account } from '../../src/providers/types.js';

const account = (id: string, sourceId: string, attributes: Record<string, unknown>): Account => ({ id, identityId: 'i', sourceId, nativeIdentity: id, name: id, created: '2020-01-01T00:00:00Z', hasEntitlements: false, attributes });
const names = new TenantNames(
  [
    { id: 's-wd', name: 'Workday' },
    { id: 's-ad', name: 'Active Directory' },
    { id: 's-empty', name: 'Empty' },
  ],
  [account('a1', 's-wd', { EMAIL: 'x', FIRST_NAME: 'y' }), account('a2', 's-wd', { LAST_NAME: 'z' }), account('a3', 's-ad', { mail: 'm' })],
);

describe('TenantNames', () => {
  it('lists the source names and, per source, every attribute some account carries', () => {
    expect(names.sourceNames()).toEqual(['Workday', 'Active Directory', 'Empty']);
    expect(names.accountAttributeNames('s-wd')).toEqual(['EMAIL', 'FIRST_NAME', 'LAST_NAME']);
    expect(names.accountAttributeNames('s-ad')).toEqual(['mail']);
    expect(names.accountAttributeNames('nope')).toEqual([]);
  });
});

describe('TenantNames.closestSourceName', () => {
  it('suggests the source a sourceName is a typo of, when sourceName is the key that wins', () => {
    expect(names.closestSourceName({ sourceName: 'Workdy' })).toBe('Workday');
    expect(names.closestSourceName({ sourceName: 'active directory' })).toBe('Active Directory');
    expect(names.closestSourceName({ sourceName: 'Workdy', sourceId: 'x' })).toBeUndefined();
    expect(names.closestSourceName({ sourceName: 'Salesforce' })).toBeUndefined();
  });
});

describe('TenantNames.accountAttributeKnown', () => {
  it.each([
    ['s-wd', 'EMAIL', { known: true }],
    ['s-wd', 'EMIAL', { known: false, suggestion: 'EMAIL' }],
    ['s-wd', 'department', { known: false }],
    // A source without accounts in the model says nothing of its attributes.
    ['s-empty', 'anything', { known: true }],
  ])('%s %s', (source, attribute, expected) => {
    expect(names.accountAttributeKnown(source, attribute)).toEqual(expected);
  });
});
