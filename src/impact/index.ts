// Impact analysis: what a change to transforms or identity profiles would do to a tenant's
// identities, before it is saved. The two versions are compared without evaluation first
// (plan.ts), then only the attributes a change can reach are evaluated, both versions side by
// side in one refresh pass over the tenant (combine.ts), and every identity's two outcomes are
// compared.

import { canonicalJson } from '../engine/canonical.js';
import type { Value } from '../engine/types.js';
import type { Limits } from '../engine/types.js';
import { codedError, isTransformsError } from '../errors/index.js';
import { createEngine } from '../engine/engine.js';
import type { TraceNode } from '../engine/trace.js';
import { createMemoryProviders } from '../providers/memory.js';
import { loadFixtures } from '../providers/fixtures.js';
import type { IdentityProfile } from '../providers/types.js';
import { createTenantProviders, type TenantProviderOptions, type TenantProviders } from '../providers/tenant/index.js';
import type { TransformDocument } from '../providers/types.js';
import { refresh, type IdentityRefreshResult } from '../refresh/index.js';
import type { Progress } from '../refresh/progress.js';
import type { Shard } from '../refresh/shard.js';
import { baseKey, combine, headKey, type Combined } from './combine.js';
import { keepExample, nameExamples } from './examples.js';
import { diffTransforms, planProfile, type AttributePlan, type AttributeReason, type TransformChange } from './plan.js';
import { readDirectoryVersion, readVersion, type NamedTransform, type TransformVersion, type VersionFile } from './version.js';

export { readVersion, type TransformVersion } from './version.js';
export { diffTransforms, planProfile, referencesOf, type AttributePlan, type AttributeReason, type TransformChange } from './plan.js';
export { formatImpact, impactFailure, type ImpactFormat } from './report.js';

export interface ImpactOptions {
  /** The version before the change: a directory or `git:<ref>[:<path>]`, or a version already read. */
  base: string | TransformVersion;
  /** The version after the change. Default: the working directory (`.`). */
  head?: string | TransformVersion;
  /** The tenant's records: a fixtures directory … */
  fixtures?: string;
  /** … or a platform tenant (credentials or tenant providers). */
  tenant?: TenantProviderOptions | TenantProviders;
  /** Only this identity profile (name, id or file name); default: every profile a change reaches. */
  profile?: string;
  /** Example identities kept per attribute and kind of difference. Default 5. */
  examples?: number;
  /** As refresh(): worker threads, batch size, shard, clock, limits. */
  workers?: number | 'auto';
  batchSize?: number;
  shard?: Shard | string | null;
  now?: Date | string;
  limits?: Partial<Limits>;
  /**
   * Attach to every example the explanation of both evaluations (engine.explain). Fixtures
   * only: the tenant is loaded in memory once the pass is over, to explain the examples.
   */
  explain?: boolean;
  /** Where relative directories and git are resolved. Default: process.cwd(). */
  cwd?: string;
  onProgress?: (progress: Progress & { profile: string }) => void;
}

/** What an evaluation gave: a value, or a coded error. */
export type Outcome = { value: Value } | { error: { code: string; message: string; path: string } };

export type DifferenceKind = 'changed' | 'becameNull' | 'stoppedBeingNull' | 'newError' | 'errorFixed' | 'errorChanged';

/** One identity whose attribute would compute differently. `before` is null for an attribute the change adds, `after` for one it removes. */
export interface IdentityDifference {
  profile: string;
  attribute: string;
  identityId: string;
  kind: DifferenceKind;
  before: Outcome | null;
  after: Outcome | null;
}

export interface Example {
  identityId: string;
  /** The identity's name, when the tenant has it. */
  identityName?: string;
  before: Outcome | null;
  after: Outcome | null;
  /** With the explain option: how each version computed its outcome. */
  explained?: { before?: TraceNode; after?: TraceNode };
}

export interface AttributeImpact {
  attribute: string;
  /** Why it was evaluated: its mapping changed, or it reaches a changed transform. */
  reasons: AttributeReason[];
  /** Reaches a usernameGenerator: each version's values were generated in that version's own run. */
  dependsOnIssuedValues: boolean;
  identities: number;
  unchanged: number;
  /** Values that differ (including those that became or stopped being null). */
  changed: number;
  becameNull: number;
  stoppedBeingNull: number;
  newErrors: number;
  errorsFixed: number;
  /** Failing in both versions, with another code or message. */
  errorsChanged: number;
  examples: Partial<Record<DifferenceKind, Example[]>>;
}

export interface ProfileImpact {
  profile: string;
  /** The profile file of head (or base, for a profile the change removes); absent when the tenant's profile was used. */
  file?: string;
  attributes: AttributeImpact[];
}

export interface ImpactReport {
  /** The report's format version (docs/impact.md describes it). */
  version: 1;
  base: string;
  head: string;
  /** fixtures directory or tenant URL. */
  tenant: string;
  transforms: TransformChange[];
  profiles: ProfileImpact[];
  totals: { identities: number; attributes: number; changed: number; newErrors: number; errorsFixed: number };
  elapsedMs: number;
}

const OPTION_KEYS = new Set(['base', 'head', 'fixtures', 'tenant', 'profile', 'examples', 'explain', 'workers', 'batchSize', 'shard', 'now', 'limits', 'cwd', 'onProgress']);

function invalid(message: string, option: string): never {
  throw codedError('IMPACT_OPTION_INVALID', message, { details: { option } });
}

interface Prepared {
  base: TransformVersion;
  head: TransformVersion;
  tenantLabel: string;
  source: { fixtures: string } | { tenant: TenantProviders };
  changes: TransformChange[];
  profiles: { name: string; file?: string; plans: AttributePlan[]; passes: Pass[] }[];
  examples: number;
}

function withDefaults(version: TransformVersion, tenant: { transforms: ReadonlyMap<string, VersionFile<NamedTransform>>; profiles: readonly VersionFile<IdentityProfile>[] }): TransformVersion {
  return {
    label: version.label,
    // A version without transforms (only profiles) evaluates against the tenant's transforms, and one without profiles against the tenant's profiles.
    transforms: version.transforms.size > 0 ? version.transforms : tenant.transforms,
    profiles: version.profiles.length > 0 ? version.profiles : tenant.profiles,
  };
}

const matches = (p: VersionFile<IdentityProfile>, name: string) =>
  p.doc.name === name || p.doc.id === name || p.file.replace(/^.*[\\/:]/, '').replace(/\.json$/, '') === name;

async function prepare(options: ImpactOptions): Promise<Prepared> {
  if (options === null || typeof options !== 'object') invalid('impact options must be an object', '');
  for (const key of Object.keys(options)) if (!OPTION_KEYS.has(key)) invalid(`unknown impact option "${key}"`, key);
  if (options.base === undefined) invalid('base must name the version before the change (a directory or git:<ref>)', 'base');
  if ((options.fixtures === undefined) === (options.tenant === undefined)) invalid('give the tenant\'s records as exactly one of fixtures or tenant', 'fixtures');
  if (options.explain && options.fixtures === undefined) invalid('explain needs fixtures: examples are explained against the tenant loaded in memory', 'explain');
  const examples = options.examples ?? 5;
  if (!Number.isSafeInteger(examples) || examples < 0 || examples > 1000) invalid(`examples must be an integer from 0 to 1000, got ${String(examples)}`, 'examples');
  const cwd = options.cwd ?? process.cwd();
  const headSpec = options.head ?? '.';
  const headRaw = typeof headSpec === 'string' ? readVersion(headSpec, { cwd }) : headSpec;
  // git:<ref> without a path reads the directory head names, at that revision.
  const relativeTo = typeof headSpec === 'string' && !headSpec.startsWith('git:') ? headSpec : '.';
  const baseRaw = typeof options.base === 'string' ? readVersion(options.base, { cwd, relativeTo }) : options.base;

  let tenantVersion: { transforms: ReadonlyMap<string, VersionFile<NamedTransform>>; profiles: readonly VersionFile<IdentityProfile>[] };
  let source: Prepared['source'];
  let tenantLabel: string;
  if (options.fixtures !== undefined) {
    tenantVersion = readDirectoryVersion(options.fixtures, cwd);
    source = { fixtures: options.fixtures };
    tenantLabel = options.fixtures;
  } else {
    const tenant = options.tenant!;
    const providers = typeof (tenant as TenantProviders).listIdentityProfiles === 'function' ? (tenant as TenantProviders) : createTenantProviders(tenant as TenantProviderOptions);
    const profiles = (await providers.listIdentityProfiles()).map((doc) => ({ doc, file: `${providers.client.baseUrl}/v3/identity-profiles/${String(doc.id ?? doc.name)}` }));
    tenantVersion = { transforms: new Map(), profiles };
    source = { tenant: providers };
    tenantLabel = providers.client.baseUrl;
  }
  const base = withDefaults(baseRaw, tenantVersion);
  const head = withDefaults(headRaw, tenantVersion);
  const changes = diffTransforms(base, head);

  const names: string[] = [];
  for (const p of [...head.profiles, ...base.profiles]) if (!names.includes(p.doc.name)) names.push(p.doc.name);
  let selected = names;
  if (options.profile !== undefined) {
    const found = [...head.profiles, ...base.profiles].find((p) => matches(p, options.profile!));
    if (!found) invalid(`--profile "${options.profile}" is not a profile of either version (available: ${names.map((n) => JSON.stringify(n)).join(', ') || 'none'})`, 'profile');
    selected = [found!.doc.name];
  }
  const profiles: Prepared['profiles'] = [];
  for (const name of selected) {
    const before = base.profiles.find((p) => p.doc.name === name) ?? null;
    const after = head.profiles.find((p) => p.doc.name === name) ?? null;
    const plans = planProfile(before?.doc ?? null, after?.doc ?? null, base, head, changes);
    if (plans.length === 0) continue;
    const file = (after ?? before)!.file;
    const fromVersion = headRaw.profiles.length > 0 || baseRaw.profiles.length > 0;
    profiles.push({ name, ...(fromVersion ? { file } : {}), plans, passes: passesOf(plans, base, head, name) });
  }
  return { base, head, tenantLabel, source, changes, profiles, examples };
}

function outcomeOf(result: IdentityRefreshResult, key: string, combined: Combined): Outcome | null {
  const error = result.errors.find((e) => e.attribute === key);
  if (error) {
    // The pointer into the combined profile becomes one into the mapping's own profile; base transforms lose their prefix.
    const match = /^\/identityAttributeConfig\/attributeTransforms\/(\d+)(.*)$/.exec(error.path);
    const path = match ? combined.origins[Number(match[1])]! + match[2] : error.path;
    return { error: { code: error.code, message: error.message.split(combined.basePrefix).join(''), path } };
  }
  return Object.prototype.hasOwnProperty.call(result.attributes, key) ? { value: result.attributes[key]! } : null;
}

const isError = (o: Outcome | null): o is { error: { code: string; message: string; path: string } } => o !== null && 'error' in o;
const valueOf = (o: Outcome | null): Value => (o === null || isError(o) ? null : o.value);

/** How two outcomes of one attribute differ, or null when they do not. */
export function compareOutcomes(before: Outcome | null, after: Outcome | null): DifferenceKind | null {
  if (isError(before) && isError(after)) return before.error.code === after.error.code && before.error.message === after.error.message ? null : 'errorChanged';
  if (isError(after)) return 'newError';
  if (isError(before)) return 'errorFixed';
  const b = valueOf(before);
  const a = valueOf(after);
  if (canonicalJson(b) === canonicalJson(a)) return null;
  if (a === null) return 'becameNull';
  if (b === null) return 'stoppedBeingNull';
  return 'changed';
}

function emptyImpact(plan: AttributePlan): AttributeImpact {
  return {
    attribute: plan.attribute,
    reasons: plan.reasons,
    dependsOnIssuedValues: plan.dependsOnIssuedValues,
    identities: 0,
    unchanged: 0,
    changed: 0,
    becameNull: 0,
    stoppedBeingNull: 0,
    newErrors: 0,
    errorsFixed: 0,
    errorsChanged: 0,
    examples: {},
  };
}

const COUNTERS: Record<DifferenceKind, (keyof AttributeImpact)[]> = {
  changed: ['changed'],
  becameNull: ['changed', 'becameNull'],
  stoppedBeingNull: ['changed', 'stoppedBeingNull'],
  newError: ['newErrors'],
  errorFixed: ['errorsFixed'],
  errorChanged: ['errorsChanged'],
};

/**
 * One pass of the refresh over the tenant: a combined profile. Attributes that depend on issued
 * values (usernameGenerator) get a pass per version, so that each version issues its names in a
 * run of its own, as the platform would; every other attribute is evaluated in both versions in
 * one shared pass.
 */
interface Pass {
  combined: Combined;
  /** Evaluated on the calling thread: its usernameGenerator issues names in identity order. */
  issued: boolean;
}

function passesOf(plans: readonly AttributePlan[], base: TransformVersion, head: TransformVersion, name: string): Pass[] {
  const passes: Pass[] = [];
  if (plans.some((p) => !p.dependsOnIssuedValues)) passes.push({ combined: combine(plans, base, head, name, (p) => !p.dependsOnIssuedValues), issued: false });
  if (plans.some((p) => p.dependsOnIssuedValues)) {
    for (const side of ['base', 'head'] as const) passes.push({ combined: combine(plans, base, head, name, (p) => p.dependsOnIssuedValues, side), issued: true });
  }
  return passes;
}

async function* evaluateProfile(prepared: Prepared, profile: Prepared['profiles'][number], options: ImpactOptions): AsyncGenerator<{ plan: number; identityId: string; before: Outcome | null; after: Outcome | null }> {
  const { passes, plans, name } = profile;
  const jobs = passes.map((pass, n) =>
    refresh({
      ...('fixtures' in prepared.source ? { fixtures: prepared.source.fixtures } : { tenant: prepared.source.tenant }),
      profile: pass.combined.profile,
      transforms: pass.combined.transforms,
      ...(pass.issued ? { workers: 0 } : options.workers !== undefined ? { workers: options.workers } : {}),
      ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
      ...(options.shard !== undefined ? { shard: options.shard } : {}),
      ...(options.now !== undefined ? { now: options.now } : {}),
      ...(options.limits !== undefined ? { limits: options.limits } : {}),
      ...(options.onProgress && n === 0 ? { onProgress: (p: Progress) => options.onProgress!({ ...p, profile: name }) } : {}),
    })[Symbol.asyncIterator](),
  );
  // Which pass holds each version of each plan.
  const baseIn = plans.map((_p, i) => passes.findIndex((pass) => pass.combined.profile.identityAttributeConfig.attributeTransforms.some((m) => m.identityAttributeName === baseKey(i))));
  const headIn = plans.map((_p, i) => passes.findIndex((pass) => pass.combined.profile.identityAttributeConfig.attributeTransforms.some((m) => m.identityAttributeName === headKey(i))));
  try {
    for (;;) {
      // Every pass reads the same identities in the same order: they advance in lockstep.
      const steps = await Promise.all(jobs.map((job) => job.next()));
      if (steps.every((s) => s.done)) return;
      if (steps.some((s) => s.done)) throw new Error('impact passes ended at different identities');
      const results = steps.map((s) => s.value as IdentityRefreshResult);
      const identityId = results[0]!.identityId;
      if (results.some((r) => r.identityId !== identityId)) throw new Error(`impact passes disagree on the order of identities (${identityId})`);
      for (let i = 0; i < plans.length; i++) {
        const b = baseIn[i]!;
        const h = headIn[i]!;
        yield {
          plan: i,
          identityId,
          before: b >= 0 ? outcomeOf(results[b]!, baseKey(i), passes[b]!.combined) : null,
          after: h >= 0 ? outcomeOf(results[h]!, headKey(i), passes[h]!.combined) : null,
        };
      }
    }
  } finally {
    await Promise.all(jobs.map((job) => job.return?.(undefined)));
  }
}

/** Every identity whose affected attributes would compute differently, as they are found. */
export async function* impactDifferences(options: ImpactOptions): AsyncGenerator<IdentityDifference, void, undefined> {
  const prepared = await prepare(options);
  for (const profile of prepared.profiles) {
    for await (const { plan, identityId, before, after } of evaluateProfile(prepared, profile, options)) {
      const kind = compareOutcomes(before, after);
      if (kind !== null) yield { profile: profile.name, attribute: profile.plans[plan]!.attribute, identityId, kind, before, after };
    }
  }
}

/** The impact report: per profile and attribute, how many identities would change and how, with examples. */
export async function impact(options: ImpactOptions): Promise<ImpactReport> {
  const started = performance.now();
  const prepared = await prepare(options);
  const profiles: ProfileImpact[] = [];
  for (const profile of prepared.profiles) {
    const impacts = profile.plans.map(emptyImpact);
    for await (const { plan, identityId, before, after } of evaluateProfile(prepared, profile, options)) {
      const row = impacts[plan]!;
      row.identities++;
      const kind = compareOutcomes(before, after);
      if (kind === null) {
        row.unchanged++;
        continue;
      }
      for (const counter of COUNTERS[kind]) (row[counter] as number)++;
      keepExample((row.examples[kind] ??= []), { identityId, before, after }, prepared.examples);
    }
    await nameExamples(prepared.source, impacts.flatMap((a) => Object.values(a.examples).flat()));
    if (options.explain) explainExamples(prepared, profile, impacts, options);
    profiles.push({ profile: profile.name, ...(profile.file !== undefined ? { file: profile.file } : {}), attributes: impacts });
  }
  const all = profiles.flatMap((p) => p.attributes);
  return {
    version: 1,
    base: prepared.base.label,
    head: prepared.head.label,
    tenant: prepared.tenantLabel,
    transforms: prepared.changes,
    profiles,
    totals: {
      identities: Math.max(0, ...all.map((a) => a.identities)),
      attributes: all.length,
      changed: all.reduce((n, a) => n + a.changed, 0),
      newErrors: all.reduce((n, a) => n + a.newErrors, 0),
      errorsFixed: all.reduce((n, a) => n + a.errorsFixed, 0),
    },
    elapsedMs: Math.round(performance.now() - started),
  };
}

/** Explain both outcomes of every example, each version with its own transforms. */
function explainExamples(prepared: Prepared, profile: Prepared['profiles'][number], impacts: AttributeImpact[], options: ImpactOptions): void {
  const fixtures = loadFixtures((prepared.source as { fixtures: string }).fixtures);
  const clock = options.now === undefined ? undefined : ((t: Date) => () => t)(new Date(options.now));
  const engineOf = (version: TransformVersion) =>
    createEngine({ providers: createMemoryProviders({ ...fixtures, transforms: [...version.transforms.values()].map((t) => t.doc) }), ...(clock ? { clock } : {}), ...(options.limits ? { limits: options.limits } : {}) });
  const engines = { before: engineOf(prepared.base), after: engineOf(prepared.head) };
  const byId = new Map(fixtures.identities.map((i) => [i.id, i]));
  profile.plans.forEach((plan, i) => {
    for (const example of Object.values(impacts[i]!.examples).flat()) {
      const identity = byId.get(example.identityId);
      if (!identity) continue;
      const previous = identity.attributes?.[plan.attribute];
      const variables = { attributeDefinition: { name: plan.attribute }, ...(previous !== undefined && previous !== null ? { oldValue: previous } : {}) };
      const explained: NonNullable<Example['explained']> = {};
      for (const side of ['before', 'after'] as const) {
        const mapping = side === 'before' ? plan.base : plan.head;
        if (!mapping) continue;
        // A mapping's definition has no name of its own: the attribute's stands in for it.
        const transform = { name: plan.attribute, ...(mapping.transformDefinition as object) };
        try {
          explained[side] = engines[side].explain(transform, { identity, variables }).trace;
        } catch (error) {
          if (!isTransformsError(error)) throw error;
        }
      }
      example.explained = explained;
    }
  });
}

/** Whether a report passes a --fail-on policy: `changes` fails on any difference, `errors` on new errors, `none` never. */
export function impactPasses(report: ImpactReport, failOn: 'changes' | 'errors' | 'none'): boolean {
  if (failOn === 'none') return true;
  const all = report.profiles.flatMap((p) => p.attributes);
  if (failOn === 'errors') return all.every((a) => a.newErrors === 0);
  return all.every((a) => a.changed === 0 && a.newErrors === 0 && a.errorsFixed === 0 && a.errorsChanged === 0);
}

