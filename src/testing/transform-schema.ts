// From an operation's attributes JSON Schema to a fast-check arbitrary (for
// arbitraryTransform): the shared definitions of src/schema/definitions.ts (loose integers and
// booleans, "a literal or a nested transform") and the inline forms the specs use (enum, object
// maps, arrays). What the schema cannot promise is left to transform-semantics.ts.

import fc from './fast-check.js';
import { codedError } from '../errors/index.js';
import type { JSONSchema7 } from '../schema/json-schema.js';

/** A nested transform one level deeper, or null at the depth limit (literals only then). */
export type NestedArbitrary = fc.Arbitrary<Record<string, unknown>> | null;

/** Text without `$` and `#` (which would make it a Velocity template), with the usual awkward letters. */
export const safeText: fc.Arbitrary<string> = fc.string({
  unit: fc.constantFrom('a', 'b', 'E', 'z', 'é', 'ø', 'ß', 'Ł', ' ', '-', "'", '.', ',', '@', '1', '0'),
  maxLength: 10,
});

/** The platform's loose integer: 8, "8", " 8 ", "8.0", "+8". */
export function looseInteger(min: number, max: number): fc.Arbitrary<number | string> {
  return fc.tuple(fc.integer({ min, max }), fc.nat({ max: 4 })).map(([n, style]) => {
    switch (style) {
      case 1: return String(n);
      case 2: return ` ${n} `;
      case 3: return `${n}.0`;
      case 4: return n >= 0 ? `+${n}` : String(n);
      default: return n;
    }
  });
}

/** The platform's loose boolean: true, "true", "TRUE", "False". */
export const looseBoolean: fc.Arbitrary<boolean | string> = fc.tuple(fc.boolean(), fc.nat({ max: 3 })).map(([b, style]) => {
  const text = String(b);
  switch (style) {
    case 1: return text;
    case 2: return text.toUpperCase();
    case 3: return text[0]!.toUpperCase() + text.slice(1);
    default: return b;
  }
});

/** A scalar of ref.value: string, number, boolean or null. */
const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: safeText },
  { weight: 1, arbitrary: fc.integer({ min: -5, max: 99 }) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** `literal`, or sometimes a nested transform when one is allowed at this depth. */
export function orNested(literal: fc.Arbitrary<unknown>, nested: NestedArbitrary, nestedWeight = 1): fc.Arbitrary<unknown> {
  return nested === null ? literal : fc.oneof({ weight: 3, arbitrary: literal }, { weight: nestedWeight, arbitrary: nested });
}

/** The shared definitions (src/schema/definitions.ts), by name. */
function definition(name: string, nested: NestedArbitrary): fc.Arbitrary<unknown> {
  switch (name) {
    case 'string': return fc.oneof({ weight: 4, arbitrary: safeText }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 99 }) });
    case 'stringOrTransform': return orNested(safeText, nested);
    case 'integer': return looseInteger(0, 5);
    case 'integerOrTransform': return orNested(looseInteger(0, 5), nested);
    case 'boolean': return looseBoolean;
    case 'value': return orNested(scalar, nested);
    case 'values': return fc.array(orNested(scalar, nested), { minLength: 1, maxLength: 3 });
    case 'transform':
      if (nested === null) throw codedError('ENGINE_OPTION_INVALID', 'arbitraryTransform: a nested transform is required below the depth limit');
      return nested;
    default: throw codedError('ENGINE_OPTION_INVALID', `arbitraryTransform: no arbitrary for the schema definition "${name}"`);
  }
}

const DEFINITION_REF = /^#\/definitions\/(.+)$/;

/** An arbitrary of the values `schema` accepts (for the forms operation specs use). */
export function fromSchema(schema: JSONSchema7, nested: NestedArbitrary): fc.Arbitrary<unknown> {
  if (schema.$ref !== undefined) {
    const name = DEFINITION_REF.exec(schema.$ref)?.[1];
    if (name === undefined) throw codedError('ENGINE_OPTION_INVALID', `arbitraryTransform: unsupported $ref ${schema.$ref}`);
    return definition(name, nested);
  }
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const values = typeof schema.additionalProperties === 'object' ? fromSchema(schema.additionalProperties, nested) : scalar;
      return fc.dictionary(safeText.filter((k) => k !== ''), values, { maxKeys: 3 });
    }
    case 'array': {
      const items = schema.items !== undefined && !Array.isArray(schema.items) ? fromSchema(schema.items, nested) : scalar;
      return fc.array(items, { minLength: schema.minItems ?? 0, maxLength: Math.max(3, schema.minItems ?? 0) });
    }
    case 'integer': return fc.integer({ min: schema.minimum ?? 0, max: schema.maximum ?? 9 });
    case 'number': return fc.double({ min: schema.minimum ?? -10, max: schema.maximum ?? 10, noNaN: true });
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    default: return safeText;
  }
}
