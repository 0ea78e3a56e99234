// `verify --cases <file>` (docs/verify.md "Cases"): each group of differences reduced to a
// self-contained case — the mapping, the saved transforms it references, only the inputs its
// evaluation read (ids and names replaced), the platform's value and ours — in the format the
// conformance tests run as regression cases (test/conformance/verify-cases.test.ts). A case
// is checked when it is made: run on its own, it must compute ours again; one that does not is
// marked not reproducible, with the reason.

import { createEngine } from '../engine/engine.js';
import { storedAttributeValue } from '../engine/profile.js';
import { reachableFrom } from '../engine/references.js';
import type { RuleFunction } from '../engine/types.js';
import { CLOUD_SERVICES_DEPLOYMENT_UTILITY } from '../operations/rule.js';
import { createMemoryProviders } from '../providers/memory.js';
import type { Account, Identity, IdentityProfile, ProfileMapping, Providers, TransformDocument } from '../providers/types.js';
import { InputRecorder, type CaseInputs } from './case-inputs.js';
import type { ExplainedGroup } from './report.js';

export const CASE_FORMAT = 'identity-transforms/verify-cases';
export const CASE_VERSION = 1;

export interface VerifyCase {
  /** `<attribute>-<n>`: the n-th group of the attribute. */
  id: string;
  attribute: string;
  /** The group's edit signature, and how many values it held. */
  signature: string;
  count: number;
  /** The profile's mapping of the attribute, as stored. */
  mapping: ProfileMapping<unknown>;
  /** The saved transforms the mapping reaches through references, transitively. */
  transforms: TransformDocument[];
  inputs: CaseInputs;
  /** What the platform stored; null when withheld (pseudonymized and computed from the replaced inputs). */
  platform: string | null;
  /** What this engine computes from the case's inputs. */
  ours: string | null;
  /** `open`: the case computes ours (a difference still to fix); `fixed`: it must compute the platform's value. */
  status: 'open' | 'fixed';
  /** False when the case alone cannot show the difference; `note` says why. */
  reproducible: boolean;
  note?: string;
}

export interface CaseFile {
  format: typeof CASE_FORMAT;
  version: typeof CASE_VERSION;
  profile: string;
  /** The evaluation time every case runs at. */
  now: string;
  /** Whether input values were replaced. */
  pseudonymized: boolean;
  cases: VerifyCase[];
}

/** One example of a group: the identity as read from the tenant, its accounts and manager. */
export interface ExampleRecord {
  identity: Identity;
  accounts: Account[];
  manager: Identity | null;
}

export interface CaseContext {
  profile: IdentityProfile;
  /** The saved transforms (at least those the profile reaches). */
  transforms: readonly TransformDocument[];
  /** The tenant's sources, as the run resolved them. */
  sources: NonNullable<Providers['sources']>;
  now: string;
  rules?: Record<string, RuleFunction>;
  pseudonymize: boolean;
}

/** The value of the case's attribute, evaluated from the case alone (no rules: a case carries none). */
export async function runCase(c: Pick<VerifyCase, 'attribute' | 'mapping' | 'transforms' | 'inputs'>, now: string): Promise<string | null> {
  const { identity, manager, accounts, sources } = c.inputs;
  const providers = createMemoryProviders({ sources, identities: [identity, ...(manager ? [manager] : [])], accounts, transforms: c.transforms });
  return evaluateAttribute(createEngine({ providers, clock: () => new Date(now) }), c.mapping, identity);
}

async function evaluateAttribute(engine: ReturnType<typeof createEngine>, mapping: ProfileMapping<unknown>, identity: Identity, previous?: Record<string, unknown>): Promise<string | null> {
  const result = await engine.evaluateProfile({ identityAttributeConfig: { attributeTransforms: [mapping as ProfileMapping] } }, identity, previous === undefined ? {} : { previous });
  return result.errors.length > 0 ? null : storedAttributeValue(result.attributes[mapping.identityAttributeName]);
}

/** The rules the mapping reaches that a case cannot carry (all but the built-in Cloud Services Deployment Utility). */
function rulesReached(mapping: ProfileMapping<unknown>, transform: (name: string) => TransformDocument | undefined): string[] {
  const names = new Set<string>();
  reachableFrom(mapping.transformDefinition, transform, {
    visit: (node) => {
      const name = (node.attributes as { name?: unknown } | null | undefined)?.name;
      if (node.type === 'rule' && name !== CLOUD_SERVICES_DEPLOYMENT_UTILITY) names.add(String(name));
    },
  });
  return [...names];
}

/** One case from a group and its first example. */
async function caseOf(ctx: CaseContext, attribute: string, index: number, group: ExplainedGroup, record: ExampleRecord): Promise<VerifyCase> {
  const mapping = ctx.profile.identityAttributeConfig.attributeTransforms.find((m) => m.identityAttributeName === attribute)! as ProfileMapping<unknown>;
  const byName = new Map(ctx.transforms.map((t) => [t.name, t]));
  const lookup = (name: string) => byName.get(name);
  const transforms = [...reachableFrom(mapping.transformDefinition, lookup).names].map(lookup).filter((t): t is TransformDocument => t !== undefined);
  const example = group.examples[0]!;
  // Evaluate as the run did, the reads noted; the case keeps what was read.
  const recorder = new InputRecorder(record.identity, record.manager, record.accounts);
  const memory = createMemoryProviders({ sources: [], identities: [], accounts: [], transforms: [...ctx.transforms] });
  const engine = createEngine({ providers: recorder.providers(ctx.sources, memory.transforms), clock: () => new Date(ctx.now), ...(ctx.rules ? { rules: ctx.rules } : {}) });
  const ours = await evaluateAttribute(engine, mapping, recorder.view, recorder.previous);
  const inputs = recorder.inputs(ctx.pseudonymize, JSON.stringify([mapping, transforms]).includes('oldValue'));
  const c: VerifyCase = { id: `${attribute}-${index + 1}`, attribute, signature: group.signature, count: group.count, mapping, transforms, inputs, platform: example.platform, ours, status: 'open', reproducible: true };
  const rules = rulesReached(mapping, lookup);
  if (rules.length > 0) return { ...c, reproducible: false, note: `the mapping reaches the rule(s) ${rules.join(', ')}, which a case cannot carry` };
  const alone = await runCase(c, ctx.now);
  if (alone === ours) return c;
  if (ctx.pseudonymize) {
    // The value is computed from the replaced inputs: the platform's would give them away.
    return { ...c, platform: null, ours: alone, reproducible: false, note: 'the value is computed from the inputs, which are replaced: the platform\'s value is withheld, and ours is the value computed from the stand-ins' };
  }
  return { ...c, reproducible: false, note: `run alone, the case computes ${JSON.stringify(alone)}, not ours: the value depends on what the case replaces (the identity's or an account's id or name)` };
}

/**
 * The cases of a run: one per group (its first example), in the report's order. `examples`
 * maps the first examples' identity ids to their records (an identity not found is left out).
 */
export async function buildCases(ctx: CaseContext, groups: ReadonlyMap<string, readonly ExplainedGroup[]>, examples: ReadonlyMap<string, ExampleRecord>): Promise<CaseFile> {
  const cases: VerifyCase[] = [];
  for (const [attribute, list] of groups) {
    for (const [i, group] of list.entries()) {
      const record = group.examples[0] === undefined ? undefined : examples.get(group.examples[0].identityId);
      if (record !== undefined) cases.push(await caseOf(ctx, attribute, i, group, record));
    }
  }
  return { format: CASE_FORMAT, version: CASE_VERSION, profile: String(ctx.profile.name), now: ctx.now, pseudonymized: ctx.pseudonymize, cases };
}

/** The identity ids of the groups' first examples. */
export function exampleIds(groups: ReadonlyMap<string, readonly ExplainedGroup[]>): Set<string> {
  const out = new Set<string>();
  for (const list of groups.values()) for (const g of list) if (g.examples[0] !== undefined) out.add(g.examples[0].identityId);
  return out;
}
