// Diagnostics: what `validate` finds in a document (engine/validate.ts: the JSON Schema of the
// engine's registry, compile, the checks within the document), the checks across the workspace's
// documents (an unknown reference, a duplicate name, a reference cycle), and with a tenant model
// the checks of its names (engine/validate-tenant.ts) — each at the exact span of what is wrong,
// with its code and the closest known name. Half-typed JSON gets its syntax error located and
// the recovered tree checked as well; nothing here throws.

import { findCycles, referencesIn, type ReferenceSite } from '../engine/references.js';
import { duplicateNameIssue, tooLargeIssue, validateDocument } from '../engine/validate.js';
import { checkTenantNames } from '../engine/validate-tenant.js';
import { firstSyntaxError } from '../json/positions.js';
import { pointerTokens } from '../errors/index.js';
import { closestName } from '../errors/suggest.js';
import type { ValidationIssue } from '../schema/issues.js';
import { spanOfPointer, type LanguageDocument } from './document.js';
import { attributeSchemas } from './operations.js';
import { declaredName, indexNames, referenceUses, type NameIndex } from './references.js';
import type { Diagnostic, Workspace } from './types.js';

/** The value at a JSON Pointer of a document's value. */
function valueAt(root: unknown, tokens: readonly string[]): unknown {
  let v = root;
  for (const t of tokens) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[t] : undefined;
  return v;
}

/** The name a schema or reference finding should have used, from the registry or the workspace. */
function suggestionFor(issue: ValidationIssue, value: unknown, ws: Workspace, index: NameIndex): string | undefined {
  const tokens = pointerTokens(issue.path);
  const last = tokens[tokens.length - 1];
  if (last === undefined) return undefined;
  const written = valueAt(value, tokens);
  switch (issue.code) {
    case 'SCHEMA_ENUM': {
      if (typeof written !== 'string') return undefined;
      if (last === 'type') return closestName(written, ws.engine.registry.keys());
      const type = valueAt(value, [...tokens.slice(0, -2), 'type']);
      const allowed = typeof type === 'string' ? attributeSchemas(ws.engine, type)[last]?.enum : undefined;
      return allowed ? closestName(written, allowed.map(String)) : undefined;
    }
    case 'SCHEMA_UNKNOWN_PROPERTY': {
      if (tokens[tokens.length - 2] !== 'attributes') return undefined;
      const type = valueAt(value, [...tokens.slice(0, -2), 'type']);
      return typeof type === 'string' ? closestName(last, Object.keys(attributeSchemas(ws.engine, type))) : undefined;
    }
    case 'VALIDATE_UNKNOWN_REFERENCE':
      return typeof written === 'string' ? closestName(written, index.declarations.keys()) : undefined;
    default:
      return undefined;
  }
}

function toDiagnostic(doc: LanguageDocument, issue: ValidationIssue & { suggestion?: string }): Diagnostic {
  const key = issue.code === 'SCHEMA_UNKNOWN_PROPERTY';
  const message = issue.suggestion !== undefined && !/did you mean/i.test(issue.message) ? `${issue.message}; did you mean "${issue.suggestion}"?` : issue.message;
  return {
    ...spanOfPointer(doc, issue.path, key),
    severity: issue.severity,
    code: issue.code,
    message,
    pointer: issue.path,
    ...(issue.suggestion !== undefined ? { suggestion: issue.suggestion } : {}),
  };
}

/** A reference cycle through this document's transform (engine/references.ts finds it), at the reference that starts it. */
function cycles(doc: LanguageDocument, ws: Workspace): ValidationIssue[] {
  const self = declaredName(doc)?.name;
  if (self === undefined) return [];
  const edges = new Map<string, ReferenceSite[]>();
  for (const other of ws.documents.values()) {
    const name = other.uri === doc.uri ? undefined : declaredName(other)?.name;
    if (name !== undefined && !edges.has(name)) edges.set(name, referencesIn(other.value));
  }
  edges.set(self, referenceUses(doc));
  const out: ValidationIssue[] = [];
  findCycles([self], edges, (cycle, taken) => {
    if (cycle[0] !== self) return false;
    out.push({ severity: 'error', code: 'VALIDATE_REFERENCE_CYCLE', path: taken[0]!.pointer, message: `reference cycle: ${cycle.join(' → ')}` });
    return true;
  });
  return out;
}

/** The findings of a document, in text order. */
export function doValidation(doc: LanguageDocument, ws: Workspace): Diagnostic[] {
  try {
    return validate(doc, ws).sort((a, b) => a.offset - b.offset);
  } catch (error) {
    // The checks are meant never to throw; if one does, the editor still gets an answer.
    return [{ offset: 0, length: Math.min(1, doc.text.length), severity: 'error', code: 'EVAL_INTERNAL', message: `the checks failed: ${(error as Error).message}`, pointer: '' }];
  }
}

function validate(doc: LanguageDocument, ws: Workspace): Diagnostic[] {
  if (doc.text.trim() === '') return [{ offset: 0, length: 0, severity: 'error', code: 'VALIDATE_EMPTY_FILE', message: 'the file is empty', pointer: '' }];
  if (doc.tooLarge !== undefined) {
    const issue = tooLargeIssue(doc.tooLarge);
    return [{ offset: 0, length: Math.min(1, doc.text.length), severity: 'error', code: issue.code, message: issue.message, pointer: '' }];
  }
  if (doc.tooDeep !== undefined) {
    return [{ offset: 0, length: Math.min(1, doc.text.length), severity: 'error', code: doc.tooDeep.code, message: doc.tooDeep.message, pointer: doc.tooDeep.path ?? '' }];
  }
  const out: Diagnostic[] = [];
  if (doc.syntaxErrors.length > 0) {
    const found = firstSyntaxError(doc.text);
    const at = found?.offset ?? doc.syntaxErrors[0]!.offset;
    out.push({ offset: at, length: Math.max(1, doc.syntaxErrors.find((e) => e.offset === at)?.length ?? 1), severity: 'error', code: 'VALIDATE_JSON_SYNTAX', message: `invalid JSON: ${found?.message ?? 'invalid JSON'}`, pointer: '' });
  }
  if (doc.value === undefined) return out;
  const index = indexNames([...ws.documents.values()].filter((d) => d.uri !== doc.uri));
  const ownName = declaredName(doc)?.name;
  const known = new Set(index.declarations.keys());
  if (ownName !== undefined) known.add(ownName);
  const checkReferences = known.size > (ownName === undefined ? 0 : 1);
  const result = validateDocument(doc.value, { engine: ws.engine, sourceBytes: Buffer.byteLength(doc.text, 'utf8'), ...(checkReferences ? { knownNames: known } : {}) });
  const issues: (ValidationIssue & { suggestion?: string })[] = result.issues.map((i) => {
    const suggestion = suggestionFor(i, doc.value, ws, index);
    return suggestion === undefined ? i : { ...i, suggestion };
  });
  const others = ownName === undefined ? [] : (index.declarations.get(ownName) ?? []);
  if (ownName !== undefined && others.length > 0) {
    issues.push(duplicateNameIssue(ownName, others.map((o) => o.uri)));
  }
  if (result.valid) issues.push(...cycles(doc, ws));
  if (ws.tenant) issues.push(...checkTenantNames(doc.value, ws.tenant));
  for (const issue of issues) out.push(toDiagnostic(doc, issue));
  return out;
}
