// Impact analysis: what a change to transforms or identity profiles would do to a tenant's
// identities, before it is saved. The two versions are compared without evaluation first
// (plan.ts), then only the attributes a change can reach are evaluated, both versions side by
// side in one refresh pass over the tenant (combine.ts), and every identity's two outcomes are
// compared.

import { canonicalJson } from '../engine/canonical.js';
import type { Value } from '../engine/types.js';
import { codedError, isTransformsError } from '../errors/index.js';
import { createEngine } from '../engine/engine.js';
import { createMemoryProviders } from '../providers/memory.js';
import { loadFixtures } from '../providers/fixtures.js';
import { createRefreshRunner, type IdentityRefreshResult } from '../refresh/index.js';
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
  // The same value (most identities: a string the change does not touch) needs no canonical form.
  if (b === a || canonicalJson(b) === canonicalJson(a)) return null;
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

/** One plan's two outcomes for one identity. */
interface Row {
  plan: number;
  identityId: string;
  before: Outcome | null;
  after: Outcome | null;
}

/**
 * A batch of identities compared: how many, per plan how many gave the same value in both
 * versions (told apart without building their outcomes: most identities of a change), and the
 * outcomes of the others, which may differ.
 */
interface ComparedRows {
  identities: number;
  same: number[];
  rows: Row[];
}

/** Whether a result has the key's value and no error for it. */
function plainValue(result: IdentityRefreshResult, key: string): boolean {
  if (result.errors.length > 0 && result.errors.some((e) => e.attribute === key)) return false;
  return Object.prototype.hasOwnProperty.call(result.attributes, key);
}

/**
 * A pass's results, identity by identity, read from its batches: the passes advance in lockstep
 * with one wait per batch, not one per identity (a promise and a turn of the microtask queue per
 * identity and pass were a measurable share of an impact run).
 */
class PassCursor {
  private batch: readonly IdentityRefreshResult[] = [];
  private at = 0;

  constructor(private readonly batches: AsyncGenerator<readonly IdentityRefreshResult[], void, undefined>) {}

  /** Results left in the batch at hand. */
  get left(): number {
    return this.batch.length - this.at;
  }

  /** The next non-empty batch; false once the pass has ended. */
  async fill(): Promise<boolean> {
    for (;;) {
      const step = await this.batches.next();
      if (step.done) return false;
      if (step.value.length > 0) {
        this.batch = step.value;
        this.at = 0;
        return true;
      }
    }
  }

  take(): IdentityRefreshResult {
    return this.batch[this.at++]!;
  }

  /** The result take() gives next. */
  peek(): IdentityRefreshResult {
    return this.batch[this.at]!;
  }

  async close(): Promise<void> {
    await this.batches.return(undefined);
  }
}

/**
 * The passes of a profile read the tenant each on its own (identities.json, or the tenant's
 * search), and must read the same identities in the same order: they differ only when the
 * tenant changed while the run read it (an identity created, deleted or renamed between two
 * passes' pages; identities.json rewritten).
 */
const tenantChanged = (what: string, read: number) =>
  codedError('IMPACT_TENANT_CHANGED', `the tenant's identities changed during the impact run: ${what}; run it again once the tenant is still`, { details: { identitiesRead: read } });

/** Every plan's two outcomes for every identity, a batch of identities at a time. */
async function* evaluateProfile(prepared: Prepared, profile: Prepared['profiles'][number], options: ImpactOptions): AsyncGenerator<ComparedRows> {
  const { passes, plans, name } = profile;
  const cursors = passes.map(
    (pass, n) =>
      new PassCursor(
        createRefreshRunner({
          ...('fixtures' in prepared.source ? { fixtures: prepared.source.fixtures } : { tenant: prepared.source.tenant }),
          profile: pass.combined.profile,
          transforms: pass.combined.transforms,
          ...(options.workers !== undefined ? { workers: pass.issued ? issuedWorkers(options.workers) : options.workers } : {}),
          ...(options.workerHeapMb !== undefined ? { workerHeapMb: options.workerHeapMb } : {}),
          ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
          ...(options.shard !== undefined ? { shard: options.shard } : {}),
          ...(options.now !== undefined ? { now: options.now } : {}),
          ...(options.limits !== undefined ? { limits: options.limits } : {}),
          ...(options.onProgress && n === 0 ? { onProgress: (p: Progress) => options.onProgress!({ ...p, profile: name }) } : {}),
        }).results(),
      ),
  );
  const baseKeys = plans.map((_p, i) => baseKey(i));
  const headKeys = plans.map((_p, i) => headKey(i));
  // Which pass holds each version of each plan.
  const baseIn = plans.map((_p, i) => passes.findIndex((pass) => pass.combined.profile.identityAttributeConfig.attributeTransforms.some((m) => m.identityAttributeName === baseKeys[i])));
  const headIn = plans.map((_p, i) => passes.findIndex((pass) => pass.combined.profile.identityAttributeConfig.attributeTransforms.some((m) => m.identityAttributeName === headKeys[i])));
  /** Identities every pass has read. */
  let read = 0;
  try {
    for (;;) {
      // Every pass reads the same identities in the same order: they advance in lockstep.
      const more = await Promise.all(cursors.map((cursor) => (cursor.left > 0 ? true : cursor.fill())));
      if (more.every((m) => !m)) return;
      if (more.some((m) => !m)) throw tenantChanged(`one pass read ${read} identities and ended, another read more (${cursors[more.indexOf(true)]!.peek().identityId} next)`, read);
      let count = Infinity;
      for (const cursor of cursors) count = Math.min(count, cursor.left);
      const batch: ComparedRows = { identities: count, same: plans.map(() => 0), rows: [] };
      const results = new Array<IdentityRefreshResult>(cursors.length);
      for (let k = 0; k < count; k++) {
        for (let c = 0; c < cursors.length; c++) results[c] = cursors[c]!.take();
        const identityId = results[0]!.identityId;
        for (let c = 1; c < results.length; c++) {
          if (results[c]!.identityId !== identityId) throw tenantChanged(`after ${read} identities, one pass read the identity ${identityId} and another ${results[c]!.identityId}`, read);
        }
        read++;
        for (let i = 0; i < plans.length; i++) {
          const b = baseIn[i]!;
          const h = headIn[i]!;
          if (b >= 0 && h >= 0) {
            const before = results[b]!;
            const after = results[h]!;
            if (plainValue(before, baseKeys[i]!) && plainValue(after, headKeys[i]!) && before.attributes[baseKeys[i]!] === after.attributes[headKeys[i]!]) {
              batch.same[i]!++;
              continue;
            }
          }
          batch.rows.push({
            plan: i,
            identityId,
            before: b >= 0 ? outcomeOf(results[b]!, baseKeys[i]!, passes[b]!.combined) : null,
            after: h >= 0 ? outcomeOf(results[h]!, headKeys[i]!, passes[h]!.combined) : null,
          });
        }
      }
      yield batch;
    }
  } finally {
    await Promise.all(cursors.map((cursor) => cursor.close()));
  }
}

/** Every identity whose affected attributes would compute differently, as they are found. */
export async function* impactDifferences(options: ImpactOptions): AsyncGenerator<IdentityDifference, void, undefined> {
  const prepared = await prepare(options);
  for (const profile of prepared.profiles) {
    for await (const { rows } of evaluateProfile(prepared, profile, options)) {
      for (const { plan, identityId, before, after } of rows) {
        const kind = compareOutcomes(before, after);
        if (kind !== null) yield { profile: profile.name, attribute: profile.plans[plan]!.attribute, identityId, kind, before, after };
      }
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
    for await (const batch of evaluateProfile(prepared, profile, options)) {
      for (let i = 0; i < impacts.length; i++) {
        impacts[i]!.identities += batch.identities;
        impacts[i]!.unchanged += batch.same[i]!;
      }
      for (const { plan, identityId, before, after } of batch.rows) {
        const row = impacts[plan]!;
        const kind = compareOutcomes(before, after);
        if (kind === null) {
          row.unchanged++;
          continue;
        }
        for (const counter of COUNTERS[kind]) (row[counter] as number)++;
        keepExample((row.examples[kind] ??= []), { identityId, before, after }, prepared.examples);
      }
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


