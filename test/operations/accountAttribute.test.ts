import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { createMemoryProviders } from '../../src/providers/memory.js';
import { IDENTITIES, SOURCES, account, codedErrorOf, tenantEngine } from '../helpers.js';

const john = IDENTITIES[0]!;
const aa = (attributes: Record<string, unknown>) => ({ name: 'aa', type: 'accountAttribute', attributes });

describe('accountAttribute', () => {
  const engine = tenantEngine();
  const run = (attributes: Record<string, unknown>, identity = john) => engine.evaluateSync(aa(attributes), { identity });

  it.each([
    ['sourceName', { sourceName: 'HR Source' }],
    ['applicationId (external GUID)', { applicationId: 'ff8081815a8b3925015a8b6adac901ff', attributeName: 'status' }],
    ['applicationName "<name> [source]"', { applicationName: 'HR Source [source]' }],
    ['sourceId', { sourceId: 'src-hr' }],
  ])('finds the source by %s', (_label, attrs) => {
    const value = run({ attributeName: 'empType', ...attrs });
    expect(value).toBe('attributeName' in attrs ? 'active' : 'Employee');
  });

  it('takes the value from the oldest account by default (created ascending), skipping nulls', () => {
    // ad-null (2018, sAMAccountName null) → ad-old (2019) is the first non-null.
    expect(run({ sourceName: 'Active Directory', attributeName: 'sAMAccountName' })).toBe('svc-john');
  });

  it('returns the first account even if null with accountReturnFirstLink', () => {
    expect(run({ sourceName: 'Active Directory', attributeName: 'sAMAccountName', accountReturnFirstLink: true })).toBeNull();
  });

  it('sorts descending with accountSortDescending ("true" as a string too)', () => {
    expect(run({ sourceName: 'Active Directory', attributeName: 'sAMAccountName', accountSortDescending: 'true' })).toBe('jdoe');
  });

  it('sorts by any attribute with typed comparison', () => {
    expect(run({ sourceName: 'Active Directory', attributeName: 'sAMAccountName', accountSortAttribute: 'status', accountSortDescending: true })).toBe('jdoe');
  });

  it('applies accountFilter over nativeIdentity, displayName and entitlements', () => {
    expect(run({ sourceName: 'Active Directory', attributeName: 'sAMAccountName', accountFilter: '!(displayName.startsWith("SVC-"))' })).toBe('jdoe');
    expect(run({ sourceName: 'Active Directory', attributeName: 'sAMAccountName', accountFilter: '(entitlements == true)' })).toBe('jdoe');
  });

  it('applies accountPropertyFilter in memory over all attributes, multi-valued included', () => {
    expect(run({ sourceName: 'Active Directory', attributeName: 'sAMAccountName', accountPropertyFilter: '(status != "terminated")' })).toBe('svc-john');
    expect(run({ sourceName: 'Active Directory', attributeName: 'sAMAccountName', accountPropertyFilter: '(memberOf.contains("Admins"))' })).toBe('svc-john');
  });

  it('returns multi-valued attributes as stored', () => {
    expect(run({ sourceName: 'Active Directory', attributeName: 'memberOf', accountSortDescending: true })).toEqual(['All Users']);
  });

  it('returns null when the identity has no account on the source, or none passes the filters', () => {
    expect(run({ sourceName: 'Okta', attributeName: 'login' })).toBeNull();
    expect(run({ sourceName: 'HR Source', attributeName: 'empType', accountPropertyFilter: '(department == "Nope")' })).toBeNull();
  });

  it('rejects accountFilter on a property the platform cannot search', () => {
    const error = codedErrorOf(() => engine.compile(aa({ sourceName: 'HR Source', attributeName: 'x', accountFilter: '(department == "x")' })));
    expect(error.code).toBe('COMPILE_FILTER_PROPERTY');
    expect(error.path).toBe('/attributes/accountFilter');
  });

  it('reports a filter syntax error at the attribute', () => {
    const error = codedErrorOf(() => engine.compile(aa({ sourceName: 'HR Source', attributeName: 'x', accountPropertyFilter: '(a == ' })));
    expect(error.code).toBe('FILTER_SYNTAX');
    expect(error.path).toBe('/attributes/accountPropertyFilter');
  });

  it('needs a source key and an identity', () => {
    expect(codedErrorOf(() => engine.compile(aa({ attributeName: 'x' }))).code).toBe('SCHEMA_REQUIRED');
    expect(codedErrorOf(() => engine.evaluateSync(aa({ sourceName: 'HR Source', attributeName: 'x' }))).code).toBe('EVAL_NO_IDENTITY');
    expect(codedErrorOf(() => run({ sourceName: 'Nowhere', attributeName: 'x' })).code).toBe('EVAL_UNKNOWN_SOURCE');
  });

  it('sorts date-times by instant, numbers numerically, and nulls last', () => {
    const accounts = [
      account({ id: 'a', identityId: 'p', sourceId: 'src-hr', created: '2020-01-01T10:00:00+02:00', attributes: { n: '10', v: 'a' } }),
      account({ id: 'b', identityId: 'p', sourceId: 'src-hr', created: '2020-01-01T09:00:00Z', attributes: { n: '9', v: 'b' } }),
      account({ id: 'c', identityId: 'p', sourceId: 'src-hr', created: '2020-01-01T08:30:00Z', attributes: { n: null, v: 'c' } }),
    ];
    const e = createEngine({ providers: createMemoryProviders({ sources: SOURCES, identities: [], accounts }) });
    const p = { id: 'p', name: 'p', attributes: {} };
    // 10:00+02:00 is 08:00Z: the oldest.
    expect(e.evaluateSync(aa({ sourceName: 'HR Source', attributeName: 'v' }), { identity: p })).toBe('a');
    expect(e.evaluateSync(aa({ sourceName: 'HR Source', attributeName: 'v', accountSortAttribute: 'n' }), { identity: p })).toBe('b');
    expect(e.evaluateSync(aa({ sourceName: 'HR Source', attributeName: 'v', accountSortAttribute: 'n', accountSortDescending: true }), { identity: p })).toBe('a');
  });

  // Two accounts are ordered by one comparison, more by Array.prototype.sort: the two agree,
  // whatever the keys (a third account without the key sorts last and changes nothing).
  it.each<[unknown, unknown]>([
    ['2021-05-01T00:00:00Z', '2020-05-01T00:00:00.000Z'],
    ['2020-05-01T00:00:00Z', '2020-05-01T00:00:00Z'],
    ['10', '9'],
    [3, 3],
    ['b', 'a'],
    ['x', 'x'],
    [null, 'a'],
    ['a', null],
    [null, null],
    ['2020-01-01', 'abc'],
    [7, 'seven'],
  ])('orders two accounts as it orders them beside a third: keys %j and %j', (first, second) => {
    const accounts = [
      account({ id: 'a', identityId: 'p', sourceId: 'src-hr', attributes: { k: first, v: 'a' } }),
      account({ id: 'b', identityId: 'p', sourceId: 'src-hr', attributes: { k: second, v: 'b' } }),
    ];
    const third = account({ id: 'c', identityId: 'p', sourceId: 'src-hr', attributes: { v: 'c' } });
    const p = { id: 'p', name: 'p', attributes: {} };
    for (const descending of [false, true]) {
      const transform = aa({ sourceName: 'HR Source', attributeName: 'v', accountSortAttribute: 'k', accountSortDescending: descending, accountReturnFirstLink: true });
      const firstOf = (list: typeof accounts) => createEngine({ providers: createMemoryProviders({ sources: SOURCES, identities: [], accounts: list }) }).evaluateSync(transform, { identity: p });
      expect(firstOf(accounts)).toBe(firstOf([...accounts, third]));
    }
  });
});
