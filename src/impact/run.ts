// Impact analysis: what a change to transforms or identity profiles would do to a tenant's
// identities, before it is saved. The two versions are compared without evaluation first
// (plan.ts), then only the attributes a change can reach are evaluated, both versions side by
// side in one refresh pass over the tenant (combine.ts), and every identity's two outcomes are
// compared.

import { canonicalJson } from '../engine/canonical.js';
import type { Value } from '../engine/types.js';
import { isTransformsError } from '../errors/index.js';
import { createEngine } from '../engine/engine.js';
import { createMemoryProviders } from '../providers/memory.js';
import { loadFixtures } from '../providers/fixtures.js';
import { refresh, type IdentityRefreshResult } from '../refresh/index.js';
import type { Progress } from '../refresh/progress.js';
import { baseKey, headKey, type Combined } from './combine.js';
import { type AttributePlan } from './plan.js';
import { type TransformVersion } from './version.js';
import type { ImpactOptions, Outcome, DifferenceKind, IdentityDifference, Example, AttributeImpact, ProfileImpact, ImpactReport } from './types.js';
import { prepare, type Prepared } from './prepare.js';
import { keepExample, nameExamples } from './examples.js';

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
 * The threads of a pass of attributes that reach a usernameGenerator: names are issued in
 * identities.json's order by one provider, so one thread — this one, or, when the caller asked for
 * worker threads (a server keeping its own thread free), a single worker thread.
 */
const issuedWorkers = (workers: number | 'auto'): number | 'auto' => (workers === 'auto' || workers === 0 ? workers : 1);

async function* evaluateProfile(prepared: Prepared, profile: Prepared['profiles'][number], options: ImpactOptions): AsyncGenerator<{ plan: number; identityId: string; before: Outcome | null; after: Outcome | null }> {
  const { passes, plans, name } = profile;
  const jobs = passes.map((pass, n) =>
    refresh({
      ...('fixtures' in prepared.source ? { fixtures: prepared.source.fixtures } : { tenant: prepared.source.tenant }),
      profile: pass.combined.profile,
      transforms: pass.combined.transforms,
      ...(options.workers !== undefined ? { workers: pass.issued ? issuedWorkers(options.workers) : options.workers } : {}),
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


