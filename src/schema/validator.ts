// Schema validation with ajv, compiled once per engine (or generated at build time: compiled.ts),
// and the mapping of ajv's errors to coded issues with JSON Pointers. The schema uses if/then/else
// (never anyOf) so that ajv reports only the branch that applies: one precise error per problem.

import type { ErrorObject } from 'ajv';
import type { ValidationIssue } from './issues.js';
import { compileSchema, type CompiledSchema } from './compiled.js';
import { LOOSE_SCALARS } from './definitions.js';
import { pointerTokens, type ErrorCode } from '../errors/index.js';
import { closestName, didYouMean } from '../errors/suggest.js';

export type SchemaValidator = (value: unknown) => ValidationIssue[];

/** The names a schema knows, for suggestions: the transform types, each type's attribute keys, a transform's own keys. */
export interface SchemaNames {
  types: readonly string[];
  attributes: ReadonlyMap<string, readonly string[]>;
  transform: readonly string[];
}

/** The names of the validator form of the schema (build.ts): one `operation-<type>` definition per type. */
export function schemaNames(schema: Record<string, unknown>): SchemaNames {
  type Properties = { properties?: Record<string, { properties?: Record<string, unknown> }> };
  const definitions = (schema.definitions ?? {}) as Record<string, Properties>;
  const attributes = new Map<string, string[]>();
  let transform: string[] = [];
  for (const [name, definition] of Object.entries(definitions)) {
    if (!name.startsWith('operation-')) continue;
    attributes.set(name.slice('operation-'.length), Object.keys(definition.properties?.attributes?.properties ?? {}));
    transform = Object.keys(definition.properties ?? {});
  }
  return { types: [...attributes.keys()], attributes, transform };
}

export function createSchemaValidator(schema: Record<string, unknown>): SchemaValidator {
  const names = schemaNames(schema);
  // Two compiled validators: the fast one stops at the first error (most documents are valid);
  // only a document that fails is validated again with every error collected.
  const fast = compileSchema(schema, false);
  let full: CompiledSchema | undefined;
  return (value) => {
    if (fast(value)) return [];
    full ??= compileSchema(schema, true);
    full(value);
    return mapErrors(full.errors ?? fast.errors ?? [], value, names);
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

export function mapErrors(errors: readonly ErrorObject[], root: unknown, names?: SchemaNames): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const seen = new Set<string>();
  const push = (code: ErrorCode, path: string, message: string, suggestion?: string) => {
    const key = code + '\u0000' + path;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(suggestion === undefined ? { severity: 'error', code, path, message } : { severity: 'error', code, path, message, suggestion });
  };
  const unknownType = (path: string, value: string) => {
    const suggestion = closestName(value, names?.types ?? []);
    push('SCHEMA_ENUM', path, `unknown transform type ${JSON.stringify(value)}${didYouMean(suggestion)}`, suggestion);
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
          unknownType(at, String(valueAt(root, at)));
        } else {
          const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
          push('SCHEMA_ENUM', at, `must be one of ${JSON.stringify(allowed ?? (e.params as { allowedValue: unknown }).allowedValue)}`);
        }
        break;
      }
      case 'discriminator': {
        // The type dispatch of the validator form of the schema (build.ts).
        const value = valueAt(root, `${at}/type`);
        if (typeof value === 'string') unknownType(`${at}/type`, value);
        else push('SCHEMA_TYPE', `${at}/type`, 'the transform type must be a string');
        break;
      }
      case 'oneOf':
        break; // with the discriminator, the matching branch reports the error itself
      default:
        push('SCHEMA_CONSTRAINT', at, e.message ?? 'invalid value');
    }
  }
  return names ? suggestKeys(out, root, names) : out;
}

function parentOf(pointer: string): { parent: string; key: string } {
  const slash = pointer.lastIndexOf('/');
  return { parent: pointer.slice(0, slash), key: pointerTokens(pointer.slice(slash)).pop() ?? '' };
}

/**
 * Unknown keys named as the key meant: a misspelt key that a required key of the same object is
 * close to (`atributeName` where `attributeName` is missing) is one finding — the unknown key's
 * SCHEMA_UNKNOWN_PROPERTY, naming the required key — instead of two; any other unknown key names
 * the closest key its object may have and does not.
 */
function suggestKeys(issues: ValidationIssue[], root: unknown, names: SchemaNames): ValidationIssue[] {
  const missing = new Map<string, ValidationIssue[]>();
  for (const issue of issues) {
    if (issue.code !== 'SCHEMA_REQUIRED') continue;
    const { parent } = parentOf(issue.path);
    missing.set(parent, [...(missing.get(parent) ?? []), issue]);
  }
  const merged = new Set<ValidationIssue>();
  for (const issue of issues) {
    if (issue.code !== 'SCHEMA_UNKNOWN_PROPERTY') continue;
    const { parent, key } = parentOf(issue.path);
    const required = missing.get(parent)?.filter((r) => !merged.has(r)) ?? [];
    const meant = closestName(key, required.map((r) => parentOf(r.path).key));
    if (meant !== undefined) {
      merged.add(required.find((r) => parentOf(r.path).key === meant)!);
      issue.message += `${didYouMean(meant)} (it is required)`;
      issue.suggestion = meant;
      continue;
    }
    const node = valueAt(root, parent);
    const present = node !== null && typeof node === 'object' ? Object.keys(node) : [];
    const suggestion = closestName(key, keysAt(parent, root, names).filter((k) => !present.includes(k)));
    if (suggestion === undefined) continue;
    issue.message += didYouMean(suggestion);
    issue.suggestion = suggestion;
  }
  return merged.size === 0 ? issues : issues.filter((i) => !merged.has(i));
}

/** The keys the object at a pointer may have: a transform's own, or its type's attributes. */
function keysAt(pointer: string, root: unknown, names: SchemaNames): readonly string[] {
  const { parent, key } = parentOf(pointer);
  if (pointer !== '' && key === 'attributes') {
    const type = valueAt(root, `${parent}/type`);
    return typeof type === 'string' ? (names.attributes.get(type) ?? []) : [];
  }
  const type = valueAt(root, `${pointer}/type`);
  return typeof type === 'string' && names.attributes.has(type) ? names.transform : [];
}
