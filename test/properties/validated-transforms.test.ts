// Property (errors are coded): anything validateTransform accepts compiles, and
// evaluating it on any fixture-shaped identity gives a value or a coded error — never another
// exception. Drawn from generated transforms of every type (nested three deep) and the
// fixture's own transforms; checkTransform fails a run on a compile error or a non-coded throw.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Value } from '../../src/engine/types.js';
import type { TransformDocument } from '../../src/providers/types.js';
import { validateTransform } from '../../src/engine/validate.js';
import { checkTransform } from '../../src/testing/check.js';
import { createSampleEngine } from '../../src/testing/sample-engine.js';
import { arbitraryTransform } from '../../src/testing/transforms.js';
import { fixtures } from './fixtures.js';

/** A registered rule, so that `rule` reaches user code as well as the built-in utility. */
const rules = { 'Custom Rule': ({ input }: { input: Value }) => (input === null ? null : String(input).toUpperCase()) };
const sampleEngine = createSampleEngine({ fixtures, engineOptions: { rules } });

const accepted: fc.Arbitrary<TransformDocument> = fc
  .oneof(
    { weight: 4, arbitrary: arbitraryTransform({ shape: fixtures, maxDepth: 3, ruleNames: Object.keys(rules) }) },
    { weight: 1, arbitrary: fc.constantFrom(...fixtures.transforms) },
  )
  .filter((t) => validateTransform(t).valid);

/** What an evaluation may give: JSON values (strings mostly, lists for multi-valued attributes). */
function isValue(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isValue);
  return typeof v === 'object' && Object.values(v as object).every(isValue);
}

describe('transforms validateTransform accepts', () => {
  it('compile, and evaluate to a value or a coded error on any fixture-shaped identity', async () => {
    await checkTransform(accepted, {
      fixtures,
      sampleEngine,
      allowErrors: true,
      numRuns: 400,
      property: (value) => {
        expect(isValue(value)).toBe(true);
      },
    });
  });

  it('evaluate without an identity to a value or a coded error too', async () => {
    await fc.assert(
      fc.asyncProperty(accepted, fc.nat(), async (transform, seed) => {
        const outcome = await sampleEngine.evaluate(transform, null, { seed });
        expect(outcome.kind === 'value' ? isValue(outcome.value) : outcome.phase).toBe(outcome.kind === 'value' ? true : 'evaluate');
      }),
      { numRuns: 100 },
    );
  });
});
