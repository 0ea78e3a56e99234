// Definition, references and rename of a transform across the workspace's documents: from a
// `reference` id (in a transform or a profile) or a transform's own "name", to the document
// that declares the name, to every use of it, and the edits that rename it everywhere.

import type { LanguageDocument } from './document.js';
import { indexNames, nameAt } from './references.js';
import type { Location, TextEdit, Workspace } from './types.js';

/** The documents of the workspace with this one's current text among them. */
function documents(doc: LanguageDocument, ws: Workspace): LanguageDocument[] {
  return [doc, ...[...ws.documents.values()].filter((d) => d.uri !== doc.uri)];
}

const strip = (l: Location): Location => ({ uri: l.uri, offset: l.offset, length: l.length });

/** Where the transform named at `offset` is declared (its "name" value); empty when nowhere known. */
export function findDefinition(doc: LanguageDocument, offset: number, ws: Workspace): Location[] {
  const name = nameAt(doc, offset);
  if (name === undefined) return [];
  return (indexNames(documents(doc, ws)).declarations.get(name) ?? []).map(strip);
}

/** Every use of the transform named at `offset`, with its declaration when `includeDeclaration`. */
export function findReferences(doc: LanguageDocument, offset: number, ws: Workspace, includeDeclaration = true): Location[] {
  const name = nameAt(doc, offset);
  if (name === undefined) return [];
  const index = indexNames(documents(doc, ws));
  return [...(includeDeclaration ? (index.declarations.get(name) ?? []) : []), ...(index.uses.get(name) ?? [])].map(strip);
}

/** The edits that rename the transform named at `offset` in its declaration and every use. */
export function doRename(doc: LanguageDocument, offset: number, newName: string, ws: Workspace): TextEdit[] {
  return findReferences(doc, offset, ws).map((l) => ({ ...l, newText: JSON.stringify(newName) }));
}
