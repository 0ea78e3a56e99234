// Schema validation with ajv, compiled once per engine (or generated at build time: compiled.ts),
// and the mapping of ajv's errors to coded issues with JSON Pointers. The schema uses if/then/else
// (never anyOf) so that ajv reports only the branch that applies: one precise error per problem.

import type { ErrorObject } from 'ajv';
import type { ValidationIssue } from './issues.js';
import { compileSchema, type CompiledSchema } from './compiled.js';
import { LOOSE_SCALARS } from './definitions.js';
import { pointerTokens, type ErrorCode } from '../errors/index.js';

export type SchemaValidator = (value: unknown) => ValidationIssue[];

export function createSchemaValidator(schema: Record<string, unknown>): SchemaValidator {
  // Two compiled validators: the fast one stops at the first error (most documents are valid);
  // only a document that fails is validated again with every error collected.
  const fast = compileSchema(schema, false);
  let full: CompiledSchema | undefined;
  return (value) => {
    if (fast(value)) return [];
    full ??= compileSchema(schema, true);
    full(value);
    return mapErrors(full.errors ?? fast.errors ?? [], value);
  };
}

function definitionOf(schemaPath: string): string | undefined {
  const m = /#\/definitions\/([^/]+)\//.exec(schemaPath);
  return m?.[1];
}

function describeLoose(def: string): string {
  switch (def) {
    case 'integer':
      return 'must be an integer (8, 8.0 or "8")';
    case 'boolean':
      return 'must be a boolean (true, false, "true" or "false")';
    default:
      return 'must be a string';
  }
}

/** The value at a JSON Pointer (ajv reports data only in verbose mode, which costs time). */
function valueAt(root: unknown, pointer: string): unknown {
  let v = root;
  for (const token of pointerTokens(pointer)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[token];
  }
  return v;
}

export function mapErrors(errors: readonly ErrorObject[], root: unknown): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const seen = new Set<string>();
  const push = (code: ErrorCode, path: string, message: string) => {
    const key = code + '\u0000' + path;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ severity: 'error', code, path, message });
  };
  for (const e of errors) {
    const at = e.instancePath;
    const def = definitionOf(e.schemaPath);
    switch (e.keyword) {
      case 'if':
        break; // "must match then schema": the then-branch error itself is reported
      case 'required': {
        const missing = (e.params as { missingProperty: string }).missingProperty;
        push('SCHEMA_REQUIRED', `${at}/${missing}`, `"${missing}" is required`);
        break;
      }
      case 'additionalProperties': {
        const extra = (e.params as { additionalProperty: string }).additionalProperty;
        const where = /\/attributes$/.test(at) ? 'attribute' : 'property';
        push('SCHEMA_UNKNOWN_PROPERTY', `${at}/${extra}`, `unknown ${where} "${extra}"`);
        break;
      }
      case 'type':
      case 'pattern':
        if (e.schemaPath.startsWith('#/definitions/transform/type')) {
          push('SCHEMA_NOT_OBJECT', at, 'a transform must be a JSON object');
        } else if (def !== undefined && LOOSE_SCALARS.has(def)) {
          push('SCHEMA_TYPE', at, describeLoose(def));
        } else if (e.keyword === 'pattern') {
          push('SCHEMA_CONSTRAINT', at, `must match ${(e.params as { pattern: string }).pattern}`);
        } else {
          push('SCHEMA_TYPE', at, `must be ${String((e.params as { type: string | string[] }).type).replace(',', ' or ')}`);
        }
        break;
      case 'enum':
      case 'const': {
        if (/\/type$/.test(at) && /properties\/type\/enum$/.test(e.schemaPath)) {
          push('SCHEMA_ENUM', at, `unknown transform type ${JSON.stringify(valueAt(root, at))}`);
        } else {
          const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
          push('SCHEMA_ENUM', at, `must be one of ${JSON.stringify(allowed ?? (e.params as { allowedValue: unknown }).allowedValue)}`);
        }
        break;
      }
      case 'discriminator': {
        // The type dispatch of the validator form of the schema (build.ts).
        const value = valueAt(root, `${at}/type`);
        if (typeof value === 'string') push('SCHEMA_ENUM', `${at}/type`, `unknown transform type ${JSON.stringify(value)}`);
        else push('SCHEMA_TYPE', `${at}/type`, 'the transform type must be a string');
        break;
      }
      case 'oneOf':
        break; // with the discriminator, the matching branch reports the error itself
      default:
        push('SCHEMA_CONSTRAINT', at, e.message ?? 'invalid value');
    }
  }
  return out;
}
