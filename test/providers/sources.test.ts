// Which source a SourceRef names, the same for every provider: the first of sourceId,
// applicationId, applicationName, sourceName that is given decides, and the others are not
// consulted; applicationName defaults to "<name> [source]" and applicationId to the id.

import { describe, expect, it } from 'vitest';
import { createMemoryProviders } from '../../src/providers/memory.js';
import { resolveSourceRef, SourceIndex } from '../../src/providers/sources.js';
import type { Source, SourceRef } from '../../src/providers/types.js';

const HR: Source = { id: 'src-hr', name: 'HR' };
const AD: Source = { id: 'src-ad', name: 'Active Directory', applicationName: 'AD [source]', externalId: 'guid-ad' };
const SOURCES = [HR, AD];

const cases: [string, SourceRef, Source | null][] = [
  ['by id', { sourceId: 'src-ad' }, AD],
  ['by external id', { applicationId: 'guid-ad' }, AD],
  ['by the id when there is no external id', { applicationId: 'src-hr' }, HR],
  ['by application name', { applicationName: 'AD [source]' }, AD],
  ['by the default application name', { applicationName: 'HR [source]' }, HR],
  ['by name', { sourceName: 'Active Directory' }, AD],
  ['sourceId before every other key', { sourceId: 'src-hr', applicationId: 'guid-ad', applicationName: 'AD [source]', sourceName: 'Active Directory' }, HR],
  ['applicationId before applicationName and sourceName', { applicationId: 'guid-ad', applicationName: 'HR [source]', sourceName: 'HR' }, AD],
  ['applicationName before sourceName', { applicationName: 'HR [source]', sourceName: 'Active Directory' }, HR],
  ['a winning key that names no source, without trying the next', { sourceId: 'nope', sourceName: 'HR' }, null],
  ['no key', {}, null],
];

describe('resolveSourceRef', () => {
  it.each(cases)('%s', (_label, ref, expected) => {
    expect(new SourceIndex(SOURCES).resolve(ref)).toBe(expected);
    expect(createMemoryProviders({ sources: SOURCES, identities: [], accounts: [] }).sources.resolveSource(ref)).toBe(expected);
  });

  it('asks a lookup only for the key that wins', () => {
    const asked: string[] = [];
    const lookup = {
      byId: (v: string) => (asked.push(`id:${v}`), null),
      byExternalId: (v: string) => (asked.push(`external:${v}`), null),
      byApplicationName: (v: string) => (asked.push(`application:${v}`), null),
      byName: (v: string) => (asked.push(`name:${v}`), null),
    };
    expect(resolveSourceRef({ applicationName: 'A', sourceName: 'B' }, lookup)).toBeNull();
    expect(asked).toEqual(['application:A']);
  });
});
