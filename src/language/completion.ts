// Completion at a caret: operation types after "type"; the attribute keys of the node's operation
// (with their documentation) and the values an enum allows; sourceName, applicationName and
// sourceId from the tenant model, attributeName from what the accounts of that source carry,
// identityAttribute's name from the identities' attributes; a reference's id from the
// workspace's transform names; and in a static's template, the $variables its other attributes
// define.

import type * as Jsonc from 'jsonc-parser';
import type { OperationSpec } from '../engine/types.js';
import { locationAt, type LanguageDocument, type Span } from './document.js';
import { attributeDocumentation, attributeSchemas, describeSchema, operationDocumentation, takesVariables } from './operations.js';
import { indexNames } from './references.js';
import type { CompletionItem, CompletionKind, Workspace } from './types.js';

const TOP_LEVEL_KEYS = ['type', 'attributes', 'name', 'requiresPeriodicRefresh'] as const;

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let v = root;
  for (const t of path) v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[t] : undefined;
  return v;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** What the caret replaces: the string or word under it, or nothing at the caret. */
function replaced(location: Jsonc.Location, offset: number): Span {
  const prev = location.previousNode;
  if (prev && offset >= prev.offset && offset <= prev.offset + prev.length) return { offset: prev.offset, length: prev.length };
  return { offset, length: 0 };
}

function items(labels: Iterable<string>, kind: CompletionKind, replace: Span, detail?: (label: string) => string | undefined, documentation?: (label: string) => string | undefined): CompletionItem[] {
  const out: CompletionItem[] = [];
  for (const label of new Set(labels)) {
    const d = detail?.(label);
    const doc = documentation?.(label);
    out.push({ label, kind, insertText: JSON.stringify(label), replace, ...(d !== undefined ? { detail: d } : {}), ...(doc !== undefined ? { documentation: doc } : {}) });
  }
  return out.sort((a, b) => a.label.localeCompare(b.label));
}

/** The $variables a template at the caret can use: the other attributes of its static (or rule, conditional…). */
function variables(doc: LanguageDocument, location: Jsonc.Location, offset: number, ws: Workspace): CompletionItem[] | undefined {
  const prev = location.previousNode;
  if (prev?.type !== 'string' || offset <= prev.offset || offset > prev.offset + prev.length) return undefined;
  const before = doc.text.slice(prev.offset + 1, offset);
  const typed = /\$!?\{?([A-Za-z0-9_-]*)$/.exec(before);
  if (!typed) return undefined;
  const path = location.path;
  const attributesAt = path.lastIndexOf('attributes');
  if (attributesAt < 0) return [];
  const node = valueAt(doc.value, path.slice(0, attributesAt));
  if (!isObject(node) || typeof node.type !== 'string') return [];
  const spec = ws.engine.registry.get(node.type);
  if (!spec || !takesVariables(spec) || !isObject(node.attributes)) return [];
  const own = new Set(Object.keys(spec.attributesSchema.properties ?? {}));
  const current = path[attributesAt + 1];
  const names = Object.keys(node.attributes).filter((k) => !own.has(k) && k !== current);
  const replace = { offset: offset - typed[0].length, length: typed[0].length };
  return names.sort().map((name) => ({ label: `$${name}`, kind: 'variable', insertText: typed[0].includes('{') ? `\${${name}}` : `$${name}`, replace, detail: `a variable of this ${spec.type}` }));
}

function sourceValues(ws: Workspace, key: string): string[] {
  const sources = ws.tenant?.sources ?? [];
  if (key === 'sourceId') return sources.map((s) => s.id);
  if (key === 'applicationName') return sources.map((s) => s.applicationName ?? `${s.name} [source]`);
  return sources.map((s) => s.name);
}

function accountAttributeNames(ws: Workspace, attributes: Record<string, unknown>): string[] {
  const tenant = ws.tenant;
  if (!tenant) return [];
  const ref = { sourceId: attributes.sourceId, applicationId: attributes.applicationId, applicationName: attributes.applicationName, sourceName: attributes.sourceName };
  const given = Object.fromEntries(Object.entries(ref).filter(([, v]) => typeof v === 'string'));
  const source = Object.keys(given).length > 0 ? tenant.sourceIndex.resolve(given) : null;
  const sources = source ? [source] : tenant.sources;
  return sources.flatMap((s) => [...(tenant.accountAttributes(s.id) ?? [])]);
}

function keyCompletions(spec: OperationSpec | undefined, present: Record<string, unknown>, replace: Span): CompletionItem[] {
  if (!spec) return [];
  const schemas = spec.attributesSchema.properties ?? {};
  return items(
    Object.keys(schemas).filter((k) => !(k in present)),
    'attribute',
    replace,
    (k) => describeSchema(schemas[k] as never),
    (k) => attributeDocumentation(spec, k),
  );
}

/** The completions at `offset` of a document; an empty list where there are none. */
export function doComplete(doc: LanguageDocument, offset: number, ws: Workspace): CompletionItem[] {
  const location = locationAt(doc, offset);
  if (!location) return [];
  const replace = replaced(location, offset);
  const path = location.path;
  const last = path[path.length - 1];
  const registry = ws.engine.registry;
  if (location.isAtPropertyKey) {
    const parentPath = path.slice(0, -1);
    if (parentPath[parentPath.length - 1] === 'attributes') {
      const node = valueAt(doc.value, parentPath.slice(0, -1));
      if (!isObject(node) || typeof node.type !== 'string') return [];
      return keyCompletions(registry.get(node.type), isObject(node.attributes) ? node.attributes : {}, replace);
    }
    const node = valueAt(doc.value, parentPath);
    if (parentPath.length === 0 || (isObject(node) && 'type' in node)) {
      const present = isObject(node) ? node : {};
      return items(TOP_LEVEL_KEYS.filter((k) => !(k in present) && (k !== 'name' || parentPath.length === 0)), 'attribute', replace);
    }
    return [];
  }
  const template = variables(doc, location, offset, ws);
  if (template) return template;
  if (last === 'type') {
    return items(registry.keys(), 'operation', replace, (t) => registry.get(t)!.doc.replace(/^\S+ — /, ''), (t) => operationDocumentation(registry.get(t)!));
  }
  if (typeof last !== 'string' || path[path.length - 2] !== 'attributes') return [];
  const node = valueAt(doc.value, path.slice(0, -2));
  if (!isObject(node) || typeof node.type !== 'string') return [];
  const attributes = isObject(node.attributes) ? node.attributes : {};
  const schema = attributeSchemas(ws.engine, node.type)[last];
  if (schema?.enum) return items(schema.enum.map(String), 'value', replace);
  if (node.type === 'accountAttribute') {
    if (last === 'sourceName' || last === 'applicationName' || last === 'sourceId') return items(sourceValues(ws, last), 'source', replace);
    if (last === 'attributeName') return items(accountAttributeNames(ws, attributes), 'account-attribute', replace);
  }
  if (node.type === 'identityAttribute' && last === 'name') return items(ws.tenant?.identityAttributes ?? [], 'identity-attribute', replace);
  if (node.type === 'reference' && last === 'id') {
    const names = indexNames([...ws.documents.values()].filter((d) => d.uri !== doc.uri)).declarations.keys();
    return items(names, 'transform', replace);
  }
  return [];
}
