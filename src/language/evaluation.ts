// Values in the editor: a transform of the document (the document itself, or a profile's
// mapping) evaluated for the workspace's identity by the engine's explain, so that the value
// shown and its trace are the engine's own. The providers answer from the tenant model's
// sources, the identity's records and the workspace's transforms (for references).

import { createEngine } from '../engine/engine.js';
import type { Explanation } from '../engine/engine-interface.js';
import type { TraceNode } from '../engine/trace.js';
import { isTransformsError, pointerJoin } from '../errors/index.js';
import { createMemoryProviders } from '../providers/memory.js';
import type { Identity, TransformDocument } from '../providers/types.js';
import { documentKind } from '../schema/documents.js';
import type { LanguageDocument } from './document.js';
import { declaredName } from './references.js';
import type { Workspace } from './types.js';

/** A transform of a document: where it is, and its definition. */
export interface TransformRoot {
  /** JSON Pointer of the transform in the document ('' for a transform document). */
  pointer: string;
  /** What it computes: the transform's name, the mapping's identity attribute, the field's name. */
  label: string;
  definition: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The transforms a document holds: itself, or each mapping of an identity profile, or each field's transform of a create profile. */
export function transformRoots(doc: LanguageDocument): TransformRoot[] {
  const value = doc.value;
  if (!isObject(value)) return [];
  const kind = documentKind(value);
  if (kind === 'transform') return typeof value.type === 'string' ? [{ pointer: '', label: typeof value.name === 'string' ? value.name : value.type, definition: value }] : [];
  const out: TransformRoot[] = [];
  if (kind === 'identity-profile') {
    const mappings = isObject(value.identityAttributeConfig) ? value.identityAttributeConfig.attributeTransforms : undefined;
    if (Array.isArray(mappings)) {
      mappings.forEach((m: unknown, i) => {
        if (isObject(m) && isObject(m.transformDefinition) && typeof m.transformDefinition.type === 'string') {
          out.push({ pointer: `/identityAttributeConfig/attributeTransforms/${i}/transformDefinition`, label: String(m.identityAttributeName ?? i), definition: m.transformDefinition });
        }
      });
    }
  } else if (kind === 'create-profile' && Array.isArray(value.fields)) {
    value.fields.forEach((f: unknown, i) => {
      if (isObject(f) && isObject(f.transform) && typeof f.transform.type === 'string') out.push({ pointer: pointerJoin('/fields', i, 'transform'), label: String(f.name ?? i), definition: f.transform });
    });
  }
  return out;
}

/** The transform root a JSON Pointer of the document lies in (the innermost prefix). */
export function rootOf(doc: LanguageDocument, pointer: string): TransformRoot | undefined {
  return transformRoots(doc).find((r) => pointer === r.pointer || pointer.startsWith(`${r.pointer}/`));
}

export interface Outcome extends Explanation {
  /** The transform evaluated. */
  root: TransformRoot;
  identity: Identity;
}

/** The transforms of the workspace by name, for `reference` (the open text of each document wins). */
function workspaceTransforms(ws: Workspace): TransformDocument[] {
  const out: TransformDocument[] = [];
  for (const doc of ws.documents.values()) if (declaredName(doc) && isObject(doc.value)) out.push(doc.value as TransformDocument);
  return out;
}

/**
 * Explain the transform of `root` for the workspace's identity; undefined without an identity.
 * A transform that does not compile gives its coded error, as evaluate would.
 */
export function explainRoot(root: TransformRoot, ws: Workspace): Outcome | undefined {
  const records = ws.identity;
  if (!records) return undefined;
  const identities = records.manager ? [records.identity, records.manager] : [records.identity];
  const providers = createMemoryProviders({ sources: [...(ws.tenant?.sources ?? [])], identities, accounts: records.accounts, transforms: workspaceTransforms(ws) });
  const engine = createEngine({ providers, limits: ws.engine.limits });
  // A mapping's definition has no name; explain takes a transform, so it is given its label.
  const transform = root.pointer === '' ? root.definition : { ...root.definition, name: root.label.slice(0, 50) || 'mapping' };
  try {
    return { root, identity: records.identity, ...engine.explain(transform, { identity: records.identity }) };
  } catch (error) {
    if (!isTransformsError(error)) throw error;
    return { root, identity: records.identity, error: { code: error.code, message: error.message, ...(error.path !== undefined ? { path: error.path } : {}) }, trace: { type: String(root.definition.type), pointer: '', input: null, children: [] } };
  }
}

/** The node of a trace at a pointer of its own transform (not inside a referenced one). */
export function traceNodeAt(trace: TraceNode | undefined, pointer: string): TraceNode | undefined {
  const stack = trace ? [trace] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.transform === undefined && node.pointer === pointer) return node;
    stack.push(...node.children);
  }
  return undefined;
}
