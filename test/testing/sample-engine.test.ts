// createSampleEngine and createIssuedNames: the sample is laid over the fixture tenant
// for one evaluation only, the random source is the seed's, coded errors are outcomes with their
// phase, and usernameGenerator's oracle refuses names other identities hold or were issued.

import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFixtures } from '../../src/providers/fixtures.js';
import type { TransformDocument } from '../../src/providers/types.js';
import { arbitraryIdentity, fixtureSamples } from '../../src/testing/arbitraries.js';
import { createIssuedNames } from '../../src/testing/issued-names.js';
import { createSampleEngine, SAMPLE_NOW } from '../../src/testing/sample-engine.js';

const fixtures = loadFixtures(join(import.meta.dirname, '../../fixtures'));
const sampleEngine = createSampleEngine({ fixtures });
const [generated] = fc.sample(arbitraryIdentity(fixtures), { numRuns: 1, seed: 11 });
const fixtureSample = fixtureSamples(fixtures)[0]!;

const links: TransformDocument = { name: 'Links', type: 'static', attributes: { value: '$identity.getLinks().size()' } };
const uuid: TransformDocument = { name: 'Id', type: 'uuid' };
const now: TransformDocument = { name: 'Now', type: 'dateMath', attributes: { expression: 'now' } };

describe('createSampleEngine', () => {
  it('evaluates against the sample’s accounts, then the fixture’s again', async () => {
    expect(await sampleEngine.evaluate(links, generated!)).toEqual({ kind: 'value', value: String(generated!.accounts.length) });
    expect(await sampleEngine.evaluate(links, fixtureSample)).toEqual({ kind: 'value', value: String(fixtureSample.accounts.length) });
  });

  it('draws randomness from the seed: the same seed, the same value', async () => {
    const a = await sampleEngine.evaluate(uuid, null, { seed: 7 });
    expect(await sampleEngine.evaluate(uuid, null, { seed: 7 })).toEqual(a);
    expect(await sampleEngine.evaluate(uuid, null, { seed: 8 })).not.toEqual(a);
  });

  it('reads the clock once: the generated tenant’s "now" by default', async () => {
    // dateMath prints java.time's form: 2026-01-15T12:00Z (seconds left out when zero).
    expect(await sampleEngine.evaluate(now, null)).toEqual({ kind: 'value', value: `${SAMPLE_NOW.toISOString().slice(0, 16)}Z` });
  });

  it('returns coded errors as outcomes with their phase', async () => {
    const compile = await sampleEngine.evaluate({ name: 'Bad', type: 'replace', attributes: { regex: '(', replacement: '' } }, null);
    expect(compile).toMatchObject({ kind: 'error', phase: 'compile', error: { code: 'REGEX_SYNTAX', path: '/attributes/regex' } });
    const evaluate = await sampleEngine.evaluate({ name: 'No identity', type: 'identityAttribute', attributes: { name: 'uid' } }, null);
    expect(evaluate).toMatchObject({ kind: 'error', phase: 'evaluate', error: { code: 'EVAL_NO_IDENTITY' } });
  });

  it('compiles nested definitions (no name) as well as named documents', async () => {
    expect(await sampleEngine.evaluate({ type: 'lower', attributes: { input: 'ABC' } }, null)).toEqual({ kind: 'value', value: 'abc' });
  });

  it('forgets issued user names between evaluations unless asked to share them', async () => {
    const username: TransformDocument = { name: 'U', type: 'usernameGenerator', attributes: { patterns: ['same${uniqueCounter}'] } };
    const other = { ...generated!, identity: { ...generated!.identity, id: 'other-id', name: 'other' } };
    expect(await sampleEngine.evaluate(username, generated!)).toEqual({ kind: 'value', value: 'same' });
    expect(await sampleEngine.evaluate(username, other)).toEqual({ kind: 'value', value: 'same' });
    const shared = createSampleEngine({ fixtures, shareIssuedNames: true });
    expect(await shared.evaluate(username, generated!)).toEqual({ kind: 'value', value: 'same' });
    expect(await shared.evaluate(username, other)).toEqual({ kind: 'value', value: 'same1' });
  });

  it('rejects an unknown option with a coded error', () => {
    expect(() => createSampleEngine({ fixture: fixtures } as never)).toThrow(expect.objectContaining({ code: 'ENGINE_OPTION_UNKNOWN' }));
  });
});

describe('createIssuedNames', () => {
  const identities = [{ id: 'a', name: 'jdoe', attributes: { uid: 'john.doe' } }];

  it('refuses a name or uid another identity holds, whatever its case', () => {
    const oracle = createIssuedNames(identities);
    expect(oracle.isUnique('JDoe', { identityId: 'b', sourceCheck: false })).toBe(false);
    expect(oracle.isUnique('john.doe', { identityId: 'b', sourceCheck: false })).toBe(false);
    expect(oracle.isUnique('jdoe', { identityId: 'a', sourceCheck: false })).toBe(true);
  });

  it('issues a unique name to the asking identity until reset', () => {
    const oracle = createIssuedNames(identities);
    expect(oracle.isUnique('new', { identityId: 'b', sourceCheck: false })).toBe(true);
    expect(oracle.issued().get('new')).toBe('b');
    expect(oracle.isUnique('new', { identityId: 'c', sourceCheck: false })).toBe(false);
    expect(oracle.isUnique('new', { identityId: 'b', sourceCheck: false })).toBe(true);
    oracle.reset();
    expect(oracle.isUnique('new', { identityId: 'c', sourceCheck: false })).toBe(true);
  });
});
