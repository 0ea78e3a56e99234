// Property: the generated JavaScript function of a transform (engine/codegen/generator.ts) and its closures
// (the engine option `codegen: false`, for hosts that forbid `new Function`) give the same value,
// or the same coded error with the same JSON Pointer and message, for any valid transform on any
// fixture-shaped identity, with synchronous providers and with asynchronous ones (the generated
// function then hands over to the closures).

import { unreported } from '../../src/engine/reporting.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { arbitrarySample } from '../../src/testing/arbitraries.js';
import { createSampleEngine } from '../../src/testing/sample-engine.js';
import { arbitraryTransform } from '../../src/testing/transforms.js';
import type { Providers } from '../../src/providers/types.js';
import { comparable, fixtures } from './fixtures.js';

const generated = createSampleEngine({ fixtures });
const closures = createSampleEngine({ fixtures, engineOptions: { codegen: false } });
const transforms = fc.oneof(arbitraryTransform({ shape: fixtures, maxDepth: 3 }), fc.constantFrom(...fixtures.transforms));
const samples = arbitrarySample(fixtures);

describe('generated code and closures', () => {
  it('give the same outcome for any transform and identity', async () => {
    await fc.assert(
      fc.asyncProperty(transforms, samples, fc.nat(), async (transform, sample, seed) => {
        const expected = comparable(await closures.evaluate(transform, sample, { seed }));
        expect(comparable(await generated.evaluate(transform, sample, { seed }))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('give the same outcome when the step limit is reached part way', async () => {
    const limited = (codegen: boolean) => createSampleEngine({ fixtures, engineOptions: { codegen, limits: { maxSteps: 3 } } });
    const [a, b] = [limited(true), limited(false)];
    await fc.assert(
      fc.asyncProperty(transforms, samples, async (transform, sample) => {
        expect(comparable(await a.evaluate(transform, sample))).toEqual(comparable(await b.evaluate(transform, sample)));
      }),
      { numRuns: 100 },
    );
  });

  it('hand over to the closures when a provider answers asynchronously', async () => {
    const later = <T>(value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), 1));
    const sync = createSampleEngine({ fixtures, engineOptions: { codegen: false } });
    const wrap = (base: Providers): Providers => ({
      ...base,
      accounts: { listAccounts: (q) => later(base.accounts!.listAccounts(q)) as never },
    });
    const asyncEngine = createSampleEngine({ fixtures });
    const providers = wrap(asyncEngine.engine.providers as Providers);
    const engine = createEngine({ providers, codegen: true, clock: () => new Date('2025-06-01T00:00:00Z') });
    const reference = createEngine({ providers, codegen: false, clock: () => new Date('2025-06-01T00:00:00Z') });
    const transform = {
      name: 'Async',
      type: 'firstValid',
      attributes: {
        values: [
          { type: 'accountAttribute', attributes: { sourceName: 'Workday', attributeName: 'NO_SUCH_ATTRIBUTE' } },
          { type: 'upper', attributes: { input: { type: 'accountAttribute', attributes: { sourceName: 'Workday', attributeName: 'FIRST_NAME' } } } },
        ],
      },
    };
    const identity = fixtures.identities[0]!;
    expect(await engine.evaluate(transform, { identity })).toEqual(await reference.evaluate(transform, { identity }));
    void sync;
  });

  it('is the default, and `codegen: false` keeps the closures (no `new Function`)', () => {
    const transform = { name: 'T', type: 'upper', attributes: { input: 'abc' } };
    // The entry reports failures (engine/reporting.ts); the function behind it is the generated one.
    expect(unreported(createEngine().compile(transform).evaluator).name).toBe('generated');
    expect(unreported(createEngine({ codegen: false }).compile(transform).evaluator).name).not.toBe('generated');
  });
});
