// validateTransform: schema + compile (compiling is where each operation parses its regexes,
// templates and filters), plus the checks that need more than one node or file: size, depth,
// lookup without default, unknown references, duplicate names and reference cycles. Validation
// is the work of an engine: its registry defines the schema, its compile is the semantic check.
// Without an engine a call creates one of its own, which is cheap (the built-in schema
// validators are shared, engine/schema-validators.ts; the caches are allocated when first
// filled) and is dropped with the call: no engine outlives it.

import { isTransformsError, pointerJoin } from '../errors/index.js';
import { createEngine, type Engine } from './engine.js';
import { findCycles, referenceName } from './references.js';
import { documentKind, embeddedTransforms, unknownDocumentIssue, type DocumentKind } from '../schema/documents.js';
import type { ValidationIssue, ValidationResult } from '../schema/issues.js';

export type { ValidationIssue, ValidationResult } from '../schema/issues.js';
export type { DocumentKind } from '../schema/documents.js';

/** The platform's upload limit for a transform: "it cannot exceed 400KB" (https://developer.sailpoint.com/docs/extensibility/transforms/). */
export const MAX_TRANSFORM_BYTES = 400 * 1024;

/**
 * VALIDATE_TOO_LARGE for a text of `bytes` bytes. A file over the limit is not read at all (the
 * CLI checks its size first): `unread` says so, and `atLeast` that only a part was seen (standard input).
 */
export function tooLargeIssue(bytes: number, options: { unread?: boolean; atLeast?: boolean } = {}): ValidationIssue {
  const size = `${options.atLeast ? 'more than ' : ''}${options.atLeast ? MAX_TRANSFORM_BYTES : bytes} bytes`;
  const subject = options.unread ? 'the file' : 'the transform';
  return {
    severity: 'error',
    code: 'VALIDATE_TOO_LARGE',
    path: '',
    message: `${subject} is ${size}; the platform rejects transforms above ${MAX_TRANSFORM_BYTES} bytes (400 KB)${options.unread ? ', so it is not read' : ''}`,
  };
}

export interface ValidateOptions {
  /**
   * The engine that validates: its registry defines the schema, its compile is the semantic
   * check (default: a new built-in engine for this call; pass one to validate many documents
   * with one engine's caches).
   */
  engine?: Engine;
  /** Names of transforms a `reference` may name; when given, other names are reported. */
  knownNames?: ReadonlySet<string> | readonly string[];
  /** Maximum nesting depth of transforms (default: the engine's limit). */
  maxDepth?: number;
  /**
   * Validate a nested transform definition (an identity-profile mapping, a create-profile
   * field's transform): `name` is not required.
   */
  definition?: boolean;
  /** Size of the source text in bytes, when known (otherwise measured from the value). */
  sourceBytes?: number;
}

/** Options with the engine that validates: the one given, or a new built-in engine (for this call only). */
type Resolved = ValidateOptions & { engine: Engine };

/** Caches of an engine that lives for one call: enough for one document's regexes, templates and filters. */
const ONE_CALL_CACHES = Object.freeze({ transforms: 1, regexes: 64, templates: 64, filters: 64 });

function resolve(options: ValidateOptions): Resolved {
  return options.engine ? (options as Resolved) : { ...options, engine: createEngine({ cacheSizes: ONE_CALL_CACHES }) };
}

interface Reference {
  name: string;
  path: string;
}

interface NodeInfo {
  depth: number;
  references: Reference[];
  lookupsWithoutDefault: string[];
}

/** A value on the walk's stack; its JSON Pointer is built only for a finding (most nodes have none). */
interface Frame {
  value: unknown;
  parent: Frame | undefined;
  key: string | number;
  depth: number;
}

function pointerOf(frame: Frame, last: string): string {
  const tokens: (string | number)[] = [last];
  for (let f: Frame | undefined = frame; f.parent !== undefined; f = f.parent) tokens.push(f.key);
  return pointerJoin('', ...tokens.reverse());
}

/**
 * Walk the tree iteratively (a 10,000-level document must not overflow the stack) and collect
 * what the cross-node checks need. Stops descending below `maxDepth + 1`, so the references are
 * complete only when the depth found is within `maxDepth`.
 */
function scan(root: unknown, maxDepth: number): NodeInfo {
  const info: NodeInfo = { depth: 0, references: [], lookupsWithoutDefault: [] };
  const stack: Frame[] = [{ value: root, parent: undefined, key: '', depth: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value, depth } = frame;
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push({ value: value[i], parent: frame, key: i, depth });
      continue;
    }
    const obj = value as Record<string, unknown>;
    if (typeof obj.type === 'string') {
      info.depth = Math.max(info.depth, depth);
      if (depth > maxDepth) continue;
      const attrs = obj.attributes;
      if (attrs && typeof attrs === 'object' && !Array.isArray(attrs)) {
        const a = attrs as Record<string, unknown>;
        const at: Frame = { value: a, parent: frame, key: 'attributes', depth };
        const name = referenceName(obj);
        if (name !== undefined) info.references.push({ name, path: pointerOf(at, 'id') });
        if (obj.type === 'lookup' && a.table && typeof a.table === 'object' && !Object.prototype.hasOwnProperty.call(a.table, 'default')) {
          info.lookupsWithoutDefault.push(pointerOf(at, 'table'));
        }
        for (const k of Object.keys(a)) stack.push({ value: a[k], parent: at, key: k, depth: depth + 1 });
      }
      continue;
    }
    for (const k of Object.keys(obj)) stack.push({ value: obj[k], parent: frame, key: k, depth });
  }
  return info;
}

/** Size of the JSON text; a document too deep to serialise is left to the depth check. */
function measure(json: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(json) ?? '', 'utf8');
  } catch {
    return 0;
  }
}

/** Validate one transform document. */
export function validateTransform(json: unknown, options: ValidateOptions = {}): ValidationResult {
  const { result, references } = check(json, resolve(options));
  if (options.knownNames && references) {
    reportUnknownReferences(result, references, options.knownNames instanceof Set ? options.knownNames : new Set(options.knownNames as readonly string[]));
  }
  return result;
}

/**
 * Schema, compile and the checks within one document. The references come back (for the
 * caller to check against the names it knows) when the checks got that far.
 */
function check(json: unknown, options: Resolved, sourceBytes = options.sourceBytes): { result: ValidationResult; references?: Reference[] } {
  const engine = options.engine;
  const maxDepth = options.maxDepth ?? engine.limits.maxDepth;
  const issues: ValidationIssue[] = [];
  const bytes = sourceBytes ?? measure(json);
  if (bytes > MAX_TRANSFORM_BYTES) {
    issues.push(tooLargeIssue(bytes));
    // The platform refuses the upload outright; checking the content of a huge file only costs time.
    return { result: { valid: false, issues } };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    issues.push({ severity: 'error', code: 'SCHEMA_NOT_OBJECT', path: '', message: 'a transform must be a JSON object' });
    return { result: { valid: false, issues } };
  }
  const info = scan(json, maxDepth);
  if (info.depth > maxDepth) {
    issues.push({ severity: 'error', code: 'VALIDATE_TOO_DEEP', path: '', message: `transforms are nested ${info.depth} levels deep; the limit is ${maxDepth}` });
    return { result: { valid: false, issues } };
  }
  const schemaIssues = options.definition ? engine.validateDefinitionSchema(json) : engine.validateSchema(json);
  issues.push(...schemaIssues);
  if (schemaIssues.length === 0) {
    try {
      if (options.definition) engine.compileDefinition(json);
      // Validation compiles to find the semantic errors; the closures are not kept.
      else engine.compile(json, { schemaChecked: true, cache: false });
    } catch (error) {
      if (isTransformsError(error)) {
        issues.push({ severity: 'error', code: error.code, path: error.path ?? '', message: error.message });
      } else throw error;
    }
  }
  for (const path of info.lookupsWithoutDefault) {
    issues.push({ severity: 'warning', code: 'VALIDATE_LOOKUP_NO_DEFAULT', path, message: 'lookup table has no "default": an unmatched input is an error' });
  }
  return { result: { valid: !issues.some((i) => i.severity === 'error'), issues }, references: info.references };
}

function reportUnknownReferences(result: ValidationResult, references: readonly Reference[], known: ReadonlySet<string>): void {
  for (const r of references) {
    if (known.has(r.name)) continue;
    result.issues.push({ severity: 'error', code: 'VALIDATE_UNKNOWN_REFERENCE', path: r.path, message: `reference to unknown transform "${r.name}"` });
    result.valid = false;
  }
}

/** A document's result: what it was taken for, and its findings. */
export interface DocumentResult extends ValidationResult {
  kind: DocumentKind;
}

/**
 * Check a document of any kind validate knows: a transform, or the transforms inside an identity
 * profile or a create profile (each a nested definition: no name needed), their findings'
 * pointers made to point into the profile.
 */
function checkDocument(json: unknown, options: Resolved, sourceBytes?: number): { kind: DocumentKind; result: ValidationResult; references?: Reference[] } {
  const kind = documentKind(json);
  if (kind === 'transform') return { kind, ...check(json, options, sourceBytes) };
  if (kind === 'unknown') return { kind, result: { valid: false, issues: [unknownDocumentIssue()] } };
  const issues: ValidationIssue[] = [];
  const references: Reference[] = [];
  const inner: Resolved = { ...options, definition: true };
  delete inner.sourceBytes;
  for (const t of embeddedTransforms(json as Record<string, unknown>, kind, issues)) {
    const found = check(t.definition, inner);
    for (const i of found.result.issues) issues.push({ ...i, path: t.path + i.path });
    for (const r of found.references ?? []) references.push({ name: r.name, path: t.path + r.path });
  }
  return { kind, result: { valid: !issues.some((i) => i.severity === 'error'), issues }, references };
}

/**
 * Validate a document whatever it is: a transform, an identity profile (each
 * `identityAttributeConfig.attributeTransforms[].transformDefinition`) or a source create
 * profile (each `fields[].transform`). Findings point into the document; anything else is a
 * VALIDATE_UNKNOWN_DOCUMENT error.
 */
export function validateDocument(json: unknown, options: ValidateOptions = {}): DocumentResult {
  const { kind, result, references } = checkDocument(json, resolve(options));
  if (options.knownNames && references) {
    reportUnknownReferences(result, references, options.knownNames instanceof Set ? options.knownNames : new Set(options.knownNames as readonly string[]));
  }
  return { kind, ...result };
}

/** Validate an identity profile or a source create profile; any other document is VALIDATE_UNKNOWN_DOCUMENT. */
export function validateProfile(json: unknown, options: ValidateOptions = {}): DocumentResult {
  const kind = documentKind(json);
  if (kind !== 'identity-profile' && kind !== 'create-profile') {
    const issue = unknownDocumentIssue();
    issue.message = 'the document is not an identity profile (no "identityAttributeConfig") and not a source create profile (no "fields" array)';
    return { kind, valid: false, issues: [issue] };
  }
  return validateDocument(json, options);
}

export interface SetEntry {
  /** Where the transform comes from (a file name), echoed in the results. */
  source: string;
  json: unknown;
  sourceBytes?: number;
}

export interface SetResult extends ValidationResult {
  source: string;
  /** What the document was taken for. */
  kind: DocumentKind;
}

/**
 * Validates a set one transform at a time, so that a caller reading files need not keep every
 * parsed document: `add` runs the checks of one transform and returns its result; `finish`
 * appends the checks across the set to the results already returned.
 */
export interface SetValidator {
  add(entry: SetEntry): SetResult;
  /** References to names outside the set (and outside `knownNames`), duplicate names, reference cycles. */
  finish(): void;
}

/**
 * Validate a set of transforms (a directory, with identity profiles and create profiles among
 * them): each one alone, then duplicate names, references to names outside the set (and outside
 * `knownNames`), and reference cycles.
 */
export function validateTransformSet(entries: readonly SetEntry[], options: ValidateOptions = {}): SetResult[] {
  const set = createSetValidator(options);
  const results = entries.map((e) => set.add(e));
  set.finish();
  return results;
}

export function createSetValidator(options: ValidateOptions = {}): SetValidator {
  const entryOptions: Resolved = { ...resolve(options) };
  delete entryOptions.knownNames;
  const results: SetResult[] = [];
  const names = new Map<string, number[]>();
  // Each transform's references, to check against every name once the set is known.
  const referencing: { result: SetResult; references: Reference[] }[] = [];
  // Reference graph: name → referenced names (the first transform of each name).
  const edges = new Map<string, Reference[]>();
  return {
    add(entry) {
      const { kind, result, references } = checkDocument(entry.json, entryOptions, entry.sourceBytes);
      const out: SetResult = { source: entry.source, kind, valid: result.valid, issues: result.issues };
      const index = results.push(out) - 1;
      if (references && references.length > 0) referencing.push({ result: out, references });
      // Profiles reference transforms by name; only transforms are named and take part in cycles.
      const n = kind === 'transform' ? (entry.json as { name?: unknown } | null)?.name : undefined;
      if (typeof n === 'string') {
        const same = names.get(n);
        if (same) same.push(index);
        else names.set(n, [index]);
        // A document the checks stopped early on (too large, too deep) is walked in full here.
        if (!edges.has(n)) edges.set(n, references ?? scan(entry.json, Number.MAX_SAFE_INTEGER).references);
      }
      return out;
    },
    finish() {
      const known = new Set<string>([...names.keys(), ...(options.knownNames ?? [])]);
      for (const { result, references } of referencing) reportUnknownReferences(result, references, known);
      for (const [name, indexes] of names) {
        if (indexes.length < 2) continue;
        for (const i of indexes) {
          const others = indexes.filter((j) => j !== i).map((j) => results[j]!.source);
          results[i]!.issues.push(duplicateNameIssue(name, others));
          results[i]!.valid = false;
        }
      }
      reportCycles(edges, names, results);
    },
  };
}

/** The other documents a duplicate name's finding lists; more are counted. */
const DUPLICATES_LISTED = 5;

/**
 * VALIDATE_DUPLICATE_NAME for a document whose name `others` (files, or an editor's URIs) also
 * declare: the first few named, the rest counted, so that n files of one name make n findings of
 * bounded length rather than n² names in a report.
 */
export function duplicateNameIssue(name: string, others: readonly string[]): ValidationIssue {
  const listed = others.slice(0, DUPLICATES_LISTED).join(', ');
  const more = others.length - DUPLICATES_LISTED;
  return { severity: 'error', code: 'VALIDATE_DUPLICATE_NAME', path: '/name', message: `the name "${name}" is also used by ${listed}${more > 0 ? ` and ${more} more file${more === 1 ? '' : 's'}` : ''}` };
}

/** Reference cycles among the set's transforms, each reported once, at the reference that closes it. */
function reportCycles(edges: ReadonlyMap<string, Reference[]>, names: ReadonlyMap<string, number[]>, results: SetResult[]): void {
  const reported = new Set<string>();
  findCycles(edges.keys(), edges, (cycle, taken) => {
    const from = cycle[cycle.length - 2]!;
    const ref = taken[taken.length - 1]!;
    const i = names.get(from)?.[0];
    if (i === undefined || reported.has(from)) return;
    reported.add(from);
    results[i]!.issues.push({ severity: 'error', code: 'VALIDATE_REFERENCE_CYCLE', path: ref.path, message: `reference cycle: ${cycle.join(' → ')}` });
    results[i]!.valid = false;
  });
}
