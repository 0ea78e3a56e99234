// The issue-5 bad-input property, shared by the operation tests: for random JSON inputs and
// random attribute values, evaluation returns a value or throws a coded TransformsError —
// never another exception (a TypeError, a RangeError, an Invalid Date string).

import fc from 'fast-check';
import { expect, it } from 'vitest';
import { TransformsError } from '../../src/errors/index.js';
import type { Engine } from '../../src/engine/engine.js';
import type { Value } from '../../src/engine/types.js';
import { IDENTITIES, tenantEngine } from '../helpers.js';

const engine: Engine = tenantEngine({
  clock: () => new Date('2024-01-15T12:00:00Z'),
  random: () => 0.5,
  rules: { Echo: ({ input }) => input },
});

/** A JSON value of the kinds attributes and inputs take. */
const json = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ noNaN: true }),
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', ' ', '-1', '1.0', 'now', '2020-10-28T12:00:00Z', '$x', '#if(', 'ISO8601', 'abc:123', 'Ünïcödé ß'),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);

function outcome(run: () => Value): 'value' | 'coded' {
  try {
    const v = run();
    expect(v === null || ['string', 'number', 'boolean', 'object'].includes(typeof v)).toBe(true);
    return 'value';
  } catch (error) {
    if (error instanceof TransformsError) return 'coded';
    throw error;
  }
}

/**
 * Register the property for `type`: `attributes` are the operation's attribute names; each run
 * gives them random values (or leaves them out) and evaluates with a random implicit input.
 */
export function returnsValueOrCodedError(type: string, attributes: readonly string[]): void {
  it(`${type}: random inputs and attributes give a value or a coded error (fast-check)`, () => {
    fc.assert(
      fc.property(
        json,
        fc.record(Object.fromEntries(attributes.map((a) => [a, json])), { requiredKeys: [] }),
        fc.boolean(),
        (input, attrs, withIdentity) => {
          const transform = { name: 'p', type, attributes: attrs };
          outcome(() => engine.evaluateSync(transform, { input: input as Value, identity: withIdentity ? IDENTITIES[0]! : null }));
        },
      ),
      { numRuns: 300 },
    );
  });
}
