// Test tenants for the refresh tests: generated ones (gen:tenant's generator) and small
// hand-written ones in the fixture format.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTenant } from '../../src/testing/generator/index.js';
import type { Account, Identity, Source, TransformDocument } from '../../src/providers/types.js';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
export const NOW = '2025-06-01T00:00:00.000Z';

const made: string[] = [];

export function tempDir(prefix = 'idt-refresh-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Remove every directory made by this module (call from afterAll). */
export function cleanUp(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A generated tenant with the bundled transforms and profile. */
export function generatedTenant(identities: number, seed = 'test'): string {
  const dir = tempDir();
  writeTenant(dir, { identities, seed, copyFrom: FIXTURES });
  return dir;
}

export interface HandTenant {
  sources?: Source[];
  identities: Partial<Identity>[];
  accounts?: Partial<Account>[];
  transforms?: TransformDocument[];
  profiles?: Record<string, unknown>[];
}

/** Write a tenant in the fixture format (arrays one element per line, as gen:tenant writes them). */
export function handTenant(tenant: HandTenant): string {
  const dir = tempDir();
  const array = (items: unknown[]) => (items.length === 0 ? '[]\n' : `[\n${items.map((i) => JSON.stringify(i)).join(',\n')}\n]\n`);
  writeFileSync(join(dir, 'sources.json'), array(tenant.sources ?? [{ id: 'src-hr', name: 'HR' }]));
  writeFileSync(join(dir, 'identities.json'), array(tenant.identities));
  writeFileSync(join(dir, 'accounts.json'), array(tenant.accounts ?? []));
  mkdirSync(join(dir, 'transforms'));
  for (const t of tenant.transforms ?? []) writeFileSync(join(dir, 'transforms', `${t.name}.json`), JSON.stringify(t));
  mkdirSync(join(dir, 'identity-profiles'));
  (tenant.profiles ?? []).forEach((p, i) => writeFileSync(join(dir, 'identity-profiles', `${String(i).padStart(2, '0')}.json`), JSON.stringify(p)));
  return dir;
}

export function hrAccount(identityId: string, attributes: Record<string, unknown>, extra: Partial<Account> = {}): Partial<Account> {
  return {
    id: `hr-${identityId}-${Object.keys(attributes).join('-')}`,
    identityId,
    sourceId: 'src-hr',
    nativeIdentity: identityId,
    name: identityId,
    created: '2020-01-01T00:00:00Z',
    hasEntitlements: false,
    attributes,
    ...extra,
  };
}

export function profile(name: string, mappings: Record<string, unknown>): Record<string, unknown> {
  return {
    name,
    identityAttributeConfig: {
      enabled: true,
      attributeTransforms: Object.entries(mappings).map(([identityAttributeName, transformDefinition]) => ({ identityAttributeName, transformDefinition })),
    },
  };
}

/** The identity ids of identities.json, in order. */
export function identityIds(dir: string): string[] {
  return (JSON.parse(readFileSync(join(dir, 'identities.json'), 'utf8')) as Identity[]).map((i) => i.id);
}
