// Property: evaluation is deterministic for a fixed clock and random source — two
// engines, or one engine twice (cold and warm caches), give the same value or the same coded
// error for any valid transform on any fixture-shaped identity. The random operations are
// included: their only source of randomness is the engine's.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitrarySample } from '../../src/testing/arbitraries.js';
import { createSampleEngine } from '../../src/testing/sample-engine.js';
import { arbitraryTransform } from '../../src/testing/transforms.js';
import { comparable, fixtures } from './fixtures.js';

const one = createSampleEngine({ fixtures });
const other = createSampleEngine({ fixtures });
const transforms = fc.oneof(arbitraryTransform({ shape: fixtures, maxDepth: 3 }), fc.constantFrom(...fixtures.transforms));
const samples = arbitrarySample(fixtures);

describe('determinism', () => {
  it('the same transform, identity, clock and seed give the same outcome, on another engine and again on the same one', async () => {
    await fc.assert(
      fc.asyncProperty(transforms, samples, fc.nat(), async (transform, sample, seed) => {
        const first = comparable(await one.evaluate(transform, sample, { seed }));
        expect(comparable(await other.evaluate(transform, sample, { seed }))).toEqual(first);
        expect(comparable(await one.evaluate(transform, sample, { seed }))).toEqual(first);
      }),
      { numRuns: 200 },
    );
  });

  it('the seed is what the random operations draw from: another seed, another value', async () => {
    const random = fc.constantFrom(
      { name: 'UUID', type: 'uuid' },
      { name: 'Alphanumeric', type: 'randomAlphaNumeric', attributes: { length: 16 } },
      { name: 'Password', type: 'rule', attributes: { name: 'Cloud Services Deployment Utility', operation: 'generateRandomString', length: 16, includeNumbers: true } },
    );
    await fc.assert(
      fc.asyncProperty(random, fc.nat(), fc.nat(), async (transform, a, b) => {
        fc.pre(a !== b);
        const x = comparable(await one.evaluate(transform, null, { seed: a }));
        expect(comparable(await other.evaluate(transform, null, { seed: b }))).not.toEqual(x);
      }),
      { numRuns: 50 },
    );
  });
});
