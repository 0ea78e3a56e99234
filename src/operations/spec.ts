// Helpers for writing an operation spec: the attributes schema shape shared by every type.

import type { JSONSchema7 } from '../schema/json-schema.js';
import type { OperationSpec } from '../engine/types.js';
import { ref } from '../schema/definitions.js';

export { ref };

export interface AttributesShape {
  /** The operation's own attributes. */
  properties?: Record<string, JSONSchema7>;
  /** Required attribute names. */
  required?: string[];
  /** Whether other keys are dynamic variables (static, conditional, usernameGenerator, rule). */
  dynamicVariables?: boolean;
}

/**
 * The attributes schema: the operation's properties plus the ones every transform may carry
 * (`input`, and `requiresPeriodicRefresh`, `id`, `internal`, which the OpenAPI places inside
 * attributes and the docs at the top level; both accepted, docs/decisions.md E3). Unknown keys are
 * rejected unless they are dynamic variables. `null` is accepted where nothing is required
 * (`"attributes": null` in the docs).
 */
export function attributesSchema(shape: AttributesShape): JSONSchema7 {
  const required = shape.required ?? [];
  const schema: JSONSchema7 = {
    type: required.length > 0 ? 'object' : ['object', 'null'],
    properties: {
      input: ref.stringOrTransform,
      requiresPeriodicRefresh: ref.boolean,
      id: { type: 'string' },
      internal: ref.boolean,
      ...(shape.properties ?? {}),
    },
    additionalProperties: shape.dynamicVariables ? ref.value : false,
  };
  if (required.length > 0) schema.required = required;
  return schema;
}

/** Identity function that gives an operation module its type. */
export function defineOperation(spec: OperationSpec): OperationSpec {
  return spec;
}
