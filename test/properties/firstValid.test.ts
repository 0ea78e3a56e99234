// Property (https://developer.sailpoint.com/docs/extensibility/transforms/operations/first-valid):
// firstValid returns its first non-null entry. Each entry is also evaluated alone, in order, on the
// same identity and the same random stream: firstValid gives the first non-null of those; without
// ignoreErrors the first error before it is firstValid's error (located under
// /attributes/values/i), with ignoreErrors it is skipped.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Value } from '../../src/engine/types.js';
import { builtinOperations } from '../../src/operations/index.js';
import type { TransformDocument } from '../../src/providers/types.js';
import { arbitrarySample } from '../../src/testing/arbitraries.js';
import { createSampleEngine, type Outcome } from '../../src/testing/sample-engine.js';
import { Prng } from '../../src/testing/generator/prng.js';
import { arbitraryTransform } from '../../src/testing/transforms.js';
import { comparable, fixtures } from './fixtures.js';

const engine = createSampleEngine({ fixtures });
const types = builtinOperations.map((s) => s.type);
/** Literal entries: no `$` or `#` (those strings are templates); "" is a value, not null. */
const literal = fc.constantFrom<Value>(null, '', 'x', 'Ünïcödé', 0, 7, false, true);
const entry = fc.oneof(
  { weight: 1, arbitrary: literal },
  { weight: 3, arbitrary: arbitraryTransform({ shape: fixtures, named: false, maxDepth: 1, types }) as fc.Arbitrary<unknown> },
);
const isTransform = (v: unknown): v is TransformDocument => v !== null && typeof v === 'object';

/** What firstValid must give, from the entries evaluated one by one on one random stream. */
async function expected(entries: readonly unknown[], ignoreErrors: boolean, sample: Parameters<typeof engine.evaluate>[1], seed: number): Promise<unknown> {
  const prng = new Prng(seed);
  const random = () => prng.next();
  for (const [i, e] of entries.entries()) {
    const outcome: Outcome = isTransform(e) ? await engine.evaluate(e, sample, { random }) : { kind: 'value', value: e as Value };
    if (outcome.kind === 'value') {
      if (outcome.value !== null) return { value: outcome.value };
      continue;
    }
    if (ignoreErrors) continue;
    const { code, path, message } = outcome.error;
    return { phase: 'evaluate', code, path: `/attributes/values/${i}${path ?? ''}`, message };
  }
  return { value: null };
}

describe('firstValid', () => {
  it('gives the first non-null entry; an earlier error is its error unless ignoreErrors skips it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 4 }), fc.boolean(), arbitrarySample(fixtures), fc.nat(), async (values, ignoreErrors, sample, seed) => {
        const transform = { name: 'First valid', type: 'firstValid', attributes: { values, ignoreErrors } };
        const prng = new Prng(seed);
        const actual = comparable(await engine.evaluate(transform, sample, { random: () => prng.next() }));
        expect(actual).toEqual(await expected(values, ignoreErrors, sample, seed));
      }),
      { numRuns: 200 },
    );
  });

  it('never evaluates an entry after the first non-null one', async () => {
    // An entry that would fail if evaluated: a lookup with an empty table.
    const failing = { type: 'lookup', attributes: { table: {}, input: 'x' } };
    await fc.assert(
      fc.asyncProperty(fc.array(literal.filter((v) => v !== null), { minLength: 1, maxLength: 3 }), async (values) => {
        const outcome = await engine.evaluate({ name: 'Lazy', type: 'firstValid', attributes: { values: [null, ...values, failing] } }, null);
        expect(outcome).toEqual({ kind: 'value', value: values[0] });
      }),
      { numRuns: 50 },
    );
  });

  // Regression (found by this property): an evaluation error inside a referenced transform kept
  // the referenced transform's own pointer, naming an attribute the evaluated one does not have.
  it('locates an evaluation error inside a referenced transform at the reference', async () => {
    const strict = { name: 'Strict', type: 'lookup', attributes: { table: {} } };
    const tenant = createSampleEngine({ fixtures: { sources: [], identities: [], accounts: [], transforms: [strict] } });
    const outcome = await tenant.evaluate({ name: 'Outer', type: 'firstValid', attributes: { values: [{ type: 'reference', attributes: { id: 'Strict' } }] } }, null, { input: 'x' });
    expect(outcome).toMatchObject({ kind: 'error', error: { code: 'EVAL_LOOKUP_NO_MATCH', path: '/attributes/values/0/attributes/id' } });
    expect((outcome as { error: { details?: unknown } }).error.details).toMatchObject({ transform: 'Strict', transformPath: '/attributes/table' });
  });
});
