// The documents `validate` accepts besides a transform: an identity profile, whose
// identityAttributeConfig.attributeTransforms[].transformDefinition are transforms
// (https://developer.sailpoint.com/docs/api/v3/get-identity-profile), and a source's create
// profile (provisioning policy), whose fields[].transform are
// (https://developer.sailpoint.com/docs/api/v3/create-provisioning-policy). What a document is
// follows from its members; anything else is reported as what it is not.

import { pointerJoin, type ErrorCode } from '../errors/index.js';
import type { ValidationIssue } from './issues.js';

export type DocumentKind = 'transform' | 'identity-profile' | 'create-profile' | 'unknown';

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * What a parsed JSON document is: an identity profile (it has "identityAttributeConfig"), a
 * create profile (a "fields" array), a transform (a "type" or "attributes", or not an object at
 * all, which the transform checks report), or unknown.
 */
export function documentKind(json: unknown): DocumentKind {
  if (!isObject(json)) return 'transform';
  if (Object.prototype.hasOwnProperty.call(json, 'identityAttributeConfig')) return 'identity-profile';
  if (Array.isArray(json.fields) && !Object.prototype.hasOwnProperty.call(json, 'type')) return 'create-profile';
  if (Object.prototype.hasOwnProperty.call(json, 'type') || Object.prototype.hasOwnProperty.call(json, 'attributes')) return 'transform';
  return 'unknown';
}

/** The finding for a document that is none of the kinds validate knows. */
export function unknownDocumentIssue(): ValidationIssue {
  return {
    severity: 'error',
    code: 'VALIDATE_UNKNOWN_DOCUMENT',
    path: '',
    message:
      'the document is not a transform (no "type"), not an identity profile (no "identityAttributeConfig") and not a source create profile (no "fields" array)',
  };
}

/** A transform inside a profile: where it is (JSON Pointer into the profile) and its definition. */
export interface EmbeddedTransform {
  path: string;
  definition: unknown;
}

/**
 * The transforms of an identity profile or a create profile; problems with the profile's own
 * shape (the parts that hold the transforms) go to `issues`.
 */
export function embeddedTransforms(json: Record<string, unknown>, kind: 'identity-profile' | 'create-profile', issues: ValidationIssue[]): EmbeddedTransform[] {
  const out: EmbeddedTransform[] = [];
  const issue = (code: ErrorCode, path: string, message: string) => issues.push({ severity: 'error', code, path, message });
  if (kind === 'identity-profile') {
    const config = json.identityAttributeConfig;
    if (!isObject(config)) {
      issue('SCHEMA_TYPE', '/identityAttributeConfig', 'an identity profile\'s "identityAttributeConfig" must be an object');
      return out;
    }
    const mappings = config.attributeTransforms;
    if (mappings === undefined) return out;
    if (!Array.isArray(mappings)) {
      issue('SCHEMA_TYPE', '/identityAttributeConfig/attributeTransforms', '"attributeTransforms" must be an array of attribute mappings');
      return out;
    }
    const seen = new Map<string, number>();
    mappings.forEach((m, i) => {
      const at = `/identityAttributeConfig/attributeTransforms/${i}`;
      if (!isObject(m)) return issue('SCHEMA_NOT_OBJECT', at, 'an attribute mapping must be an object');
      const name = m.identityAttributeName;
      if (typeof name !== 'string' || name === '') issue('SCHEMA_REQUIRED', `${at}/identityAttributeName`, 'an attribute mapping needs an "identityAttributeName"');
      else if (seen.has(name)) issue('VALIDATE_DUPLICATE_NAME', `${at}/identityAttributeName`, `the identity attribute "${name}" is also mapped by mapping ${seen.get(name)}`);
      else seen.set(name, i);
      if (!Object.prototype.hasOwnProperty.call(m, 'transformDefinition')) issue('SCHEMA_REQUIRED', at, 'an attribute mapping needs a "transformDefinition"');
      else out.push({ path: `${at}/transformDefinition`, definition: m.transformDefinition });
    });
    return out;
  }
  (json.fields as unknown[]).forEach((f, i) => {
    const at = pointerJoin('/fields', i);
    if (!isObject(f)) return issue('SCHEMA_NOT_OBJECT', at, 'a create profile field must be an object');
    if (typeof f.name !== 'string' || f.name === '') issue('SCHEMA_REQUIRED', `${at}/name`, 'a create profile field needs a "name"');
    // A field without a transform takes its value from elsewhere (attributes.value, a default).
    if (f.transform !== undefined && f.transform !== null) out.push({ path: `${at}/transform`, definition: f.transform });
  });
  return out;
}
