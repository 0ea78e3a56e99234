// A snapshot keeps what verify compares with: over `serve` of a tenant as the platform leaves it
// (gen-tenant --stored --plant), each identity's stored attributes, `modified` and
// `identityProfile`, and an account's `modified` where it differs from `created`, are copied
// as they are; and verify of the snapshot reports what verify of the tenant's files does.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account, Identity } from '../../src/providers/types.js';
import { snapshotTenant } from '../../src/snapshot/index.js';
import { verifyReport } from '../../src/verify/index.js';
import { ADMIN_PAT, resourceServer, type ResourceServer } from '../api/resources-server.js';
import { VERIFIED_AT, writePlantedTenant } from '../verify/planted-tenant.js';

const tmp = mkdtempSync(join(tmpdir(), 'idt-snapshot-stored-'));
const tenant = join(tmp, 'tenant');
const copy = join(tmp, 'copy');
let server: ResourceServer;

beforeAll(async () => {
  await writePlantedTenant(tenant, 80, 'snapshot');
  server = await resourceServer({ fixtures: tenant });
  const baseUrl = await server.listen();
  await snapshotTenant({ tenant: { baseUrl, clientId: ADMIN_PAT.id, clientSecret: ADMIN_PAT.secret }, out: copy, now: () => Date.parse('2026-02-01T00:00:00Z') });
}, 300_000);
afterAll(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const read = <T extends { id: string }>(dir: string, file: string) => new Map((JSON.parse(readFileSync(join(dir, file), 'utf8')) as T[]).map((r) => [r.id, r]));

describe('a snapshot of a tenant with stored attributes', () => {
  it('copies each identity\'s attributes, modified and identityProfile, and the accounts\' modified', () => {
    const original = read<Identity>(tenant, 'identities.json');
    const copied = read<Identity>(copy, 'identities.json');
    expect(copied.size).toBe(original.size);
    for (const [id, identity] of original) {
      const { attributes, modified, identityProfile } = copied.get(id)!;
      expect({ attributes, modified, identityProfile }).toEqual({ attributes: identity.attributes, modified: identity.modified, identityProfile: identity.identityProfile });
    }
    const modified = [...read<Account>(copy, 'accounts.json').values()].filter((a) => a.modified !== undefined);
    expect(modified.map((a) => [a.id, a.modified])).toEqual([...read<Account>(tenant, 'accounts.json').values()].filter((a) => a.modified !== undefined).map((a) => [a.id, a.modified]));
    expect(modified).toHaveLength(1);
  });

  it('verifies as the tenant\'s own files do', async () => {
    const strip = (r: Awaited<ReturnType<typeof verifyReport>>) => ({ ...r, tenant: '', attributes: r.attributes.map((a) => ({ ...a, groups: a.groups.length })) });
    const fromCopy = await verifyReport({ fixtures: copy, workers: 0, now: VERIFIED_AT });
    const fromTenant = await verifyReport({ fixtures: tenant, workers: 0, now: VERIFIED_AT });
    expect(strip(fromCopy)).toEqual(strip(fromTenant));
    expect(fromCopy.identities.stale).toBe(1);
  }, 60_000);
});
