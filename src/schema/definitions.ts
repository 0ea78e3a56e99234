// Shared JSON Schema definitions the operation specs refer to. They encode the loose typing
// the platform accepts, as its documented examples write values: integers as 8, 8.0, "8", -1.0; booleans as true or
// "true"; and "a literal or a nested transform" wherever an attribute may hold a transform.

import type { JSONSchema7 } from './json-schema.js';

const def = (name: string): JSONSchema7 => ({ $ref: `#/definitions/${name}` });

/** References to the shared definitions, for operation attribute schemas. */
export const ref = {
  /** A nested transform. */
  transform: def('transform'),
  /** A string (numbers are accepted and read as their text, as Jackson coerces scalars). */
  string: def('string'),
  /** A string or a nested transform. */
  stringOrTransform: def('stringOrTransform'),
  /** An integer, loosely typed: 8, 8.0, "8". */
  integer: def('integer'),
  /** A loosely typed integer or a nested transform. */
  integerOrTransform: def('integerOrTransform'),
  /** true, false, "true" or "false". */
  boolean: def('boolean'),
  /** Any JSON scalar or a nested transform. */
  value: def('value'),
  /** An array of scalars / nested transforms. */
  values: def('values'),
} as const;

/** Shared definitions, keyed as referenced above (the transform definition is added by the builder). */
export const sharedDefinitions: Record<string, JSONSchema7> = {
  string: { type: ['string', 'number'] },
  stringOrTransform: { if: { type: 'object' }, then: def('transform'), else: def('string') },
  integer: {
    type: ['integer', 'string'],
    pattern: '^\\s*[+-]?\\d+(\\.0*)?\\s*$',
    description: 'An integer: 8, 8.0 or "8".',
  },
  integerOrTransform: { if: { type: 'object' }, then: def('transform'), else: def('integer') },
  boolean: {
    type: ['boolean', 'string'],
    pattern: '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$',
    description: 'true, false, "true" or "false".',
  },
  value: { if: { type: 'object' }, then: def('transform'), else: { type: ['string', 'number', 'boolean', 'null'] } },
  values: { type: 'array', items: def('value') },
};

/** The names of the loosely typed scalar definitions (their pattern failures are type errors). */
export const LOOSE_SCALARS = new Set(['integer', 'boolean', 'string']);
