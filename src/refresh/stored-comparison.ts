// Comparing a refresh's result with what the platform stored for the identity (`verify`,
// docs/verify.md): done where the identity is evaluated — on the calling thread or in each
// worker thread — so that only the differences travel, never the identities' attributes.

import { storedAttributeValue, type ProfileResult } from '../engine/profile.js';
import type { Account, Identity } from '../providers/types.js';

/** Why an attribute is never compared, whatever its values (decided from the profile before the run). */
export type AttributeReason = 'time' | 'random' | 'unique' | 'rule';

/** A line's kind: a difference, or the reason the values are not comparable. */
export type VerifyKind = 'differ' | AttributeReason | 'stale' | 'missing';

export const VERIFY_KINDS: readonly VerifyKind[] = ['differ', 'time', 'random', 'unique', 'rule', 'stale', 'missing'];

/** What a comparison needs besides the identity and its result; plain data, posted to workers. */
export interface ComparisonConfig {
  /** The attributes compared, in the profile's order. */
  attributes: string[];
  /** Attributes that are not comparable, and why. */
  reasons: Record<string, AttributeReason>;
  /** The profile evaluated: an identity whose `identityProfile` names another is left out (counted). */
  profile: { id?: string; name: string };
  /** Only these identities (ids or names); absent: all. */
  identities?: string[];
}

/** One identity × attribute whose values are not the same, or an identity with nothing stored (attribute null). */
export interface VerifyLine {
  identityId: string;
  identityName: string;
  attribute: string | null;
  /** What the platform stored (its string form), or null. */
  platform: string | null;
  /** What this engine computes, in the platform's stored form, or null. */
  ours: string | null;
  kind: VerifyKind;
  /** The code of our evaluation's error, when it failed (ours is then null). */
  error?: string;
}

/** The counts of one attribute. compared = agree + differ; the others are not comparable, by kind. */
export interface AttributeTally {
  compared: number;
  agree: number;
  differ: number;
  notComparable: number;
  byKind: Partial<Record<VerifyKind, number>>;
}

/** The comparison of a batch (or a whole run, once merged). */
export interface ComparedBatch {
  /** Identities compared: stored attributes, computed by the profile verified. */
  identities: number;
  /** Identities with nothing stored. */
  missing: number;
  /** Identities whose accounts changed after the platform last computed them. */
  stale: number;
  /** Identities computed by another profile (their `identityProfile`), left out. */
  otherProfile: number;
  attributes: Record<string, AttributeTally>;
  lines: VerifyLine[];
}

export function emptyComparison(): ComparedBatch {
  return { identities: 0, missing: 0, stale: 0, otherProfile: 0, attributes: {}, lines: [] };
}

function tallyOf(batch: ComparedBatch, attribute: string): AttributeTally {
  return (batch.attributes[attribute] ??= { compared: 0, agree: 0, differ: 0, notComparable: 0, byKind: {} });
}

function notComparable(tally: AttributeTally, kind: VerifyKind): void {
  tally.notComparable++;
  tally.byKind[kind] = (tally.byKind[kind] ?? 0) + 1;
}

/** Add `more`'s counts into `into` (its lines are the caller's to keep or drop). */
export function addComparison(into: ComparedBatch, more: ComparedBatch): void {
  into.identities += more.identities;
  into.missing += more.missing;
  into.stale += more.stale;
  into.otherProfile += more.otherProfile;
  for (const [name, t] of Object.entries(more.attributes)) {
    const to = tallyOf(into, name);
    to.compared += t.compared;
    to.agree += t.agree;
    to.differ += t.differ;
    to.notComparable += t.notComparable;
    for (const [kind, n] of Object.entries(t.byKind)) to.byKind[kind as VerifyKind] = (to.byKind[kind as VerifyKind] ?? 0) + n;
  }
}

const time = (text: unknown): number => (typeof text === 'string' ? Date.parse(text) : NaN);

/** The form Date.prototype.toISOString writes (and the platform answers): two such instants compare as their text does. */
const isIsoUtc = (text: unknown): text is string => typeof text === 'string' && text.length === 24 && text.charCodeAt(23) === 90 /* Z */ && text.charCodeAt(10) === 84; /* T */

/**
 * Whether an account changed after the platform last computed the identity (its `modified`); an
 * account's `modified` defaults to its `created`. Unknown (no `modified` on the identity) is not stale.
 * Every identity is asked, so the common case (both instants written as toISOString writes them)
 * compares the text without parsing a date.
 */
export function isStale(identity: Identity, accounts: readonly Account[]): boolean {
  const modified = identity.modified;
  if (isIsoUtc(modified)) {
    for (const a of accounts) {
      const changed = a.modified ?? a.created;
      if (isIsoUtc(changed) ? changed > modified : time(changed) > Date.parse(modified)) return true;
    }
    return false;
  }
  const computed = time(modified);
  if (Number.isNaN(computed)) return false;
  return accounts.some((a) => time(a.modified ?? a.created) > computed);
}

/** Whether the identity was computed by another profile than the one verified. */
export function ofAnotherProfile(identity: Identity, profile: ComparisonConfig['profile']): boolean {
  const own = identity.identityProfile;
  if (own === null || typeof own !== 'object') return false;
  if (profile.id !== undefined && own.id === profile.id) return false;
  return !(own.name === profile.name || own.id === profile.name);
}

function hasAny(record: Record<string, unknown>): boolean {
  for (const key in record) if (Object.prototype.hasOwnProperty.call(record, key)) return true;
  return false;
}

function addLine(batch: ComparedBatch, identity: Identity, attribute: string | null, platform: string | null, ours: string | null, kind: VerifyKind, error: string | undefined): void {
  batch.lines.push({ identityId: identity.id, identityName: identity.name, attribute, platform, ours, kind, ...(error !== undefined ? { error } : {}) });
}

/** Compare one identity's result with its stored attributes, into `batch` (docs/verify.md "Kinds"). Runs for every identity: no allocation unless something differs. */
export function compareIdentity(batch: ComparedBatch, config: ComparisonConfig, identity: Identity, accounts: readonly Account[], result: ProfileResult): void {
  if (config.identities !== undefined && !config.identities.includes(identity.id) && !config.identities.includes(identity.name)) return;
  if (ofAnotherProfile(identity, config.profile)) {
    batch.otherProfile++;
    return;
  }
  const stored = identity.attributes ?? {};
  if (!hasAny(stored)) {
    batch.missing++;
    for (const attribute of config.attributes) notComparable(tallyOf(batch, attribute), 'missing');
    addLine(batch, identity, null, null, null, 'missing', undefined);
    return;
  }
  batch.identities++;
  const stale = isStale(identity, accounts);
  if (stale) batch.stale++;
  const errors = result.errors.length === 0 ? null : new Map(result.errors.map((e) => [e.attribute, e.code]));
  for (const attribute of config.attributes) {
    const tally = tallyOf(batch, attribute);
    const error = errors === null ? undefined : errors.get(attribute);
    const platform = storedAttributeValue(stored[attribute]);
    // A failed evaluation leaves nothing to store: it agrees with a stored null.
    const ours = error !== undefined ? null : storedAttributeValue(result.attributes[attribute]);
    const reason = config.reasons[attribute];
    if (reason !== undefined) {
      notComparable(tally, reason);
      if (platform !== ours) addLine(batch, identity, attribute, platform, ours, reason, error);
    } else if (platform === ours) {
      tally.compared++;
      tally.agree++;
    } else if (stale) {
      notComparable(tally, 'stale');
      addLine(batch, identity, attribute, platform, ours, 'stale', error);
    } else {
      tally.compared++;
      tally.differ++;
      addLine(batch, identity, attribute, platform, ours, 'differ', error);
    }
  }
}
