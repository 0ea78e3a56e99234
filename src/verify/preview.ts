// `verify --preview <n>`: the platform computes the profile's attributes afresh for n identities
// (POST /v3/identity-profiles/identity-preview, https://developer.sailpoint.com/docs/api/v3/show-identity-preview:
// "a non-persisted preview of the identity object after applying IdentityAttributeConfig";
// nothing is written) and those fresh values are compared with ours. A stored value may be old
// (the identity changed since the platform last computed it); a previewed one is not, so a
// difference that holds against the preview is this engine's, whatever the timestamps say.
//
// The profile's mappings are sent as the tenant stores them. The preview "only allows
// accountAttribute, reference and rule transform types" at the top of a mapping (same page), and
// its references name transforms already saved in the tenant: a mapping of another type is not
// sent, and its attribute is listed as not previewed. Everything goes through the tenant client (its
// concurrency, retries, limits and redaction); a preview the tenant refuses (a 4xx) stops the
// previews with VERIFY_PREVIEW_REFUSED recorded in the report.

import { createEngine } from '../engine/engine.js';
import { storedAttributeValue } from '../engine/profile.js';
import type { RuleFunction } from '../engine/types.js';
import { codedError, isTransformsError, type TransformsError } from '../errors/index.js';
import type { TenantProviders } from '../providers/tenant/index.js';
import type { Identity, IdentityProfile, ProfileMapping } from '../providers/types.js';
import { shardOf, type Shard } from '../refresh/shard.js';
import { ofAnotherProfile, type AttributeReason, type ComparisonConfig } from '../refresh/stored-comparison.js';
import type { ExplainedGroup } from './report.js';

export const PREVIEW_PATH = '/v3/identity-profiles/identity-preview';
/** The most identities one verify previews (one request each). */
export const MAX_PREVIEW_IDENTITIES = 1000;
/** The mapping types the platform's preview accepts (https://developer.sailpoint.com/docs/api/v3/show-identity-preview). */
export const PREVIEWABLE_TYPES: ReadonlySet<string> = new Set(['accountAttribute', 'reference', 'rule']);

/** One identity × attribute whose previewed value is not ours. */
export interface PreviewLine {
  identityId: string;
  identityName: string;
  attribute: string;
  /** What the platform's preview computed now (its string form), or null. */
  platform: string | null;
  /** What the platform had stored (the preview's previousValue). */
  stored: string | null;
  ours: string | null;
  /** `differ`, or the reason the attribute is not comparable (decided from the profile, as for stored values). */
  kind: 'differ' | AttributeReason;
  /** Our evaluation's error code. */
  error?: string;
  /** The platform's error text for the attribute (its errorMessages). */
  platformError?: string;
}

export interface PreviewReport {
  /** Identities asked for (the --preview number). */
  asked: number;
  /** Identities the platform previewed. */
  identities: number;
  /** Attribute values: previewed against ours. */
  totals: { compared: number; agree: number; differ: number; notComparable: number };
  /** The values that are not the same, in the order previewed. */
  lines: PreviewLine[];
  /** Attributes not previewed: their mapping's type is not one the preview accepts (PREVIEWABLE_TYPES). */
  notPreviewed: string[];
  /** Why the previews stopped early: the tenant refused one (VERIFY_PREVIEW_REFUSED) or answered it in a shape not the platform's (VERIFY_PREVIEW_RESPONSE). */
  error?: { code: string; message: string };
}

export interface PreviewContext {
  providers: TenantProviders;
  /** The profile as compared (its mappings, as stored in the tenant). */
  profile: IdentityProfile;
  compare: ComparisonConfig;
  shard: Shard | null;
  now?: string;
  rules?: Record<string, RuleFunction>;
}

/**
 * The identities to preview, n at most: the first example of each difference group, then the
 * identities whose values differ only because they are stale (the preview tells whether they
 * would agree once recomputed), then a sample (`more`, in the tenant's listing order).
 */
export function previewCandidates(groups: ReadonlyMap<string, readonly ExplainedGroup[]>, stale: readonly string[], n: number): string[] {
  const out = new Set<string>();
  for (const list of groups.values()) for (const g of list) if (g.examples[0] !== undefined && out.size < n) out.add(g.examples[0].identityId);
  for (const id of stale) if (out.size < n) out.add(id);
  return [...out];
}

/** More identities up to n, from the tenant's listing: compared ones only (stored attributes, this profile, the selection and shard). */
async function sample(ctx: PreviewContext, chosen: string[], n: number): Promise<string[]> {
  const out = [...chosen];
  if (out.length >= n) return out;
  const taken = new Set(out);
  const wanted = ctx.compare.identities;
  for await (const page of ctx.providers.listIdentities()) {
    for (const identity of page) {
      if (taken.has(identity.id) || Object.keys(identity.attributes ?? {}).length === 0 || ofAnotherProfile(identity, ctx.compare.profile)) continue;
      if (ctx.shard !== null && shardOf(identity.id, ctx.shard.count) !== ctx.shard.index) continue;
      if (wanted !== undefined && !wanted.includes(identity.id) && !wanted.includes(identity.name)) continue;
      out.push(identity.id);
      if (out.length >= n) return out;
    }
  }
  return out;
}

const key = (identityId: string, attribute: string) => `${identityId}\u0000${attribute}`;

interface Previewed {
  value: string | null;
  previous: string | null;
  error?: string;
}

function malformed(identityId: string, what: string): never {
  throw codedError('VERIFY_PREVIEW_RESPONSE', `the tenant's identity preview for ${identityId} answered ${what}, not the platform's IdentityPreviewResponse (previewAttributes[].name, value)`, { details: { identityId, path: PREVIEW_PATH } });
}

/** Read the platform's IdentityPreviewResponse: previewAttributes[].{name, value, previousValue, errorMessages[].text}. */
function readPreview(identityId: string, body: unknown): Map<string, Previewed> {
  const attributes = body !== null && typeof body === 'object' ? (body as { previewAttributes?: unknown }).previewAttributes : undefined;
  if (!Array.isArray(attributes)) malformed(identityId, 'without a previewAttributes list');
  const out = new Map<string, Previewed>();
  for (const a of attributes as unknown[]) {
    if (a === null || typeof a !== 'object' || typeof (a as { name?: unknown }).name !== 'string') malformed(identityId, 'a preview attribute without a name');
    const { name, value, previousValue, errorMessages } = a as { name: string; value?: unknown; previousValue?: unknown; errorMessages?: unknown };
    const texts = Array.isArray(errorMessages) ? errorMessages.map((m) => (m !== null && typeof m === 'object' ? (m as { text?: unknown }).text : undefined)).filter((t): t is string => typeof t === 'string') : [];
    out.set(name, { value: storedAttributeValue(value), previous: storedAttributeValue(previousValue), ...(texts.length > 0 ? { error: texts.join('; ').slice(0, 1000) } : {}) });
  }
  return out;
}

/** The tenant's refusal as VERIFY_PREVIEW_REFUSED; anything else (network, limits, 5xx after retries) is the client's own error. */
function refusal(error: unknown, identityId: string): TransformsError | null {
  if (!isTransformsError(error) || error.code !== 'TENANT_HTTP') return null;
  const status = Number((error.details as { status?: unknown } | undefined)?.status);
  if (!(status >= 400 && status < 500)) return null;
  return codedError('VERIFY_PREVIEW_REFUSED', `the tenant refused the identity preview of ${identityId} (${error.message}); the preview accepts only accountAttribute, reference and rule mappings that reference saved transforms, and needs a token allowed to read identity profiles`, {
    cause: error,
    details: { identityId, status, path: PREVIEW_PATH },
  });
}

async function previewOne(ctx: PreviewContext, identityId: string, mappings: readonly ProfileMapping<unknown>[]): Promise<Map<string, Previewed>> {
  const config = ctx.profile.identityAttributeConfig;
  const body = { identityId, identityAttributeConfig: { ...(config.enabled !== undefined ? { enabled: config.enabled } : {}), attributeTransforms: mappings } };
  try {
    const response = await ctx.providers.client.request('POST', PREVIEW_PATH, { body });
    return readPreview(identityId, response.body);
  } catch (error) {
    throw refusal(error, identityId) ?? error;
  }
}

/** Our values for the identities, evaluated over the tenant's providers as the run evaluated them. */
async function ours(ctx: PreviewContext, identities: readonly Identity[]) {
  const engine = createEngine({ providers: ctx.providers, ...(ctx.now !== undefined ? { clock: () => new Date(ctx.now!) } : {}), ...(ctx.rules !== undefined ? { rules: ctx.rules } : {}) });
  await ctx.providers.prefetchAccounts(identities.map((i) => i.id));
  return Promise.all(identities.map((identity) => engine.evaluateProfile(ctx.profile, identity)));
}

/** Preview `n` identities (candidates first, then a sample) and compare the platform's fresh values with ours. */
export async function runPreview(ctx: PreviewContext, groups: ReadonlyMap<string, readonly ExplainedGroup[]>, candidates: string[], n: number): Promise<PreviewReport> {
  const mappings = ctx.profile.identityAttributeConfig.attributeTransforms.filter((m) => PREVIEWABLE_TYPES.has(String((m.transformDefinition as { type?: unknown } | null)?.type)));
  const previewed = new Set(mappings.map((m) => m.identityAttributeName));
  const attributes = ctx.compare.attributes.filter((a) => previewed.has(a));
  const report: PreviewReport = { asked: n, identities: 0, totals: { compared: 0, agree: 0, differ: 0, notComparable: 0 }, lines: [], notPreviewed: ctx.compare.attributes.filter((a) => !previewed.has(a)) };
  if (mappings.length === 0) return report;
  const ids = await sample(ctx, candidates.slice(0, n), n);
  const found = new Map((await ctx.providers.fetchIdentities(ids)).map((i) => [i.id, i]));
  const identities = ids.map((id) => found.get(id)).filter((i): i is Identity => i !== undefined);
  const results = await ours(ctx, identities);
  const values = new Map<string, { platform: string | null; ours: string | null }>();
  const settled = await Promise.allSettled(identities.map((i) => previewOne(ctx, i.id, mappings)));
  for (const [i, identity] of identities.entries()) {
    const outcome = settled[i]!;
    if (outcome.status === 'rejected') {
      const error: unknown = outcome.reason;
      if (isTransformsError(error) && (error.code === 'VERIFY_PREVIEW_REFUSED' || error.code === 'VERIFY_PREVIEW_RESPONSE')) {
        report.error ??= { code: error.code, message: error.message };
        continue;
      }
      throw error;
    }
    report.identities++;
    const result = results[i]!;
    const errors = new Map(result.errors.map((e) => [e.attribute, e.code]));
    for (const attribute of attributes) {
      const fresh = outcome.value.get(attribute) ?? { value: null, previous: storedAttributeValue(identity.attributes?.[attribute]) };
      const error = errors.get(attribute);
      const mine = error !== undefined ? null : storedAttributeValue(result.attributes[attribute]);
      const reason = ctx.compare.reasons[attribute];
      if (reason !== undefined) report.totals.notComparable++;
      else {
        report.totals.compared++;
        if (fresh.value === mine) report.totals.agree++;
        else report.totals.differ++;
      }
      values.set(key(identity.id, attribute), { platform: fresh.value, ours: mine });
      if (fresh.value === mine) continue;
      report.lines.push({
        identityId: identity.id,
        identityName: identity.name,
        attribute,
        platform: fresh.value,
        stored: fresh.previous,
        ours: mine,
        kind: reason ?? 'differ',
        ...(error !== undefined ? { error } : {}),
        ...(fresh.error !== undefined ? { platformError: fresh.error } : {}),
      });
    }
  }
  annotate(groups, values);
  return report;
}

/** Each group whose first example was previewed: what the platform computes for it now, and ours. */
function annotate(groups: ReadonlyMap<string, readonly ExplainedGroup[]>, fresh: ReadonlyMap<string, { platform: string | null; ours: string | null }>): void {
  for (const [attribute, list] of groups) {
    for (const group of list) {
      const first = group.examples[0];
      const seen = first === undefined ? undefined : fresh.get(key(first.identityId, attribute));
      if (seen !== undefined) group.previewed = { identityId: first!.identityId, ...seen };
    }
  }
}
