// The comparison of a result with the identity's stored attributes (docs/verify.md "Equality"
// and "Kinds"): both sides in the platform's stored form, absent = null, "" not null, the
// attribute reasons, staleness from the accounts' modified (else created), missing, our errors.

import { describe, expect, it } from 'vitest';
import type { ProfileResult } from '../../src/engine/profile.js';
import type { Account, Identity } from '../../src/providers/types.js';
import { addComparison, compareIdentity, emptyComparison, isStale, type ComparisonConfig } from '../../src/refresh/stored-comparison.js';

const account = (created: string, modified?: string): Account =>
  ({ id: 'a', identityId: 'i', sourceId: 's', nativeIdentity: 'n', name: 'n', created, hasEntitlements: false, attributes: {}, ...(modified ? { modified } : {}) }) as Account;
const identity = (attributes: Record<string, unknown>, extra: Partial<Identity> = {}): Identity => ({ id: 'i1', name: 'ann', attributes, ...extra });
const result = (attributes: Record<string, unknown>, errors: ProfileResult['errors'] = []): ProfileResult => ({ attributes: attributes as ProfileResult['attributes'], errors });
const config = (attributes: string[], reasons: ComparisonConfig['reasons'] = {}): ComparisonConfig => ({ attributes, reasons, profile: { id: 'p1', name: 'Employees' } });

function compare(stored: Record<string, unknown>, ours: Record<string, unknown>, c = config(Object.keys({ ...stored, ...ours })), accounts: Account[] = [], extra: Partial<Identity> = {}, errors: ProfileResult['errors'] = []) {
  const batch = emptyComparison();
  compareIdentity(batch, c, identity(stored, extra), accounts, result(ours, errors));
  return batch;
}

describe('compareIdentity: equality in the platform\'s stored form', () => {
  it.each([
    ['the same string', 'a', 'a', true],
    ['case differs', 'A', 'a', false],
    ['a number as Java prints it', '3', 3, true],
    ['a fraction', '2.5', 2.5, true],
    ['a boolean', 'true', true, true],
    ['a list as Java\'s toString', '[a, b]', ['a', 'b'], true],
    ['null and null', null, null, true],
    ['"" is not null', null, '', false],
    ['a stored "" against our null', '', null, false],
  ])('%s', (_, platform, ours, agree) => {
    const batch = compare({ x: platform, other: 'kept' }, { x: ours }, config(['x']));
    expect(batch.attributes.x).toMatchObject({ compared: 1, agree: agree ? 1 : 0, differ: agree ? 0 : 1 });
    expect(batch.lines).toHaveLength(agree ? 0 : 1);
  });

  it('takes an absent stored attribute as null', () => {
    expect(compare({ other: 'kept' }, { x: null }, config(['x'])).attributes.x).toMatchObject({ agree: 1 });
    expect(compare({ other: 'kept' }, { x: 'v' }, config(['x'])).lines).toEqual([{ identityId: 'i1', identityName: 'ann', attribute: 'x', platform: null, ours: 'v', kind: 'differ' }]);
  });

  it('compares our error as null, and names its code on the line', () => {
    const errors = [{ attribute: 'x', code: 'EVAL_UNKNOWN_RULE', message: 'm', path: '' }];
    expect(compare({ x: null, o: 'k' }, {}, config(['x']), [], {}, errors).attributes.x).toMatchObject({ agree: 1 });
    expect(compare({ x: 'v' }, {}, config(['x']), [], {}, errors).lines).toEqual([{ identityId: 'i1', identityName: 'ann', attribute: 'x', platform: 'v', ours: null, kind: 'differ', error: 'EVAL_UNKNOWN_RULE' }]);
  });
});

describe('compareIdentity: what is not comparable', () => {
  it('never compares an attribute with a reason, and writes a line of that kind only when the values differ', () => {
    const batch = compare({ t: '2026-01-10', r: 'same' }, { t: '2026-02-24', r: 'same' }, config(['t', 'r'], { t: 'time', r: 'random' }));
    expect(batch.attributes.t).toEqual({ compared: 0, agree: 0, differ: 0, notComparable: 1, byKind: { time: 1 } });
    expect(batch.attributes.r).toEqual({ compared: 0, agree: 0, differ: 0, notComparable: 1, byKind: { random: 1 } });
    expect(batch.lines.map((l) => l.kind)).toEqual(['time']);
  });

  it('counts a stale identity\'s differences as stale, and its agreements as agree', () => {
    const accounts = [account('2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')];
    const batch = compare({ a: 'old', b: 'same' }, { a: 'new', b: 'same' }, config(['a', 'b']), accounts, { modified: '2026-01-15T00:00:00Z' });
    expect(batch.stale).toBe(1);
    expect(batch.attributes.a).toEqual({ compared: 0, agree: 0, differ: 0, notComparable: 1, byKind: { stale: 1 } });
    expect(batch.attributes.b).toMatchObject({ compared: 1, agree: 1 });
    expect(batch.lines.map((l) => l.kind)).toEqual(['stale']);
  });

  it('counts an identity with nothing stored as missing for every attribute, with one line', () => {
    const batch = compare({}, { a: 'x', b: 'y' }, config(['a', 'b']));
    expect(batch).toMatchObject({ identities: 0, missing: 1 });
    expect(batch.attributes.a).toEqual({ compared: 0, agree: 0, differ: 0, notComparable: 1, byKind: { missing: 1 } });
    expect(batch.lines).toEqual([{ identityId: 'i1', identityName: 'ann', attribute: null, platform: null, ours: null, kind: 'missing' }]);
  });

  it('leaves out an identity another profile computed (by id or name), and one not selected', () => {
    expect(compare({ a: 'x' }, { a: 'x' }, config(['a']), [], { identityProfile: { id: 'p2', name: 'Contractors' } })).toMatchObject({ identities: 0, otherProfile: 1 });
    expect(compare({ a: 'x' }, { a: 'x' }, config(['a']), [], { identityProfile: { id: 'p1', name: 'renamed' } })).toMatchObject({ identities: 1, otherProfile: 0 });
    expect(compare({ a: 'x' }, { a: 'x' }, { ...config(['a']), identities: ['bob'] })).toMatchObject({ identities: 0, otherProfile: 0 });
    expect(compare({ a: 'x' }, { a: 'x' }, { ...config(['a']), identities: ['ann'] })).toMatchObject({ identities: 1 });
  });
});

describe('isStale', () => {
  it('compares each account\'s modified, else created, with the identity\'s modified; unknown is not stale', () => {
    const at = { modified: '2026-01-15T00:00:00Z' };
    expect(isStale(identity({}, at), [account('2026-01-01T00:00:00Z')])).toBe(false);
    expect(isStale(identity({}, at), [account('2026-01-20T00:00:00Z')])).toBe(true);
    expect(isStale(identity({}, at), [account('2026-01-01T00:00:00Z', '2026-01-16T00:00:00Z')])).toBe(true);
    expect(isStale(identity({}), [account('2026-01-20T00:00:00Z')])).toBe(false);
  });

  it.each([
    ['both as toISOString writes them, later', '2026-01-15T12:00:00.000Z', '2026-01-15T12:00:00.001Z', true],
    ['both as toISOString writes them, the same instant', '2026-01-15T12:00:00.000Z', '2026-01-15T12:00:00.000Z', false],
    ['the account with an offset, the same instant later in its zone', '2026-01-15T12:00:00.000Z', '2026-01-15T13:00:00+01:00', false],
    ['the account with an offset, an instant later', '2026-01-15T12:00:00.000Z', '2026-01-15T13:00:01+01:00', true],
    ['the identity with an offset', '2026-01-15T13:00:00+01:00', '2026-01-15T12:00:00.500Z', true],
  ])('compares instants, not their text: %s', (_, modified, changed, stale) => {
    expect(isStale(identity({}, { modified }), [account('2020-01-01T00:00:00.000Z', changed)])).toBe(stale);
  });
});

describe('addComparison', () => {
  it('adds counts per attribute and kind', () => {
    const total = emptyComparison();
    addComparison(total, compare({ a: 'x' }, { a: 'y' }, config(['a'])));
    addComparison(total, compare({}, { a: 'y' }, config(['a'])));
    expect(total).toMatchObject({ identities: 1, missing: 1, attributes: { a: { compared: 1, differ: 1, notComparable: 1, byKind: { missing: 1 } } }, lines: [] });
  });
});
