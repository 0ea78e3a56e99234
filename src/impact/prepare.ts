// Before evaluating: impact's options checked, both versions and the tenant read, each profile's
// affected attributes planned (plan.ts) and grouped into refresh passes (combine.ts).

import { codedError } from '../errors/index.js';
import type { IdentityProfile } from '../providers/types.js';
import { createTenantProviders, type TenantProviderOptions, type TenantProviders } from '../providers/tenant/index.js';
import { resolveRunOptions, resolveThreadOptions } from '../refresh/run-options.js';
import { combine, type Combined } from './combine.js';
import { diffTransforms, planProfile, type AttributePlan, type TransformChange } from './plan.js';
import { readDirectoryVersion, readVersion, type NamedTransform, type TransformVersion, type VersionFile } from './version.js';
import type { ImpactOptions } from './types.js';

const OPTION_KEYS = new Set(['base', 'head', 'fixtures', 'tenant', 'profile', 'examples', 'explain', 'workers', 'workerHeapMb', 'batchSize', 'shard', 'now', 'limits', 'cwd', 'onProgress']);

function invalid(message: string, option: string): never {
  throw codedError('IMPACT_OPTION_INVALID', message, { details: { option } });
}

export interface Prepared {
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

export async function prepare(options: ImpactOptions): Promise<Prepared> {
  if (options === null || typeof options !== 'object') invalid('impact options must be an object', '');
  for (const key of Object.keys(options)) if (!OPTION_KEYS.has(key)) invalid(`unknown impact option "${key}"`, key);
  if (options.base === undefined) invalid('base must name the version before the change (a directory or git:<ref>)', 'base');
  if ((options.fixtures === undefined) === (options.tenant === undefined)) invalid('give the tenant\'s records as exactly one of fixtures or tenant', 'fixtures');
  if (options.explain && options.fixtures === undefined) invalid('explain needs fixtures: examples are explained against the tenant loaded in memory', 'explain');
  // The options the refresh passes read, checked now: a change that reaches no attribute runs no pass.
  const { batchSize, shard, now, workers, workerHeapMb } = options;
  resolveRunOptions({ ...(batchSize !== undefined ? { batchSize } : {}), ...(shard !== undefined ? { shard } : {}), ...(now !== undefined ? { now } : {}) });
  resolveThreadOptions({ ...(workers !== undefined ? { workers } : {}), ...(workerHeapMb !== undefined ? { workerHeapMb } : {}) });
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

/**
 * One pass of the refresh over the tenant: a combined profile. Attributes that depend on issued
 * values (usernameGenerator) get a pass per version, so that each version issues its names in a
 * run of its own, as the platform would; every other attribute is evaluated in both versions in
 * one shared pass.
 */
export interface Pass {
  combined: Combined;
  /** Evaluated on the calling thread: its usernameGenerator issues names in identity order. */
  issued: boolean;
}

export function passesOf(plans: readonly AttributePlan[], base: TransformVersion, head: TransformVersion, name: string): Pass[] {
  const passes: Pass[] = [];
  if (plans.some((p) => !p.dependsOnIssuedValues)) passes.push({ combined: combine(plans, base, head, name, (p) => !p.dependsOnIssuedValues), issued: false });
  if (plans.some((p) => p.dependsOnIssuedValues)) {
    for (const side of ['base', 'head'] as const) passes.push({ combined: combine(plans, base, head, name, (p) => p.dependsOnIssuedValues, side), issued: true });
  }
  return passes;
}
