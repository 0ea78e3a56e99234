// accountFilter push-down (src/providers/tenant/pushdown.ts): which parts of an accountFilter reach
// the accounts collection's `filters`
// (https://developer.sailpoint.com/docs/api/standard-collection-parameters), and the property that
// makes it safe: the pushed expression, run as the server runs it (case-insensitive strings),
// selects every account the accountFilter selects in memory.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCOUNTS } from '../../src/api/plugins/accounts.js';
import { compilePredicate, formatFilter, parseApiFilter, parseObjectFilter } from '../../src/filter/index.js';
import { pushDownAccountFilter } from '../../src/providers/tenant/pushdown.js';
import { apiAll, apiEquals, apiIn, filtersParam } from '../../src/providers/tenant/queries.js';

/** The pushed-down part of an accountFilter, as the `filters` text the client sends. */
const pushed = (text: string) => {
  const node = pushDownAccountFilter(parseObjectFilter(text));
  return node === null ? null : formatFilter(node, 'api');
};

describe('pushDownAccountFilter', () => {
  it.each([
    ['nativeIdentity == "jdoe"', 'nativeIdentity eq "jdoe"'],
    ['displayName == "John Doe"', 'name eq "John Doe"'],
    ['entitlements == true', 'hasEntitlements eq true'],
    ['nativeIdentity.in({"a", "b"})', 'nativeIdentity in ("a","b")'],
    ['nativeIdentity.startsWith("adm-")', 'nativeIdentity sw "adm-"'],
    ['(nativeIdentity.startsWith("adm-") && entitlements == true)', 'nativeIdentity sw "adm-" and hasEntitlements eq true'],
    ['nativeIdentity == "a" || displayName == "b"', 'nativeIdentity eq "a" or name eq "b"'],
    ['nativeIdentity == "say \\"hi\\" \\\\ bye"', 'nativeIdentity eq "say \\"hi\\" \\\\ bye"'],
  ])('pushes %s down as %s', (filter, expected) => {
    expect(pushed(filter)).toBe(expected);
  });

  it.each([
    ['!(displayName.startsWith("SVC-"))', 'a negation (the server compares without case)'],
    ['nativeIdentity != "x"', 'ne'],
    ['displayName.endsWith("Doe")', 'endsWith'],
    ['displayName.contains("oh")', 'contains'],
    ['nativeIdentity.startsWithIgnoreCase("JDOE")', 'a case-insensitive comparison'],
    ['entitlements == "true"', 'a boolean field compared with a string'],
    ['nativeIdentity == "a" || displayName.endsWith("b")', 'an or with a branch that cannot be pushed'],
  ])('keeps %s in memory (%s)', (filter) => {
    expect(pushed(filter)).toBeNull();
  });

  it('drops the conjuncts it cannot express and keeps the others', () => {
    expect(pushed('(nativeIdentity.startsWith("adm-") && !(displayName.startsWith("SVC-")))')).toBe('nativeIdentity sw "adm-"');
    expect(pushed('(!(nativeIdentity.startsWith("a")) && !(displayName.startsWith("b")))')).toBeNull();
  });

  it('the queries the client builds print through the formatter, values escaped', () => {
    expect(filtersParam(apiEquals('name', 'a"b\\c'))).toBe('name eq "a\\"b\\\\c"');
    expect(parseApiFilter(filtersParam(apiEquals('name', 'a"b\\c')))).toMatchObject({ kind: 'compare', value: { type: 'string', value: 'a"b\\c' } });
    expect(filtersParam(apiIn('identityId', ['id-1', 'id-2']))).toBe('identityId in ("id-1","id-2")');
    const pushedDown = pushDownAccountFilter(parseObjectFilter('nativeIdentity.startsWith("a") && (displayName == "b" || displayName == "c")'))!;
    expect(filtersParam(apiAll([apiEquals('identityId', 'x'), pushedDown]))).toBe('identityId eq "x" and nativeIdentity sw "a" and (name eq "b" or name eq "c")');
  });
});

// Property: for any accountFilter over the three searchable properties and any account, a match
// in memory is a match of the pushed filter as the accounts collection evaluates it.
const word = fc.constantFrom('adm-', 'ADM-', 'svc-', 'SVC-', 'jdoe', 'JDoe', 'x', '', 'a"b', 'c\\d', 'é');
const field = fc.constantFrom('nativeIdentity', 'displayName');
const lit = (s: string) => JSON.stringify(s);
const leaf = fc.oneof(
  fc.tuple(field, word).map(([f, w]) => `${f} == ${lit(w)}`),
  fc.tuple(field, word).map(([f, w]) => `${f} != ${lit(w)}`),
  fc.tuple(field, word).map(([f, w]) => `${f}.startsWith(${lit(w)})`),
  fc.tuple(field, word).map(([f, w]) => `${f}.endsWith(${lit(w)})`),
  fc.tuple(field, word).map(([f, w]) => `${f}.startsWithIgnoreCase(${lit(w)})`),
  fc.tuple(field, word, word).map(([f, a, b]) => `${f}.in({${lit(a)}, ${lit(b)}})`),
  fc.boolean().map((b) => `entitlements == ${b}`),
);
const filterText: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => `(${a} && ${b})`),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => `(${a} || ${b})`),
    tie('node').map((a) => `!(${a})`),
  ),
})).node;
const account = fc.record({ nativeIdentity: fc.oneof(word, word.map((w) => w + 'tail')), name: word, hasEntitlements: fc.boolean() });

describe('pushDownAccountFilter: superset property', () => {
  it('never loses an account the accountFilter matches in memory', () => {
    fc.assert(
      fc.property(filterText, fc.array(account, { maxLength: 8 }), (text, accounts) => {
        const ast = parseObjectFilter(text);
        const inMemory = compilePredicate(ast);
        const expression = pushDownAccountFilter(ast);
        if (expression === null) return;
        // As the server reads it: the printed text, parsed.
        const onServer = compilePredicate(parseApiFilter(formatFilter(expression, 'api')), { fields: ACCOUNTS.filters });
        for (const a of accounts) {
          if (inMemory({ nativeIdentity: a.nativeIdentity, displayName: a.name, entitlements: a.hasEntitlements })) {
            expect(onServer(a)).toBe(true);
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});
