// Providers over streamed records: during an evaluation the current identity, its accounts and
// its manager answer from the record; other identities answer from the fallback, or not at all.

import { describe, expect, it } from 'vitest';
import { createMemoryProviders } from '../../src/providers/memory.js';
import { createStreamedRecordProviders } from '../../src/providers/streamed.js';
import type { Account, Identity } from '../../src/providers/types.js';

const account = (id: string, identityId: string, sourceId: string): Account => ({
  id, identityId, sourceId, nativeIdentity: id, name: id, created: '2024-01-01T00:00:00Z', hasEntitlements: false, attributes: {},
});
const me: Identity = { id: 'i1', name: 'me', attributes: {}, managerId: 'm1' };
const boss: Identity = { id: 'm1', name: 'boss', attributes: {} };
const other: Identity = { id: 'i2', name: 'other', attributes: {} };
const mine = [account('a1', 'i1', 'hr'), account('a2', 'i1', 'ad')];

describe('createStreamedRecordProviders', () => {
  it('answers for the current record only, and nothing once it is left (a refresh)', async () => {
    const record = createStreamedRecordProviders({});
    record.enter(me, mine, boss);
    const { accounts, identities } = record.providers;
    expect(await accounts!.listAccounts({ identityId: 'i1' })).toEqual(mine);
    expect(await accounts!.listAccounts({ identityId: 'i1', sourceId: 'ad' })).toEqual([mine[1]]);
    expect(await accounts!.listAccounts({ identityId: 'i2' })).toEqual([]);
    expect(await identities!.getIdentity('m1')).toBe(boss);
    expect(await identities!.findIdentityByName!('me')).toBe(me);
    expect(await identities!.getIdentity('i2')).toBeNull();
    record.leave();
    expect(await identities!.getIdentity('i1')).toBeNull();
    expect(await accounts!.listAccounts({ identityId: 'i1' })).toEqual([]);
  });

  it('lists a source\'s accounts in the record\'s order, and the next record\'s once it is entered', () => {
    const record = createStreamedRecordProviders({});
    const ad = [account('b1', 'i1', 'ad'), account('b2', 'i1', 'hr'), account('b3', 'i1', 'ad')];
    record.enter(me, ad, null);
    const { accounts } = record.providers;
    expect(accounts!.listAccounts({ identityId: 'i1', sourceId: 'ad' })).toEqual([ad[0], ad[2]]);
    expect(accounts!.listAccounts({ identityId: 'i1', sourceId: 'hr' })).toEqual([ad[1]]);
    expect(accounts!.listAccounts({ identityId: 'i1', sourceId: 'okta' })).toEqual([]);
    record.leave();
    record.enter(me, mine, null);
    expect(accounts!.listAccounts({ identityId: 'i1', sourceId: 'ad' })).toEqual([mine[1]]);
  });

  it('asks the fallback about everyone else (a sample laid over a tenant)', async () => {
    const tenant = createMemoryProviders({ sources: [], identities: [other], accounts: [account('a3', 'i2', 'hr')] });
    const record = createStreamedRecordProviders(tenant, tenant);
    record.enter(me, mine, null);
    expect(await record.providers.identities!.getIdentity('i2')).toBe(other);
    expect(await record.providers.identities!.findIdentityByName!('other')).toBe(other);
    expect((await record.providers.accounts!.listAccounts({ identityId: 'i2' })).map((a) => a.id)).toEqual(['a3']);
    expect(record.providers.sources).toBe(tenant.sources);
  });
});
