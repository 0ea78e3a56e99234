// Verify a tenant's stored attributes (docs/verify.md): recompute each identity's profile with
// this engine and compare with what the platform stored, writing nothing. One refresh pass
// (refresh/, its workers and shards) does the evaluation and the comparison where each identity
// is evaluated; this module decides what is comparable, streams the differing lines, groups
// them and builds the report.

import { codedError } from '../errors/index.js';
import { closestName } from '../errors/suggest.js';
import { loadRulesModule } from '../engine/rules-module.js';
import { createTenantProviders, type TenantProviderOptions, type TenantProviders } from '../providers/tenant/index.js';
import type { IdentityProfile, Providers, TransformDocument } from '../providers/types.js';
import { reachableFrom } from '../engine/references.js';
import { loadStaticFixtures } from '../refresh/evaluator.js';
import { resolveProfile } from '../refresh/profile-source.js';
import type { Progress } from '../refresh/progress.js';
import { RefreshRunner, type RefreshOptions } from '../refresh/runner.js';
import type { Shard } from '../refresh/shard.js';
import { addComparison, emptyComparison, type ComparisonConfig, type VerifyLine } from '../refresh/stored-comparison.js';
import { isProviders, tenantProfile, TenantRefreshRunner } from '../refresh/tenant-runner.js';
import { attributeReasons } from './classify.js';
import { buildCases, exampleIds, type CaseFile, type ExampleRecord } from './cases.js';
import { fixtureExamples, tenantExamples } from './examples.js';
import { explainGroups } from './explain.js';
import { createMemoryProviders } from '../providers/memory.js';
import { AttributeGroups } from './groups.js';
import { MAX_PREVIEW_IDENTITIES, previewCandidates, runPreview, type PreviewContext } from './preview.js';
import { buildReport, type ExplainedGroup, type VerifyReport } from './report.js';
import { resolveRunOptions } from '../refresh/run-options.js';

export { editSignature, MAX_PAIRS, type DifferenceGroup, type VerifyExample } from './groups.js';
export { verifyPasses, type AttributeReport, type ExplainedGroup, type VerifyReport } from './report.js';
export { formatVerify, previewLineJson, verifyLineJson, type VerifyFormat } from './format.js';
export { CASE_FORMAT, CASE_VERSION, runCase, type CaseFile, type VerifyCase } from './cases.js';
export type { CaseInputs } from './case-inputs.js';
export { MAX_PREVIEW_IDENTITIES, PREVIEW_PATH, type PreviewLine, type PreviewReport } from './preview.js';
export { VERIFY_KINDS, type AttributeReason, type VerifyKind, type VerifyLine } from '../refresh/stored-comparison.js';

export interface VerifyOptions {
  /** The tenant: a fixtures directory (a snapshot) … */
  fixtures?: string;
  /** … or a platform tenant (or `serve`) over its API. */
  tenant?: TenantProviderOptions | TenantProviders;
  /** The profile: an object, a file, or a tenant profile's name or id. Default: the tenant's first profile. */
  profile?: string | IdentityProfile;
  /** Only these identities (ids or names). */
  identity?: string | readonly string[];
  /** Only these attributes of the profile. */
  attributes?: readonly string[];
  workers?: number | 'auto';
  workerHeapMb?: number;
  batchSize?: number;
  shard?: Shard | string | null;
  /** Fixed evaluation time; default the system clock (attributes that read it are kind `time` either way). */
  now?: Date | string;
  /** A rules module (refresh's `rules`): its rules are run; other rules make their attributes kind `rule`. */
  rules?: string;
  /** Example identities per group (default 3, 0 to 100). */
  examples?: number;
  /** Explain the first example of each group (fixtures only: explain reads the tenant synchronously). */
  explain?: boolean;
  /** Reduce each group of differences to a self-contained case (job.cases()): its inputs are personal data. */
  cases?: boolean;
  /** With cases: replace the input values as well (a case whose value depends on them is marked not reproducible). */
  pseudonymize?: boolean;
  /** Ask the tenant's identity preview for this many identities (tenant only, 1 to 1,000): fresh platform values against ours (report.preview). */
  preview?: number;
  onProgress?: (progress: Progress) => void;
}

const OPTION_KEYS = new Set(['fixtures', 'tenant', 'profile', 'identity', 'attributes', 'workers', 'workerHeapMb', 'batchSize', 'shard', 'now', 'rules', 'examples', 'explain', 'cases', 'pseudonymize', 'preview', 'onProgress']);

/** A run of verify: its lines as they are found, then its report. */
export interface VerifyJob extends AsyncIterable<VerifyLine> {
  /** The report; complete once the iteration has ended. */
  report(): VerifyReport;
  /** With the cases option, once the iteration has ended: the groups as self-contained cases. */
  cases(): CaseFile | null;
}

/** Lines of identities with nothing stored are held back (up to this many) until an identity with stored attributes is seen. */
const HELD_MISSING = 10_000;

function invalid(message: string, option: string): never {
  throw codedError('VERIFY_OPTION_INVALID', message, { details: { option } });
}

function checkOptions(options: VerifyOptions): void {
  if (options === null || typeof options !== 'object') invalid('verify options must be an object', '');
  for (const key of Object.keys(options)) if (!OPTION_KEYS.has(key)) invalid(`unknown verify option "${key}"`, key);
  if ((options.fixtures === undefined) === (options.tenant === undefined)) invalid('verify needs the tenant: fixtures (a directory) or tenant (its API), one of them', 'fixtures');
  if (options.examples !== undefined && (!Number.isSafeInteger(options.examples) || options.examples < 0 || options.examples > 100)) invalid(`examples must be an integer from 0 to 100, got ${String(options.examples)}`, 'examples');
  if (options.preview !== undefined) {
    if (!Number.isSafeInteger(options.preview) || options.preview < 1 || options.preview > MAX_PREVIEW_IDENTITIES) invalid(`preview must be an integer from 1 to ${MAX_PREVIEW_IDENTITIES}, got ${String(options.preview)}`, 'preview');
    if (options.tenant === undefined) invalid('preview asks the tenant\'s identity preview: it needs tenant (its API), not fixtures', 'preview');
  }
  if (options.pseudonymize === true && options.cases !== true) invalid('pseudonymize replaces the input values of cases: it needs cases', 'pseudonymize');
  if (options.explain === true && options.fixtures === undefined) invalid('explain needs fixtures: examples are explained against a snapshot of the tenant, read synchronously', 'explain');
  const list = (value: unknown, option: string) => {
    if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string' && v !== '')) invalid(`${option} must be a non-empty list of non-empty names`, option);
  };
  if (options.identity !== undefined && typeof options.identity !== 'string') list(options.identity, 'identity');
  if (options.identity === '') invalid('identity must be an identity id or name', 'identity');
  if (options.attributes !== undefined) list(options.attributes, 'attributes');
}

/** The profile's attributes to compare: all, or those asked for (each one the profile computes). */
function selectedAttributes(profile: IdentityProfile, wanted: readonly string[] | undefined): string[] {
  const computed = profile.identityAttributeConfig.attributeTransforms.map((m) => m.identityAttributeName);
  if (wanted === undefined) return computed;
  for (const name of wanted) {
    if (computed.includes(name)) continue;
    const suggestion = closestName(name, computed);
    throw codedError('VERIFY_ATTRIBUTE_UNKNOWN', `the profile "${profile.name}" computes no attribute "${name}"${suggestion ? ` — did you mean "${suggestion}"?` : ''} (it computes ${computed.join(', ')})`, {
      details: { attribute: name, ...(suggestion ? { suggestion } : {}) },
    });
  }
  return computed.filter((name) => wanted.includes(name));
}

/** The saved transforms the profile reaches (through references, transitively), fetched from a tenant's API. */
async function reachedTransforms(providers: TenantProviders, profile: IdentityProfile): Promise<TransformDocument[]> {
  const found = new Map<string, TransformDocument | null>();
  const definitions = profile.identityAttributeConfig.attributeTransforms.map((m) => m.transformDefinition);
  for (;;) {
    // Walk what is known; fetch the names it reaches that are not, and walk again.
    const wanted = new Set<string>();
    reachableFrom(definitions, (name) => (found.has(name) ? found.get(name) : void wanted.add(name)));
    if (wanted.size === 0) break;
    for (const name of wanted) found.set(name, await providers.transforms.getTransform(name));
  }
  return [...found.values()].filter((t): t is TransformDocument => t !== null);
}

interface Prepared {
  profile: IdentityProfile;
  providers: TenantProviders | null;
  /** The saved transforms (a tenant's: those the profile reaches). */
  transforms: TransformDocument[];
  sources: NonNullable<Providers['sources']>;
  compare: ComparisonConfig;
  runner: RefreshRunner | TenantRefreshRunner;
  tenant: string;
}

async function prepare(options: VerifyOptions): Promise<Prepared> {
  const rules = options.rules === undefined ? {} : await loadRulesModule(options.rules);
  const registered = new Set(Object.keys(rules));
  const common: RefreshOptions = {
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    ...(options.workerHeapMb !== undefined ? { workerHeapMb: options.workerHeapMb } : {}),
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    ...(options.shard !== undefined ? { shard: options.shard } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
    ...(options.rules !== undefined ? { rules: options.rules } : {}),
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
  };
  let whole: IdentityProfile;
  let transforms: TransformDocument[];
  let providers: TenantProviders | null = null;
  let sources: NonNullable<Providers['sources']>;
  if (options.fixtures !== undefined) {
    whole = resolveProfile(options.fixtures, options.profile);
    const loaded = loadStaticFixtures(options.fixtures);
    transforms = loaded.transforms;
    sources = createMemoryProviders({ sources: loaded.sources, identities: [], accounts: [] }).sources;
  } else {
    providers = isProviders(options.tenant!) ? options.tenant : createTenantProviders(options.tenant!);
    whole = await tenantProfile(providers, options.profile);
    transforms = await reachedTransforms(providers, whole);
    sources = providers.sources;
  }
  const attributes = selectedAttributes(whole, options.attributes);
  // Only the mappings compared are evaluated: each attribute is computed on its own.
  const profile: IdentityProfile = {
    ...whole,
    identityAttributeConfig: { ...whole.identityAttributeConfig, attributeTransforms: whole.identityAttributeConfig.attributeTransforms.filter((m) => attributes.includes(m.identityAttributeName)) },
  };
  const compare: ComparisonConfig = {
    attributes,
    reasons: attributeReasons(profile, transforms, registered),
    profile: { ...(typeof whole.id === 'string' ? { id: whole.id } : {}), name: String(whole.name) },
    ...(options.identity !== undefined ? { identities: typeof options.identity === 'string' ? [options.identity] : [...options.identity] } : {}),
  };
  if (providers !== null) return { profile, providers, transforms, sources, compare, runner: new TenantRefreshRunner({ ...common, tenant: providers, profile, compare }), tenant: providers.client.baseUrl };
  return { profile, providers, transforms, sources, compare, runner: new RefreshRunner({ ...common, fixtures: options.fixtures!, profile, compare }), tenant: options.fixtures! };
}

/**
 * The attributes of a fixture tenant's profile whose stored values can be compared (none of
 * time, random, unique or rule): where gen-tenant --plant plants its differences.
 */
export function comparableAttributes(fixtures: string, profile?: string): string[] {
  const resolved = resolveProfile(fixtures, profile);
  const reasons = attributeReasons(resolved, loadStaticFixtures(fixtures).transforms, new Set());
  return resolved.identityAttributeConfig.attributeTransforms.map((m) => m.identityAttributeName).filter((name) => reasons[name] === undefined);
}

/**
 * Verify a tenant: iterate the lines (one per identity × attribute whose values are not the
 * same, and one per identity with nothing stored) as they are found; report() once done.
 * Options are checked here; the tenant is read when iteration starts.
 */
export function verify(options: VerifyOptions): VerifyJob {
  checkOptions(options);
  const examples = options.examples ?? 3;
  let report: VerifyReport | null = null;
  let cases: CaseFile | null = null;
  let iterated = false;
  return {
    report() {
      if (report === null) invalid('the report is ready once the lines have been iterated', '');
      return report;
    },
    cases() {
      if (report === null) invalid('the cases are ready once the lines have been iterated', '');
      return cases;
    },
    async *[Symbol.asyncIterator]() {
      if (iterated) invalid('a verify run can be iterated only once', '');
      iterated = true;
      const { profile, providers, transforms, sources, compare, runner, tenant } = await prepare(options);
      const startedAt = new Date().toISOString();
      const rules = options.rules === undefined ? undefined : await loadRulesModule(options.rules);
      let records = new Map<string, ExampleRecord>();
      const total = emptyComparison();
      const groups = new Map(compare.attributes.map((a) => [a, new AttributeGroups(examples)]));
      let grouped = new Map<string, ExplainedGroup[]>();
      // Identities whose values differ because they are stale: previewed after the groups' examples.
      const stale = new Set<string>();
      let held: VerifyLine[] | null = [];
      let complete = false;
      try {
        for await (const batch of runner.comparisons()) {
          addComparison(total, batch);
          for (const line of batch.lines) {
            if (line.kind === 'differ') groups.get(line.attribute!)!.add(line);
            if (line.kind === 'stale' && options.preview !== undefined && stale.size < options.preview) stale.add(line.identityId);
            if (held !== null && total.identities === 0 && line.kind === 'missing' && held.length < HELD_MISSING) held.push(line);
            else {
              if (held !== null) yield* held;
              held = null;
              yield line;
            }
          }
          if (held !== null && total.identities > 0) {
            yield* held;
            held = null;
          }
        }
        complete = true;
      } finally {
        const summary = runner.summary();
        grouped = new Map<string, ExplainedGroup[]>([...groups].map(([a, g]) => [a, g.groups()]));
        if (complete && (options.explain === true || options.cases === true)) {
          const ids = exampleIds(grouped);
          records = providers === null ? fixtureExamples(options.fixtures!, profile, ids) : await tenantExamples(providers, ids);
        }
        if (complete && options.explain === true) explainGroups(options.fixtures!, profile, grouped, records, { ...(options.now !== undefined ? { now: options.now } : {}), ...(rules !== undefined ? { rules } : {}) });
        report = buildReport(
          { profile: String(profile.name), tenant, now: options.now === undefined ? null : new Date(options.now).toISOString(), evaluated: summary.identities, errorsByCode: summary.errorsByCode, complete },
          compare.attributes,
          compare.reasons,
          total,
          (attribute) => grouped.get(attribute) ?? [],
        );
      }
      if (total.identities === 0 && total.missing > 0) {
        throw codedError('VERIFY_NOTHING_STORED', `none of the ${total.missing} identities of ${tenant} has stored attributes: there is nothing to compare ours with (a snapshot copies them; gen-tenant --stored writes them)`, {
          details: { missing: total.missing },
        });
      }
      if (held !== null) yield* held;
      if (options.cases === true) {
        const now = options.now === undefined ? startedAt : new Date(options.now).toISOString();
        cases = await buildCases({ profile, transforms, sources, now, pseudonymize: options.pseudonymize === true, ...(rules !== undefined ? { rules } : {}) }, grouped, records);
      }
      if (options.preview !== undefined && providers !== null) {
        const n = options.preview;
        const ctx: PreviewContext = {
          providers,
          profile,
          compare,
          shard: resolveRunOptions({ ...(options.shard !== undefined ? { shard: options.shard } : {}) }).shard,
          ...(options.now !== undefined ? { now: new Date(options.now).toISOString() } : {}),
          ...(rules !== undefined ? { rules } : {}),
        };
        report!.preview = await runPreview(ctx, grouped, previewCandidates(grouped, [...stale], n), n);
      }
    },
  };
}

/** Verify a tenant and resolve to the report (the lines are counted in it, not kept). */
export async function verifyReport(options: VerifyOptions): Promise<VerifyReport> {
  const job = verify(options);
  for await (const line of job) void line;
  return job.report();
}
