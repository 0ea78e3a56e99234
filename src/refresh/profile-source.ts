// Which identity profile a refresh evaluates (issue 6 `--profile <file|name>`): a file, a
// profile of the tenant named by name, id or file name, or by default the first profile (by
// file name) in <fixtures>/identity-profiles.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { codedError } from '../errors/index.js';
import { pointerError } from '../errors/positions.js';
import { readJsonFile, type IdentityProfile } from '../providers/memory.js';

const readProfileFile = readJsonFile;

/** Check the parts of the identity-profile shape a refresh reads; the mappings' transforms are checked by compiling them. */
export function checkProfile(value: unknown, file = '<profile>'): IdentityProfile {
  const fail = (message: string, path: string): never => {
    // A profile read from a file is located in it; one given as an object is named by its pointer.
    if (existsSync(file)) throw pointerError(file, path, `the identity profile ${message}`);
    throw codedError('CLI_FIXTURES', `${file}: ${message}`, { path, details: { file } });
  };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail('an identity profile must be a JSON object', '');
  const profile = value as Record<string, unknown>;
  const config = profile.identityAttributeConfig as Record<string, unknown> | undefined;
  if (config === null || typeof config !== 'object' || Array.isArray(config)) fail('needs an "identityAttributeConfig" object', '/identityAttributeConfig');
  const mappings = config!.attributeTransforms;
  if (!Array.isArray(mappings)) fail('needs an "attributeTransforms" array', '/identityAttributeConfig/attributeTransforms');
  (mappings as unknown[]).forEach((m, i) => {
    const at = `/identityAttributeConfig/attributeTransforms/${i}`;
    if (m === null || typeof m !== 'object') fail(`mapping ${i} must be an object`, at);
    const mapping = m as Record<string, unknown>;
    if (typeof mapping.identityAttributeName !== 'string' || mapping.identityAttributeName === '') fail(`mapping ${i} needs an "identityAttributeName"`, `${at}/identityAttributeName`);
    if (mapping.transformDefinition === null || typeof mapping.transformDefinition !== 'object') fail(`mapping ${i} needs a "transformDefinition" object`, `${at}/transformDefinition`);
  });
  if (typeof profile.name !== 'string') profile.name = basename(file, '.json');
  return profile as IdentityProfile;
}

function tenantProfiles(fixtures: string): { file: string; profile: IdentityProfile }[] {
  const dir = join(fixtures, 'identity-profiles');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = join(dir, f);
      return { file, profile: checkProfile(readProfileFile(file), file) };
    });
}

/** Resolve `--profile`: a profile object, a file, a tenant profile's name, id or file name, or (absent) the tenant's first profile. */
export function resolveProfile(fixtures: string, profile?: string | IdentityProfile): IdentityProfile {
  if (profile !== undefined && typeof profile !== 'string') return checkProfile(profile);
  if (profile !== undefined && existsSync(profile) && statSync(profile).isFile()) return checkProfile(readProfileFile(profile), profile);
  if (!existsSync(fixtures)) throw codedError('CLI_FIXTURES', `the fixtures directory ${fixtures} does not exist`, { details: { file: fixtures } });
  if (!statSync(fixtures).isDirectory()) throw codedError('CLI_FIXTURES', `the fixtures path ${fixtures} is not a directory`, { details: { file: fixtures } });
  const available = tenantProfiles(fixtures);
  if (profile === undefined) {
    const first = available[0];
    if (!first) {
      throw codedError('CLI_FIXTURES', `${fixtures} has no identity profile in identity-profiles/; pass --profile <file>`, { details: { file: join(fixtures, 'identity-profiles') } });
    }
    return first.profile;
  }
  const found = available.find((p) => p.profile.name === profile || p.profile.id === profile || basename(p.file, '.json') === profile);
  if (!found) {
    const names = available.map((p) => JSON.stringify(p.profile.name)).join(', ') || 'none';
    throw codedError('REFRESH_OPTION_INVALID', `--profile "${profile}" is neither a file nor a profile of ${fixtures} (available: ${names})`, { details: { option: 'profile' } });
  }
  return found.profile;
}
