// Property (https://developer.sailpoint.com/docs/extensibility/transforms/operations/lookup):
// lookup with a "default" is total — on every fixture-shaped identity, whatever attribute feeds it,
// it gives the table's value for the input's text, or the default, and never an error
// (EVAL_LOOKUP_NO_MATCH included).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Value } from '../../src/engine/types.js';
import type { Identity, TransformDocument } from '../../src/providers/types.js';
import { checkTransform } from '../../src/testing/check.js';
import { createSampleEngine } from '../../src/testing/sample-engine.js';
import { fixtureShape } from '../../src/testing/shape.js';
import { fixtures } from './fixtures.js';

const shape = fixtureShape(fixtures);
const sampleEngine = createSampleEngine({ fixtures });
const keys = ['uid', ...Object.keys(shape.identityAttributes)];

/** Java's String.valueOf of an attribute value (lists print as [a, b]). */
function javaText(value: unknown): string {
  return Array.isArray(value) ? `[${value.map(javaText).join(', ')}]` : String(value);
}

/** Literal table values: no `$` or `#` (templates), distinct so that a wrong hit shows. */
const tableValue = fc.oneof(fc.string({ unit: fc.constantFrom('a', 'B', 'é', ' ', '-'), maxLength: 6 }), fc.integer(), fc.constant(null));

/** A lookup over one identity attribute, keyed by values that attribute takes (hits) and others (misses). */
const lookups: fc.Arbitrary<TransformDocument> = fc.constantFrom(...keys).chain((key) => {
  const examples = shape.identityAttributes[key]?.examples ?? [];
  const tableKey = fc.oneof(examples.length === 0 ? fc.string({ maxLength: 4 }) : fc.constantFrom(...examples), fc.string({ maxLength: 4 }));
  return fc.record({ table: fc.dictionary(tableKey, tableValue, { maxKeys: 6 }), fallback: tableValue }).map(({ table, fallback }) => ({
    name: 'Lookup',
    type: 'lookup',
    attributes: { table: { ...table, default: fallback }, input: { type: 'identityAttribute', attributes: { name: key } } },
  }));
});

/** What the table gives for the input: a null input, or no key, takes the default. */
function expected(table: Record<string, Value>, input: unknown): Value {
  if (input === null || input === undefined) return table['default']!;
  const text = javaText(input);
  return text !== 'default' && Object.prototype.hasOwnProperty.call(table, text) ? table[text]! : table['default']!;
}

function attributeOf(identity: Identity, name: string): unknown {
  const v = identity.attributes[name];
  return v === undefined || v === null ? (name === 'uid' ? identity.name : null) : v;
}

describe('lookup with a default', () => {
  it('gives the table’s value for the attribute, else the default, on every fixture-shaped identity', async () => {
    await checkTransform(lookups, {
      fixtures,
      sampleEngine,
      numRuns: 200,
      property: (value, { transform, identity }) => {
        const attributes = transform.attributes as { table: Record<string, Value>; input: { attributes: { name: string } } };
        expect(value).toEqual(expected(attributes.table, attributeOf(identity, attributes.input.attributes.name)));
      },
    });
  });

  it('is total on any implicit input: strings, table keys, "default", numbers, booleans, null', async () => {
    const inputs = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('default', 'Engineering', ''), fc.integer({ min: -99, max: 99 }), fc.boolean(), fc.constant(null));
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom('1', 'true', 'Engineering')), tableValue), tableValue, inputs, async (table, fallback, input) => {
        const withDefault = { ...table, default: fallback };
        const outcome = await sampleEngine.evaluate({ name: 'Total', type: 'lookup', attributes: { table: withDefault } }, null, { input });
        expect(outcome).toEqual({ kind: 'value', value: expected(withDefault, input) });
      }),
      { numRuns: 200 },
    );
  });
});
