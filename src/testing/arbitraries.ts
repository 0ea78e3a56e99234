// fast-check arbitraries for sources, accounts, identities and whole tenants shaped like a
// fixture tenant (identity-transforms/testing): the fixture's sources and keys, its
// nulls and lists, identities without an account on a source, several accounts per source with
// random creation dates, names with diacritics, apostrophes and hyphens.

import fc from './fast-check.js';
import { codedError } from '../errors/index.js';
import type { Account, Identity, Source } from '../providers/types.js';
import { resolveShape, type ShapeInput, type SourceShape, type TenantRecords, type TenantShape } from './shape.js';
import { fmix32, hex8 } from './generator/prng.js';
import {
  applyRecord,
  arbitraryInstant,
  arbitraryPersonName,
  recordRecipe,
  userName,
  type PersonName,
  type ValueRecipe,
} from './values.js';

/** One identity with its accounts: the unit a property runs on, and its counter-example. */
export interface IdentitySample {
  identity: Identity;
  accounts: Account[];
}

/** A generated tenant in the fixture format (sources, identities, accounts agree with each other). */
export interface GeneratedTenant {
  sources: Source[];
  identities: Identity[];
  accounts: Account[];
}

/** The prefixes of generated ids: distinct from the tenant generator's (2c918084/5, 2c9180f1/2). */
const IDENTITY_PREFIX = '2c9180e1';
const ACCOUNT_PREFIX = '2c9180e2';

/** Distinct numbers give distinct ids (fmix32 is a bijection), 32 hex digits like the platform's. */
function identityIdOf(n: number): string {
  return `${IDENTITY_PREFIX}${hex8(fmix32(n))}${hex8(fmix32(n ^ 0x5bd1e995))}${hex8(fmix32(n + 0x27d4eb2f))}`;
}

function accountIdOf(identityId: string, slot: number): string {
  return `${ACCOUNT_PREFIX}${identityId.slice(8, 28)}${slot.toString(16).padStart(4, '0')}`;
}

type AccountStyle = 'person' | 'service' | 'admin';

interface AccountRecipe {
  readonly style: AccountStyle;
  readonly created: number;
  readonly hasEntitlements: boolean;
  readonly attributes: Record<string, ValueRecipe>;
}

interface IdentityRecipe {
  readonly person: PersonName;
  readonly attributes: Record<string, ValueRecipe>;
  /** Accounts per source, in the shape's source order (an empty list: no account there). */
  readonly accounts: readonly (readonly AccountRecipe[])[];
  readonly manager: number | null;
}

function accountRecipe(source: SourceShape): fc.Arbitrary<AccountRecipe> {
  return fc.record({
    // Service and admin accounts are why the platform's examples filter on displayName.
    style: fc.constantFrom<AccountStyle>('person', 'person', 'person', 'service', 'admin'),
    created: arbitraryInstant,
    hasEntitlements: fc.boolean(),
    attributes: recordRecipe(source.attributes),
  });
}

function identityRecipe(shape: TenantShape): fc.Arbitrary<IdentityRecipe> {
  return fc.record({
    person: arbitraryPersonName,
    attributes: recordRecipe(shape.identityAttributes),
    accounts: fc.tuple(...shape.sources.map((s) => fc.array(accountRecipe(s), { maxLength: Math.max(2, s.maxAccounts) }))),
    manager: fc.option(fc.nat(), { nil: null }),
  });
}

const STYLE_PREFIX: Record<AccountStyle, { name: string; native: string }> = {
  person: { name: '', native: '' },
  service: { name: 'SVC-', native: 'SVC-' },
  admin: { name: 'Admin ', native: 'adm-' },
};

/** Build the records of one identity named `uid`. */
function buildSample(shape: TenantShape, recipe: IdentityRecipe, id: string, uid: string, managerId: string | null): IdentitySample {
  const attributes = applyRecord(recipe.attributes, recipe.person);
  // uid is the identity's name (identityAttribute falls back to it); keep the two equal.
  if (typeof attributes['uid'] === 'string') attributes['uid'] = uid;
  const identity: Identity = { id, name: uid, attributes, managerId };
  const accounts: Account[] = [];
  shape.sources.forEach((source, s) => {
    recipe.accounts[s]!.forEach((a, k) => {
      const prefix = STYLE_PREFIX[a.style];
      accounts.push({
        id: accountIdOf(id, accounts.length),
        identityId: id,
        sourceId: source.source.id,
        nativeIdentity: `${prefix.native}${uid}${k === 0 ? '' : `-${k}`}`,
        name: `${prefix.name}${recipe.person.first} ${recipe.person.last}`,
        created: new Date(a.created).toISOString(),
        hasEntitlements: a.hasEntitlements,
        attributes: applyRecord(a.attributes, recipe.person),
      });
    });
  });
  return { identity, accounts };
}

/** The fixture identities with their accounts, in fixture order. */
export function fixtureSamples(fixtures: TenantRecords): IdentitySample[] {
  const byIdentity = new Map<string, Account[]>();
  for (const a of fixtures.accounts) {
    let list = byIdentity.get(a.identityId);
    if (list === undefined) byIdentity.set(a.identityId, (list = []));
    list.push(a);
  }
  return fixtures.identities.map((identity) => ({ identity, accounts: byIdentity.get(identity.id) ?? [] }));
}

/** One of the shape's sources (transforms address them by id or name, so they are never invented). */
export function arbitrarySource(shape?: ShapeInput): fc.Arbitrary<Source> {
  const sources = resolveShape(shape).sources;
  if (sources.length === 0) throw codedError('ENGINE_OPTION_INVALID', 'arbitrarySource: the shape has no sources');
  return fc.constantFrom(...sources.map((s) => s.source));
}

export interface AccountArbitraryOptions {
  /** The owner (default: a generated identity id). */
  identityId?: string;
  /** The source, by id or name (default: any of the shape's sources). */
  source?: string;
}

/** One account on one of the shape's sources, with that source's attribute keys. */
export function arbitraryAccount(shape?: ShapeInput, options: AccountArbitraryOptions = {}): fc.Arbitrary<Account> {
  const resolved = resolveShape(shape);
  const sources = options.source === undefined ? resolved.sources : resolved.sources.filter((s) => s.source.id === options.source || s.source.name === options.source);
  if (sources.length === 0) throw codedError('ENGINE_OPTION_INVALID', `arbitraryAccount: no source ${JSON.stringify(options.source ?? '')} in the shape`);
  const onSource = fc.oneof(...sources.map((source) => accountRecipe(source).map((recipe) => ({ source, recipe }))));
  return fc.tuple(fc.nat(), arbitraryPersonName, onSource).map(([n, person, { source, recipe }]) => {
    const id = options.identityId ?? identityIdOf(n);
    const single: TenantShape = { sources: [source], identityAttributes: {}, managerIds: [] };
    return buildSample(single, { person, attributes: {}, accounts: [[recipe]], manager: null }, id, userName(person), null).accounts[0]!;
  });
}

/**
 * One identity with its accounts, shaped like `shape` (a TenantShape, the records of a fixture
 * tenant, or nothing for the default shape). Its manager, when it has one, is an identity of
 * the shape's tenant, so the sample can be evaluated next to that tenant.
 */
export function arbitraryIdentity(shape?: ShapeInput): fc.Arbitrary<IdentitySample> {
  const resolved = resolveShape(shape);
  const managers = resolved.managerIds;
  return fc.tuple(fc.nat(), identityRecipe(resolved)).map(([n, recipe]) => {
    const managerId = recipe.manager === null || managers.length === 0 ? null : managers[recipe.manager % managers.length]!;
    return buildSample(resolved, recipe, identityIdOf(n), userName(recipe.person), managerId);
  });
}

export interface SampleArbitraryOptions {
  /** Which identities (default 'both' when the fixtures have identities, else 'generated'). */
  identities?: 'fixtures' | 'generated' | 'both';
  /** Shape the generated identities like this (default: the fixtures' shape, else the default shape). */
  shape?: TenantShape;
}

/**
 * Identity samples to run a property on: the fixture tenant's own identities with their
 * accounts, generated identities shaped like them (twice as often), or either alone.
 */
export function arbitrarySample(fixtures?: TenantRecords, options: SampleArbitraryOptions = {}): fc.Arbitrary<IdentitySample> {
  const own = fixtures === undefined ? [] : fixtureSamples(fixtures);
  const which = options.identities ?? (own.length > 0 ? 'both' : 'generated');
  if (which !== 'generated' && own.length === 0) {
    throw codedError('ENGINE_OPTION_INVALID', `arbitrarySample: identities "${which}" needs fixtures with identities`);
  }
  const generated = arbitraryIdentity(options.shape ?? fixtures);
  if (which === 'generated') return generated;
  const existing = fc.constantFrom(...own);
  return which === 'fixtures' ? existing : fc.oneof({ weight: 1, arbitrary: existing }, { weight: 2, arbitrary: generated });
}

export interface TenantArbitraryOptions {
  minIdentities?: number;
  maxIdentities?: number;
}

/** `value`, or `value2`, `value3`… : the first that `seen` does not hold yet (then it does). */
function distinct(value: string, seen: Set<string>): string {
  let out = value;
  for (let i = 2; seen.has(out); i++) out = `${value}${i}`;
  seen.add(out);
  return out;
}

/**
 * A whole tenant shaped like `shape`: its sources, identities whose managers form a tree inside
 * the tenant, and their accounts; ids, names and native identities (per source) are unique.
 */
export function arbitraryTenant(shape?: ShapeInput, options: TenantArbitraryOptions = {}): fc.Arbitrary<GeneratedTenant> {
  const resolved = resolveShape(shape);
  const minLength = options.minIdentities ?? 1;
  const maxLength = options.maxIdentities ?? 8;
  return fc.array(identityRecipe(resolved), { minLength, maxLength }).map((recipes) => {
    const identities: Identity[] = [];
    const accounts: Account[] = [];
    const names = new Set<string>();
    const natives = new Set<string>();
    recipes.forEach((recipe, k) => {
      const managerId = k === 0 || recipe.manager === null ? null : identities[recipe.manager % k]!.id;
      const sample = buildSample(resolved, recipe, identityIdOf(k), distinct(userName(recipe.person), names), managerId);
      identities.push(sample.identity);
      for (const a of sample.accounts) {
        a.nativeIdentity = distinct(`${a.sourceId}/${a.nativeIdentity}`, natives).slice(a.sourceId.length + 1);
        accounts.push(a);
      }
    });
    return { sources: resolved.sources.map((s) => s.source), identities, accounts };
  });
}
