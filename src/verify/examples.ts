// The example identities of a verify run read again, as the run read them (its identity, its
// accounts and its manager), for what is done with examples after the run: --explain's traces
// and --cases. Only the examples are kept: a snapshot is read in one pass that stops once every
// example is found; a tenant is asked for them alone.

import type { IdentityProfile } from '../providers/types.js';
import type { TenantProviders } from '../providers/tenant/index.js';
import { createBatchEvaluator } from '../refresh/evaluator.js';
import { TenantStream } from '../refresh/fixture-stream/stream.js';
import type { ExampleRecord } from './cases.js';

/** The records of these identities in a fixtures directory (or snapshot). */
export function fixtureExamples(fixtures: string, profile: IdentityProfile, ids: ReadonlySet<string>): Map<string, ExampleRecord> {
  const out = new Map<string, ExampleRecord>();
  if (ids.size === 0) return out;
  const { parse } = createBatchEvaluator({ fixtures, profile });
  for (const record of new TenantStream(fixtures).records()) {
    if (!ids.has(record.identityId)) continue;
    out.set(record.identityId, parse(record));
    if (out.size === ids.size) break;
  }
  return out;
}

/** The records of these identities over a tenant's API. */
export async function tenantExamples(providers: TenantProviders, ids: ReadonlySet<string>): Promise<Map<string, ExampleRecord>> {
  const out = new Map<string, ExampleRecord>();
  if (ids.size === 0) return out;
  const identities = await providers.fetchIdentities([...ids]);
  const accounts = await providers.fetchAccountsOf(identities.map((i) => i.id));
  const managerIds = identities.map((i) => i.managerId).filter((m): m is string => typeof m === 'string' && m !== '');
  const managers = new Map((managerIds.length === 0 ? [] : await providers.fetchIdentities(managerIds)).map((m) => [m.id, m]));
  for (const identity of identities) {
    out.set(identity.id, { identity, accounts: accounts.get(identity.id) ?? [], manager: (identity.managerId && managers.get(identity.managerId)) || null });
  }
  return out;
}
