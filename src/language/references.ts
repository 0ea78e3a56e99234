// Where each transform is named and where it is used, across the workspace's documents: a
// transform document's "name", and every `reference` node's attributes.id (in transforms and in
// identity and create profiles alike), with their spans in the text. Definition, references and
// rename answer from it; so does the cycle check of the diagnostics.
// https://developer.sailpoint.com/docs/extensibility/transforms/operations/reference

import { referencesIn } from '../engine/references.js';
import { member, nodeAtPointer, span, type LanguageDocument, type Span } from './document.js';
import type { Location } from './types.js';

/** A `reference` node's id: its span (the string with its quotes) and the node's JSON Pointer. */
export interface ReferenceUse extends Location {
  name: string;
  pointer: string;
}

/** The name a transform document declares and its span, when it declares one. */
export function declaredName(doc: LanguageDocument): (Span & { name: string }) | undefined {
  const root = doc.tree;
  if (root?.type !== 'object' || member(root, 'identityAttributeConfig') !== undefined) return undefined;
  const node = member(root, 'name');
  return node?.type === 'string' && typeof node.value === 'string' && member(root, 'type') !== undefined ? { name: node.value, ...span(node) } : undefined;
}

/** Every `reference` node of a document with a string id (engine/references.ts finds them), in text order. */
export function referenceUses(doc: LanguageDocument): ReferenceUse[] {
  const out: ReferenceUse[] = [];
  for (const site of referencesIn(doc.value)) {
    const node = nodeAtPointer(doc, site.pointer);
    if (node?.type === 'string') out.push({ uri: doc.uri, name: site.name, pointer: site.pointer, ...span(node) });
  }
  return out.sort((a, b) => a.offset - b.offset);
}

/** The index of the workspace: who declares each name, and who uses it. */
export interface NameIndex {
  declarations: Map<string, Location[]>;
  uses: Map<string, ReferenceUse[]>;
}

export function indexNames(documents: Iterable<LanguageDocument>): NameIndex {
  const declarations = new Map<string, Location[]>();
  const uses = new Map<string, ReferenceUse[]>();
  for (const doc of documents) {
    const declared = declaredName(doc);
    if (declared) {
      const list = declarations.get(declared.name) ?? [];
      list.push({ uri: doc.uri, offset: declared.offset, length: declared.length });
      declarations.set(declared.name, list);
    }
    for (const use of referenceUses(doc)) {
      const list = uses.get(use.name) ?? [];
      list.push(use);
      uses.set(use.name, list);
    }
  }
  return { declarations, uses };
}

/** The transform name at an offset: a declared name or a reference id under the caret. */
export function nameAt(doc: LanguageDocument, offset: number): string | undefined {
  const inside = (s: Span) => offset >= s.offset && offset <= s.offset + s.length;
  const declared = declaredName(doc);
  if (declared && inside(declared)) return declared.name;
  return referenceUses(doc).find(inside)?.name;
}
