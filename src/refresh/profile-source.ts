// Which identity profile a refresh evaluates (`--profile <file|name>`): a file, a
// profile of the tenant named by name, id or file name, or by default the first profile (by
// file name) in <fixtures>/identity-profiles.

import { existsSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { codedError } from '../errors/index.js';
import { pointerError } from '../json/positions.js';
import { checkIdentityProfile, FIXTURE_DOCUMENTS, readFixtureDocuments, readJsonFile } from '../providers/fixtures.js';
import type { IdentityProfile } from '../providers/types.js';

/** Check the parts of the identity-profile shape a refresh reads; the mappings' transforms are checked by compiling them. */
export function checkProfile(value: unknown, file = '<profile>'): IdentityProfile {
  const fail = (message: string, path: string): never => {
    // A profile read from a file is located in it; one given as an object is named by its pointer.
    if (existsSync(file)) throw pointerError(file, path, `the identity profile ${message}`);
    throw codedError('CLI_FIXTURES', `${file}: ${message}`, { path, details: { file } });
  };
  const problem = checkIdentityProfile(value);
  if (problem !== null) fail(problem.message, problem.pointer);
  const profile = value as Record<string, unknown>;
  if (typeof profile.name !== 'string') profile.name = basename(file, '.json');
  return profile as IdentityProfile;
}

function tenantProfiles(fixtures: string): { file: string; profile: IdentityProfile }[] {
  return readFixtureDocuments(join(fixtures, FIXTURE_DOCUMENTS.profiles)).map(({ file, doc }) => ({ file, profile: checkProfile(doc, file) }));
}

/** Resolve `--profile`: a profile object, a file, a tenant profile's name, id or file name, or (absent) the tenant's first profile. */
export function resolveProfile(fixtures: string, profile?: string | IdentityProfile): IdentityProfile {
  if (profile !== undefined && typeof profile !== 'string') return checkProfile(profile);
  if (profile !== undefined && existsSync(profile) && statSync(profile).isFile()) return checkProfile(readJsonFile(profile), profile);
  if (!existsSync(fixtures)) throw codedError('CLI_FIXTURES', `the fixtures directory ${fixtures} does not exist`, { details: { file: fixtures } });
  if (!statSync(fixtures).isDirectory()) throw codedError('CLI_FIXTURES', `the fixtures path ${fixtures} is not a directory`, { details: { file: fixtures } });
  const available = tenantProfiles(fixtures);
  if (profile === undefined) {
    const first = available[0];
    if (!first) {
      throw codedError('CLI_FIXTURES', `${fixtures} has no identity profile in identity-profiles/; pass --profile <file>`, { details: { file: join(fixtures, FIXTURE_DOCUMENTS.profiles) } });
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
