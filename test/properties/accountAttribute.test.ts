// Property
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/account-attribute):
// accountAttribute honours its sort order and filters — on identities with several accounts per
// source, random creation dates and null values, the value is that of a model: the source's
// accounts, filtered by accountFilter (nativeIdentity, displayName, entitlements) and
// accountPropertyFilter, stably sorted by the sort attribute (nulls last either way), then the
// first non-null value (or the first account's, with accountReturnFirstLink).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Account, TransformDocument } from '../../src/providers/types.js';
import { checkTransform } from '../../src/testing/check.js';
import { createSampleEngine } from '../../src/testing/sample-engine.js';
import { fixtureShape, type SourceShape } from '../../src/testing/shape.js';
import { fixtures } from './fixtures.js';

const shape = fixtureShape(fixtures);
const sampleEngine = createSampleEngine({ fixtures });

/** accountFilter strings and what they mean on an account. */
const ACCOUNT_FILTERS: readonly (readonly [string, (a: Account) => boolean])[] = [
  ['!(displayName.startsWith("SVC-"))', (a) => !a.name.startsWith('SVC-')],
  ['(entitlements == true)', (a) => a.hasEntitlements],
  ['displayName.contains("Admin")', (a) => a.name.includes('Admin')],
  ['nativeIdentity.startsWith("adm-")', (a) => a.nativeIdentity.startsWith('adm-')],
  ['(entitlements == false) && !(displayName.startsWith("SVC-"))', (a) => !a.hasEntitlements && !a.name.startsWith('SVC-')],
];

interface Config {
  source: SourceShape;
  attributeName: string;
  sort: string | undefined;
  descending: boolean | undefined;
  firstLink: boolean | undefined;
  filter: number | undefined;
  property: { key: string; value: string; negate: boolean } | undefined;
}

/** Keys holding single strings (or null): the ones `==` compares without list semantics. */
const scalarKeys = (s: SourceShape) => Object.keys(s.attributes).filter((k) => s.attributes[k]!.kinds.every((kind) => kind === 'string' || kind === 'null'));
const numericKeys = (s: SourceShape) => Object.keys(s.attributes).filter((k) => s.attributes[k]!.kinds.every((kind) => kind === 'number' || kind === 'null'));

const configs: fc.Arbitrary<Config> = fc.constantFrom(...shape.sources).chain((source) => {
  const keys = scalarKeys(source);
  const property = fc.constantFrom(...keys).chain((key) => {
    const examples = source.attributes[key]!.examples;
    return fc.record({ key: fc.constant(key), value: examples.length === 0 ? fc.constant('x') : fc.constantFrom(...examples.slice(0, 6)), negate: fc.boolean() });
  });
  return fc.record({
    source: fc.constant(source),
    attributeName: fc.constantFrom(...Object.keys(source.attributes)),
    sort: fc.option(fc.constantFrom('created', ...numericKeys(source)), { nil: undefined }),
    descending: fc.option(fc.boolean(), { nil: undefined }),
    firstLink: fc.option(fc.boolean(), { nil: undefined }),
    filter: fc.option(fc.nat({ max: ACCOUNT_FILTERS.length - 1 }), { nil: undefined }),
    property: fc.option(property, { nil: undefined }),
  });
});

function quoted(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function transformOf(c: Config): TransformDocument {
  const attributes: Record<string, unknown> = { sourceName: c.source.source.name, attributeName: c.attributeName };
  if (c.sort !== undefined) attributes['accountSortAttribute'] = c.sort;
  if (c.descending !== undefined) attributes['accountSortDescending'] = c.descending;
  if (c.firstLink !== undefined) attributes['accountReturnFirstLink'] = c.firstLink;
  if (c.filter !== undefined) attributes['accountFilter'] = ACCOUNT_FILTERS[c.filter]![0];
  if (c.property !== undefined) {
    const test = `${c.property.key} == ${quoted(c.property.value)}`;
    attributes['accountPropertyFilter'] = c.property.negate ? `!(${test})` : `(${test})`;
  }
  return { name: 'Account attribute', type: 'accountAttribute', attributes };
}

/** An attribute as accountAttribute reads it: missing, null and [] are no value. */
function read(account: Account, name: string): unknown {
  const v = account.attributes[name];
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0) ? null : v;
}

function sortKey(account: Account, attribute: string): number | null {
  if (attribute === 'created') return Date.parse(account.created);
  const v = account.attributes[attribute];
  return typeof v === 'number' ? v : null;
}

/** Read the configuration back from the transform (the counter-example prints the transform). */
function configOf(transform: TransformDocument): Config {
  const a = transform.attributes as Record<string, unknown>;
  const property = typeof a['accountPropertyFilter'] === 'string' ? /^(!?)\((\w+) == "((?:[^"\\]|\\.)*)"\)$/.exec(a['accountPropertyFilter'])! : undefined;
  return {
    source: shape.sources.find((s) => s.source.name === a['sourceName'])!,
    attributeName: a['attributeName'] as string,
    sort: a['accountSortAttribute'] as string | undefined,
    descending: a['accountSortDescending'] as boolean | undefined,
    firstLink: a['accountReturnFirstLink'] as boolean | undefined,
    filter: a['accountFilter'] === undefined ? undefined : ACCOUNT_FILTERS.findIndex(([text]) => text === a['accountFilter']),
    property: property === undefined ? undefined : { key: property[2]!, value: property[3]!.replace(/\\(.)/g, '$1'), negate: property[1] === '!' },
  };
}

/** The model: filter, stable sort with nulls last in both directions, first (non-null) value. */
function expected(c: Config, accounts: readonly Account[]): unknown {
  let candidates = accounts.filter((a) => a.sourceId === c.source.source.id);
  if (c.filter !== undefined) candidates = candidates.filter(ACCOUNT_FILTERS[c.filter]![1]);
  const p = c.property;
  if (p !== undefined) candidates = candidates.filter((a) => (a.attributes[p.key] === p.value) !== p.negate);
  const sort = c.sort ?? 'created';
  const keyed = candidates.map((account, index) => ({ account, index, key: sortKey(account, sort) }));
  keyed.sort((x, y) => {
    if (x.key === null || y.key === null) return x.key === y.key ? x.index - y.index : x.key === null ? 1 : -1;
    const d = c.descending === true ? y.key - x.key : x.key - y.key;
    return d !== 0 ? d : x.index - y.index;
  });
  const sorted = keyed.map((k) => k.account);
  if (c.firstLink === true) return sorted.length === 0 ? null : read(sorted[0]!, c.attributeName);
  for (const a of sorted) if (read(a, c.attributeName) !== null) return read(a, c.attributeName);
  return null;
}

describe('accountAttribute', () => {
  it('gives the value of the model: filters, then the sort order, then the first (non-null) value', async () => {
    await checkTransform(configs.map(transformOf), {
      fixtures,
      sampleEngine,
      numRuns: 300,
      property: (value, { transform, accounts }) => {
        const config = configOf(transform);
        expect(transformOf(config)).toEqual(transform);
        expect(value).toEqual(expected(config, accounts));
      },
    });
  });
});
