// A generated tenant as the platform leaves it (`gen-tenant --stored`): each identity's stored
// attributes are what its profile computes, in the platform's stored form, with `modified` (the
// time they were computed) and `identityProfile`; optionally a few planted differences, so that
// `verify` has something exact to find. The profile is run by refresh until the stored values
// are a fixed point (a mapping may read identity attributes, e.g. the manager's), as repeated
// refreshes leave them on the platform.

import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { storedAttributeValue } from '../../engine/profile.js';
import type { Identity, IdentityProfile } from '../../providers/types.js';
import { JsonArrayReader, refresh, resolveProfile } from '../../refresh/index.js';
import { parseObjectElement } from '../../refresh/fixture-stream/json-array-reader.js';
import { JsonArrayWriter } from './array-writer.js';
import { TENANT_NOW } from './data.js';

/** Refresh passes at most: the bundled profile is a fixed point after the second. */
const MAX_PASSES = 4;
/** One identity in this many, among those nobody reports to, gets a planted difference. */
const PLANT_EVERY = 40;

/** How a planted difference edits the stored value, in turn. */
const EDITS: readonly ((value: string, k: number) => string | null)[] = [
  (v) => (v.toUpperCase() === v ? v.toLowerCase() : v.toUpperCase()),
  (v) => `${v} `,
  (v) => `${v}Z`,
  () => null,
  (_, k) => `planted value ${k}`,
];

export interface StoreOptions {
  /** The profile whose output is stored (a file, or a name or id in identity-profiles/); default the first. */
  profile?: string;
  /** When the platform computed the attributes (dateMath "now"), and the identities' `modified`. Default 2026-01-15T12:00:00Z, the generator's epoch. */
  now?: string;
  /** Plant differences in these attributes (comparable ones: not reading the clock, random values or rules); none when absent. */
  plantIn?: readonly string[];
  workers?: number | 'auto';
}

/** A stored value made different from what the profile computes. */
export interface PlantedDifference {
  identityId: string;
  identityName: string;
  attribute: string;
  platform: string | null;
  ours: string | null;
  /** `stale`: the identity's account changed after `modified`, so verify does not count it as a difference. */
  kind: 'differ' | 'stale';
}

export interface StoreSummary {
  identities: number;
  /** Refresh passes run until the stored values stopped changing. */
  passes: number;
  planted: PlantedDifference[];
}

/** Rewrite an array file element by element (one-per-line layout kept), renamed into place when complete; how many elements. */
async function rewriteArray(file: string, edit: (item: Record<string, unknown>, ordinal: number) => Record<string, unknown> | Promise<Record<string, unknown>>): Promise<number> {
  const out = new JsonArrayWriter(`${file}.partial`);
  let ordinal = 0;
  for (const element of new JsonArrayReader(file)) {
    out.write(await edit(parseObjectElement(file, element, ordinal), ordinal));
    ordinal++;
  }
  out.close();
  renameSync(`${file}.partial`, file);
  return ordinal;
}

/** The stored form of one result's attributes over the identity's others (an error stores null). */
function storedAttributes(identity: Identity, result: { attributes: Record<string, unknown>; errors: { attribute: string }[] }, attributes: readonly string[]): Record<string, unknown> {
  const failed = new Set(result.errors.map((e) => e.attribute));
  const out: Record<string, unknown> = { ...identity.attributes };
  for (const name of attributes) out[name] = failed.has(name) ? null : storedAttributeValue(result.attributes[name]);
  return out;
}

/** Store the profile's output as each identity's attributes in the fixtures directory `dir`, planting differences if asked. */
export async function storeComputedAttributes(dir: string, options: StoreOptions = {}): Promise<StoreSummary> {
  const now = options.now ?? new Date(TENANT_NOW).toISOString();
  const profile: IdentityProfile = resolveProfile(dir, options.profile);
  const attributes = profile.identityAttributeConfig.attributeTransforms.map((m) => m.identityAttributeName);
  const identityProfile = { id: String(profile.id ?? profile.name), name: String(profile.name) };
  const identitiesFile = join(dir, 'identities.json');
  let passes = 0;
  let identities = 0;
  for (let changed = -1; changed !== 0 && passes < MAX_PASSES; passes++) {
    changed = 0;
    // Results come in identities.json's order, each computed from the file as it was (a batch
    // is read before the file is renamed over, and the rename leaves the open file as it was).
    const results = refresh({ fixtures: dir, profile, now, ...(options.workers !== undefined ? { workers: options.workers } : {}) })[Symbol.asyncIterator]();
    identities = await rewriteArray(identitiesFile, async (item) => {
      const identity = item as unknown as Identity;
      const next = await results.next();
      if (next.done || next.value.identityId !== identity.id) throw new Error(`refresh answered ${next.done ? 'nothing' : next.value.identityId} for ${identity.id}`);
      const result = next.value;
      const stored = storedAttributes(identity, result, attributes);
      if (JSON.stringify(stored) !== JSON.stringify(identity.attributes)) changed++;
      return { id: identity.id, name: identity.name, attributes: stored, managerId: identity.managerId ?? null, modified: now, identityProfile };
    });
    await results.return?.(undefined);
  }
  const planted = options.plantIn !== undefined && options.plantIn.length > 0 ? await plant(dir, now, options.plantIn) : [];
  return { identities, passes, planted };
}

/**
 * Plant differences: in one identity in PLANT_EVERY among those nobody reports to (a manager's
 * attributes may be read by its reports' mappings), one attribute of `plantIn` whose value is
 * not null, edited in turn by EDITS. The first such identity that has an account is made stale
 * (that account's `modified` is after the identity's).
 */
async function plant(dir: string, now: string, plantIn: readonly string[]): Promise<PlantedDifference[]> {
  const identitiesFile = join(dir, 'identities.json');
  const accountsFile = join(dir, 'accounts.json');
  const managers = new Set<string>();
  for (const element of new JsonArrayReader(identitiesFile)) {
    const managerId = (JSON.parse(element.text) as Identity).managerId;
    if (typeof managerId === 'string') managers.add(managerId);
  }
  const chosen = new Map<string, number>();
  let candidates = 0;
  for (const element of new JsonArrayReader(identitiesFile)) {
    const identity = JSON.parse(element.text) as Identity;
    if (!managers.has(identity.id) && candidates++ % PLANT_EVERY === PLANT_EVERY - 1) chosen.set(identity.id, chosen.size);
  }
  let stale: string | null = null;
  const later = new Date(Date.parse(now) + 3_600_000).toISOString();
  if (existsSync(accountsFile)) {
    await rewriteArray(accountsFile, (account) => {
      if (stale === null && chosen.has(String(account.identityId))) {
        stale = String(account.identityId);
        return { ...account, modified: later };
      }
      return account;
    });
  }
  const planted: PlantedDifference[] = [];
  const edit = (identity: Identity): Identity => {
    const k = chosen.get(identity.id);
    if (k === undefined) return identity;
    const attribute = plantIn.map((_, i) => plantIn[(k + i) % plantIn.length]!).find((a) => typeof identity.attributes[a] === 'string' && identity.attributes[a] !== '');
    if (attribute === undefined) return identity;
    const ours = identity.attributes[attribute] as string;
    // The k-th edit, or the next that changes the value (a case change leaves digits alone).
    const platform = EDITS.map((_, i) => EDITS[(k + i) % EDITS.length]!(ours, k)).find((v) => v !== ours)!;
    planted.push({ identityId: identity.id, identityName: identity.name, attribute, platform, ours, kind: identity.id === stale ? 'stale' : 'differ' });
    return { ...identity, attributes: { ...identity.attributes, [attribute]: platform } };
  };
  await rewriteArray(identitiesFile, (item) => edit(item as unknown as Identity) as unknown as Record<string, unknown>);
  return planted;
}
