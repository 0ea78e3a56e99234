// Test helpers: a small in-memory tenant and an engine over it.

import { createEngine } from '../src/engine/engine.js';
import type { EngineOptions } from '../src/engine/options.js';
import { createMemoryProviders } from '../src/providers/memory.js';
import type { Account, Identity, Source, TransformDocument } from '../src/providers/types.js';
import { TransformsError } from '../src/errors/index.js';

export const SOURCES: Source[] = [
  { id: 'src-hr', name: 'HR Source' },
  { id: 'src-ad', name: 'Active Directory', externalId: 'ff8081815a8b3925015a8b6adac901ff' },
  { id: 'src-okta', name: 'Okta' },
];

export const IDENTITIES: Identity[] = [
  { id: 'id-1', name: 'john.doe', attributes: { firstname: 'John', lastname: 'Doe', email: 'john.doe@example.com' }, managerId: 'id-2' },
  { id: 'id-2', name: 'jane.boss', attributes: { firstname: 'Jane', lastname: 'Boss', email: 'jane.boss@example.com', country: 'US' } },
  { id: 'id-3', name: 'no.accounts', attributes: { firstname: 'No', lastname: 'Accounts' } },
];

export function account(partial: Partial<Account> & { id: string; identityId: string; sourceId: string }): Account {
  return {
    nativeIdentity: partial.id,
    name: partial.id,
    created: '2020-01-01T00:00:00Z',
    hasEntitlements: false,
    attributes: {},
    ...partial,
  };
}

export const ACCOUNTS: Account[] = [
  account({ id: 'hr-1', identityId: 'id-1', sourceId: 'src-hr', attributes: { empType: 'Employee', department: 'Engineering', FirstName: 'John' } }),
  account({ id: 'ad-old', identityId: 'id-1', sourceId: 'src-ad', created: '2019-05-01T00:00:00Z', name: 'SVC-john', nativeIdentity: 'CN=SVC-john', attributes: { sAMAccountName: 'svc-john', status: 'active', memberOf: ['All Users', 'Admins'] } }),
  account({ id: 'ad-new', identityId: 'id-1', sourceId: 'src-ad', created: '2021-05-01T00:00:00Z', name: 'John Doe', nativeIdentity: 'CN=John Doe', hasEntitlements: true, attributes: { sAMAccountName: 'jdoe', status: 'terminated', memberOf: ['All Users'] } }),
  account({ id: 'ad-null', identityId: 'id-1', sourceId: 'src-ad', created: '2018-01-01T00:00:00Z', name: 'Null Doe', nativeIdentity: 'CN=Null', attributes: { sAMAccountName: null, status: 'active' } }),
  account({ id: 'hr-2', identityId: 'id-2', sourceId: 'src-hr', attributes: { empType: 'Contractor', department: 'Sales' } }),
];

export function tenantEngine(options: EngineOptions = {}, transforms: TransformDocument[] = []) {
  const providers = createMemoryProviders({ sources: SOURCES, identities: IDENTITIES, accounts: ACCOUNTS, transforms });
  return createEngine({ providers, ...options });
}

/** The coded error a call throws (fails the test when it does not throw one). */
export function codedErrorOf(fn: () => unknown): TransformsError {
  try {
    fn();
  } catch (error) {
    if (error instanceof TransformsError) return error;
    throw error;
  }
  throw new Error('expected a coded error, but nothing was thrown');
}

export async function rejectionOf(promise: Promise<unknown>): Promise<TransformsError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TransformsError) return error;
    throw error;
  }
  throw new Error('expected a coded error, but the promise resolved');
}
