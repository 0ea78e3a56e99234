// A generated tenant as the platform leaves it, for the verify tests: gen-tenant's generator with
// the bundled transforms, users and tokens (so that `serve` signs ADMIN_PAT in), a profile that
// also maps an attribute reading the clock, a random one and an unregistered rule, its output
// stored with gen-tenant's --stored, and differences planted in the comparable attributes.

import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { storeComputedAttributes, writeTenant, type PlantedDifference } from '../../src/testing/generator/index.js';
import { comparableAttributes } from '../../src/verify/index.js';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
/** When the platform computed the stored attributes. */
export const STORED_AT = '2026-01-15T12:00:00.000Z';
/** When verify recomputes them: another day, so that the clock's attribute differs. */
export const VERIFIED_AT = '2026-03-01T00:00:00.000Z';
/** The mappings added to the bundled profile, by kind. */
export const EXTRA = { time: 'fiveDaysAgo', random: 'badgeId', rule: 'customNumber' } as const;

export async function writePlantedTenant(dir: string, identities: number, seed = 'verify'): Promise<PlantedDifference[]> {
  writeTenant(dir, { identities, seed, copyFrom: FIXTURES });
  for (const f of ['users.json', 'personal-access-tokens.json']) copyFileSync(join(FIXTURES, f), join(dir, f));
  const file = join(dir, 'identity-profiles', 'default.json');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { identityAttributeConfig: { attributeTransforms: unknown[] } };
  profile.identityAttributeConfig.attributeTransforms.push(
    { identityAttributeName: EXTRA.time, transformDefinition: { type: 'reference', attributes: { id: 'Five Days Ago' } } },
    { identityAttributeName: EXTRA.random, transformDefinition: { type: 'reference', attributes: { id: 'UUID Generator' } } },
    { identityAttributeName: EXTRA.rule, transformDefinition: { type: 'reference', attributes: { id: 'Custom Rule (errors unless registered)' } } },
  );
  writeFileSync(file, JSON.stringify(profile, null, 2));
  const summary = await storeComputedAttributes(dir, { now: STORED_AT, plantIn: comparableAttributes(dir), workers: 0 });
  return summary.planted;
}
