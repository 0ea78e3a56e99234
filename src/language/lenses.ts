// Code lenses above each transform of a document (the document itself, or each mapping of a
// profile): "Evaluate for <identity>" and "Explain", which the adapter runs through
// evaluateLens — real evaluations by the engine, as Regal's "Evaluate" lenses are.

import { formatExplanation } from '../engine/explain-text.js';
import { messagePointer } from '../json/depth.js';
import { nodeAtPointer, span, type LanguageDocument } from './document.js';
import { explainRoot, transformRoots, type Outcome } from './evaluation.js';
import type { CodeLens, Workspace } from './types.js';

/** The lenses of a document; without an identity, "Evaluate" says how to choose one. */
export function findCodeLenses(doc: LanguageDocument, ws: Workspace): CodeLens[] {
  const out: CodeLens[] = [];
  const who = ws.identity?.identity.name;
  for (const root of transformRoots(doc)) {
    const node = nodeAtPointer(doc, root.pointer);
    if (!node) continue;
    const at = { offset: span(node).offset, length: 0 };
    out.push({ span: at, title: who === undefined ? 'Evaluate (set an identity)' : `Evaluate for ${who}`, command: 'evaluate', uri: doc.uri, pointer: root.pointer });
    out.push({ span: at, title: 'Explain', command: 'explain', uri: doc.uri, pointer: root.pointer });
  }
  return out;
}

/** What a lens shows when run: the value (or coded error), or the whole explanation as text. */
export function evaluateLens(doc: LanguageDocument, command: 'evaluate' | 'explain', pointer: string, ws: Workspace): { text: string; outcome?: Outcome } {
  const root = transformRoots(doc).find((r) => r.pointer === pointer);
  // The pointer is the client's: a long one is quoted by its two ends.
  if (!root) return { text: `no transform at ${messagePointer(pointer)} of ${doc.uri}` };
  const outcome = explainRoot(root, ws);
  if (!outcome) return { text: 'no identity to evaluate for: set identityTransforms.identity (and a fixtures directory)' };
  if (command === 'explain') return { text: formatExplanation(outcome), outcome };
  const text = outcome.error ? `${outcome.error.code} ${outcome.error.message}` : JSON.stringify(outcome.value ?? null);
  return { text: `${root.label} for ${outcome.identity.name}: ${text}`, outcome };
}
