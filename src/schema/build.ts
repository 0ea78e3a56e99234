// Builds the transform JSON Schema (draft-07, which VS Code understands best) from an engine's
// registry: `npm run schemas` writes it to schemas/transform.schema.json, and a test fails when
// the committed file is stale.

import { escapePointerToken } from '../errors/index.js';
import { ref, sharedDefinitions } from './definitions.js';
import type { JSONSchema7 } from './json-schema.js';

/** What the schema needs of each operation an engine's registry holds (an OperationSpec is one). */
export interface OperationSchema {
  readonly type: string;
  readonly attributesSchema: JSONSchema7;
  readonly attributesRequired: boolean;
}

/** An engine's registry as the schema sees it: operation type → its schema. */
export type OperationSchemas = ReadonlyMap<string, OperationSchema>;

export const SCHEMA_ID = 'https://identity-transforms.dev/schemas/transform.schema.json';

export function buildTransformSchema(registry: OperationSchemas): Record<string, unknown> {
  const types = [...registry.keys()];
  const perType: JSONSchema7[] = [...registry.values()].map((spec) => {
    const needsObject = spec.attributesRequired || (spec.attributesSchema.required?.length ?? 0) > 0;
    const attributes: JSONSchema7 = spec.attributesRequired ? { ...spec.attributesSchema, type: 'object' } : spec.attributesSchema;
    const then: JSONSchema7 = { properties: { attributes } };
    if (needsObject) then.required = ['attributes'];
    return {
      if: { properties: { type: { const: spec.type } }, required: ['type'] },
      then,
    };
  });
  const transform: JSONSchema7 = {
    type: 'object',
    description: 'A transform: { type, attributes } (nested transforms have no name).',
    required: ['type'],
    properties: {
      type: { type: 'string', enum: types, description: 'The operation.' },
      name: { type: 'string', minLength: 1, maxLength: 50, description: 'Unique name (root transform only).' },
      attributes: { description: 'Operation configuration.' },
      id: { type: 'string', description: 'Read-only id (as saved by the platform).' },
      $schema: { type: 'string', description: 'The JSON Schema this file follows (for editors).' },
      internal: { ...ref.boolean, description: 'Read-only: SailPoint-provided transform.' },
      requiresPeriodicRefresh: { ...ref.boolean, description: 'Re-evaluate on every nightly refresh.' },
    },
    additionalProperties: false,
    allOf: perType,
  };
  const schema: JSONSchema7 = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: SCHEMA_ID,
    title: 'Identity Security Cloud transform',
    description: 'A transform as uploaded to the platform: name, type and attributes; generated from the identity-transforms registry.',
    allOf: [{ $ref: '#/definitions/transform' }],
    required: ['name', 'type'],
    definitions: { ...sharedDefinitions, transform },
  };
  return schema as Record<string, unknown>;
}

/**
 * The same schema in the form the in-process validator runs: the per-type if/then chain (which
 * editors understand) becomes a oneOf dispatched on `type` with ajv's `discriminator`, so a node
 * is checked against its own operation only — one lookup instead of 36 conditions per node.
 * Errors are the same: only the matching branch reports. Each operation's branch is a definition
 * of its own, so that ajv compiles it to a function of its own: one function holding all 36
 * is too large for V8 to optimise (validation ran about 5 times slower) and is compiled whole
 * on its first call.
 */
export function buildValidatorSchema(registry: OperationSchemas): Record<string, unknown> {
  const editor = buildTransformSchema(registry) as JSONSchema7;
  const transform = editor.definitions!.transform!;
  const common = { ...transform.properties! };
  delete common.type;
  const operations: Record<string, JSONSchema7> = {};
  const branches: JSONSchema7[] = [...registry.values()].map((spec) => {
    const needsObject = spec.attributesRequired || (spec.attributesSchema.required?.length ?? 0) > 0;
    const attributes: JSONSchema7 = spec.attributesRequired ? { ...spec.attributesSchema, type: 'object' } : spec.attributesSchema;
    const name = `operation-${spec.type}`;
    operations[name] = {
      properties: { type: { const: spec.type }, ...common, attributes },
      required: needsObject ? ['type', 'attributes'] : ['type'],
      additionalProperties: false,
    };
    return { $ref: `#/definitions/${encodeURIComponent(escapePointerToken(name))}` };
  });
  const dispatched = {
    type: 'object',
    required: ['type'],
    properties: { type: { type: 'string' } },
    discriminator: { propertyName: 'type' },
    oneOf: branches,
  } as JSONSchema7;
  const { $id: _id, ...rest } = editor;
  return { ...rest, definitions: { ...editor.definitions, ...operations, transform: dispatched } } as Record<string, unknown>;
}

/** The validator schema of a nested transform definition (an identity-profile mapping): no root `name` required. */
export function buildDefinitionValidatorSchema(validatorSchema: Record<string, unknown>): Record<string, unknown> {
  const { required: _required, ...rest } = validatorSchema;
  return rest;
}
