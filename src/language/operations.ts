// What the engine's registry says about each operation, as the editor shows it: the types, an
// operation's attribute keys with their JSON Schema, the values an enum allows, and each one's
// documentation, read from the operation specs (their `doc` line and attributes schema) — the
// registry is the one home of that knowledge.

import type { Engine } from '../engine/engine.js';
import type { OperationSpec } from '../engine/types.js';
import type { JSONSchema7 } from '../schema/json-schema.js';

/** Page of an operation in the platform's documentation. */
export const OPERATIONS_DOCS = 'https://developer.sailpoint.com/docs/extensibility/transforms/operations/';

/** The attribute keys of the operation of `type`, with their schemas ({} for an unknown type). */
export function attributeSchemas(engine: Engine, type: string): Record<string, JSONSchema7> {
  const spec = engine.registry.get(type);
  return (spec?.attributesSchema.properties as Record<string, JSONSchema7> | undefined) ?? {};
}

export function requiredAttributes(spec: OperationSpec): readonly string[] {
  return spec.attributesSchema.required ?? [];
}

/** Whether keys other than the operation's own are template variables (static, conditional, …). */
export function takesVariables(spec: OperationSpec): boolean {
  const extra = spec.attributesSchema.additionalProperties;
  return extra !== undefined && extra !== false;
}

/** The words a schema's type is said in. */
export function describeSchema(schema: JSONSchema7): string {
  if (schema.enum) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  const name = /#\/definitions\/(\w+)$/.exec(schema.$ref ?? '')?.[1];
  switch (name) {
    case 'string':
      return 'a string';
    case 'stringOrTransform':
      return 'a string or a nested transform';
    case 'integer':
      return 'an integer (8, 8.0 or "8")';
    case 'integerOrTransform':
      return 'an integer or a nested transform';
    case 'boolean':
      return 'a boolean (true, false, "true" or "false")';
    case 'value':
      return 'a value or a nested transform';
    case 'values':
      return 'an array of values or nested transforms';
    case 'transform':
      return 'a nested transform';
    default:
      return Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any JSON value');
  }
}

/** Markdown documentation of an operation. */
export function operationDocumentation(spec: OperationSpec): string {
  const required = requiredAttributes(spec);
  const keys = Object.keys(spec.attributesSchema.properties ?? {});
  const lines = [`**${spec.type}**: ${spec.doc.replace(/^\S+ — /, '')}`, ''];
  if (keys.length > 0) lines.push(`Attributes: ${keys.map((k) => (required.includes(k) ? `\`${k}\` (required)` : `\`${k}\``)).join(', ')}`, '');
  if (takesVariables(spec)) lines.push('Other attributes are template variables.', '');
  lines.push(`[Documentation](${OPERATIONS_DOCS})`);
  return lines.join('\n');
}

/** Markdown documentation of one attribute of an operation. */
export function attributeDocumentation(spec: OperationSpec, key: string): string {
  const schema = (spec.attributesSchema.properties as Record<string, JSONSchema7> | undefined)?.[key];
  if (!schema) return `\`${key}\`: a template variable of ${spec.type}`;
  const required = requiredAttributes(spec).includes(key) ? ', required' : '';
  return `\`${key}\` of **${spec.type}**: ${describeSchema(schema)}${required}`;
}
