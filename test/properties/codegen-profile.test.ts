// Property: the generated function of an identity profile (engine/codegen/profile.ts) and the
// closures (`codegen: false`) give the same attributes and the same per-attribute errors (code,
// message, JSON Pointer into the profile) for any profile of valid transforms — the bundled
// profile, the fixture transforms by reference (inlined), generated ones — on any fixture-shaped
// identity; with a step limit reached part way, with an asynchronous provider (the generated
// function hands over to the closures), and when a referenced transform changes after the
// profile was generated.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import type { EngineOptions } from '../../src/engine/options.js';
import type { ProfileLike } from '../../src/engine/profile.js';
import { createMemoryProviders } from '../../src/providers/memory.js';
import { createStreamedRecordProviders } from '../../src/providers/streamed.js';
import type { Account, Identity, Providers, Source, TransformDocument } from '../../src/providers/types.js';
import { arbitrarySample, type IdentitySample } from '../../src/testing/arbitraries.js';
import { arbitraryTransform } from '../../src/testing/transforms.js';
import { isTransformsError } from '../../src/errors/index.js';
import { fixtures } from './fixtures.js';

const NOW = new Date('2025-06-01T00:00:00Z');
const bundled = fixtures.profiles.find((p) => p.name === 'Employees')!;

/** A generated engine and a closure engine over the same providers, the sample laid over the fixture tenant. */
function pair(options: EngineOptions = {}, wrap: (p: Providers) => Providers = (p) => p) {
  const base = createMemoryProviders({
    sources: fixtures.sources as Source[],
    identities: fixtures.identities as Identity[],
    accounts: fixtures.accounts as Account[],
    transforms: [...(fixtures.transforms ?? [])] as TransformDocument[],
  });
  const record = createStreamedRecordProviders({ sources: base.sources, transforms: base.transforms }, base);
  const providers = wrap(record.providers);
  const make = (codegen: boolean): Engine => createEngine({ clock: () => NOW, random: () => 0.5, ...options, providers, codegen });
  const engines = [make(true), make(false)] as const;
  const outcome = async (engine: Engine, profile: ProfileLike, sample: IdentitySample): Promise<unknown> => {
    record.enter(sample.identity, sample.accounts, null);
    try {
      return await engine.evaluateProfile(profile, sample.identity);
    } catch (error) {
      if (isTransformsError(error)) return { code: error.code, message: error.message, path: error.path };
      throw error;
    } finally {
      record.leave();
    }
  };
  return {
    engines,
    /** Both outcomes, generated first. */
    both: async (profile: ProfileLike, sample: IdentitySample) => [await outcome(engines[0], profile, sample), await outcome(engines[1], profile, sample)] as const,
  };
}

const names = (fixtures.transforms ?? []).map((t) => (t as { name: string }).name);
const definition = fc.oneof(
  { weight: 3, arbitrary: arbitraryTransform({ shape: fixtures, maxDepth: 3, named: false }) },
  { weight: 1, arbitrary: fc.constantFrom(...names).map((id) => ({ type: 'reference', attributes: { id } })) },
  { weight: 1, arbitrary: fc.constantFrom(...bundled.identityAttributeConfig!.attributeTransforms!.map((m) => m.transformDefinition)) },
);
const profiles = fc
  .array(fc.tuple(fc.constantFrom('uid', 'email', 'department', 'title', 'x'), definition), { minLength: 1, maxLength: 6 })
  .map((mappings) => ({
    identityAttributeConfig: { attributeTransforms: mappings.map(([identityAttributeName, transformDefinition]) => ({ identityAttributeName, transformDefinition })) },
  }));
const samples = arbitrarySample(fixtures);

describe('generated profile functions and closures', () => {
  it('give the same attributes and errors for the bundled profile', async () => {
    const { both } = pair();
    await fc.assert(
      fc.asyncProperty(samples, async (sample) => {
        const [generated, closures] = await both(bundled, sample);
        expect(generated).toEqual(closures);
      }),
      { numRuns: 60 },
    );
  });

  it('give the same attributes and errors for any profile of valid transforms', async () => {
    const { both } = pair();
    await fc.assert(
      fc.asyncProperty(profiles, samples, async (profile, sample) => {
        const [generated, closures] = await both(profile, sample);
        expect(generated).toEqual(closures);
      }),
      { numRuns: 150 },
    );
  });

  it('give the same outcome when the step limit is reached part way', async () => {
    const { both } = pair({ limits: { maxSteps: 3 } });
    await fc.assert(
      fc.asyncProperty(profiles, samples, async (profile, sample) => {
        const [generated, closures] = await both(profile, sample);
        expect(generated).toEqual(closures);
      }),
      { numRuns: 60 },
    );
  });

  it('hand over to the closures when a provider answers asynchronously', async () => {
    const later = <T>(value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), 1));
    const { both } = pair({}, (p) => ({ ...p, accounts: { listAccounts: (q) => later(p.accounts!.listAccounts(q)) as never } }));
    await fc.assert(
      fc.asyncProperty(samples, async (sample) => {
        const [generated, closures] = await both(bundled, sample);
        expect(generated).toEqual(closures);
      }),
      { numRuns: 10 },
    );
  });

  it('follow a referenced transform that changed after the profile was generated', async () => {
    const documents = new Map<string, unknown>([['Shout', { name: 'Shout', type: 'upper', attributes: { input: 'a' } }]]);
    const { engines } = pair({}, (p) => ({ ...p, transforms: { getTransform: (name) => (documents.get(name) ?? null) as never } }));
    const profile = { identityAttributeConfig: { attributeTransforms: [{ identityAttributeName: 'x', transformDefinition: { type: 'reference', attributes: { id: 'Shout' } } }] } };
    const identity = fixtures.identities[0] as Identity;
    for (const engine of engines) expect(engine.evaluateProfileSync(profile, identity).attributes).toEqual({ x: 'A' });
    documents.set('Shout', { name: 'Shout', type: 'lower', attributes: { input: 'B' } });
    for (const engine of engines) expect(engine.evaluateProfileSync(profile, identity).attributes).toEqual({ x: 'b' });
    documents.set('Shout', { name: 'Shout', type: 'reference', attributes: { id: 'Shout' } });
    const [generated, closures] = engines.map((engine) => engine.evaluateProfileSync(profile, identity));
    expect(generated).toEqual(closures);
    expect(generated!.errors.map((e) => e.code)).toEqual(['EVAL_REFERENCE_CYCLE']);
  });
});
