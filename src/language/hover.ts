// Hover: on an operation's type, its documentation; on an attribute key, that attribute's; and on
// any node of a transform, its value for the workspace's identity with the explanation in short
// (the engine's trace of that node, as `evaluate --explain` prints it, cut to a few lines).

import { formatTrace } from '../engine/explain-text.js';
import { enclosingTransform, locationAt, member, nodeAtOffset, pointerOf, span, type LanguageDocument } from './document.js';
import { explainRoot, rootOf, traceNodeAt } from './evaluation.js';
import { attributeDocumentation, operationDocumentation } from './operations.js';
import type { Hover, Workspace } from './types.js';
import { pointerJoin } from '../errors/index.js';

/** Lines of the trace a hover shows. */
const TRACE_LINES = 12;

const show = (value: unknown) => JSON.stringify(value ?? null);

/** The value part of a hover: the transform at `pointer` evaluated for the workspace's identity. */
function valueSection(doc: LanguageDocument, pointer: string, ws: Workspace): string | undefined {
  const root = rootOf(doc, pointer);
  if (!root) return undefined;
  const outcome = explainRoot(root, ws);
  if (!outcome) return undefined;
  const who = `**${outcome.identity.name}**`;
  const node = traceNodeAt(outcome.trace, pointer.slice(root.pointer.length));
  let head: string;
  if (node?.error) head = `${who}: ✗ \`${node.error.code}\` ${node.error.message}`;
  else if (node) head = `${who}: \`${show(node.value)}\``;
  else if (outcome.error) head = `${who}: ✗ \`${outcome.error.code}\` ${outcome.error.message}`;
  // A node the evaluation did not reach (a branch not taken, a fallback not needed).
  else return `${who}: not evaluated (the evaluation did not reach this node)`;
  if (!node) return head;
  const lines = formatTrace(node).trimEnd().split('\n');
  const shown = lines.length > TRACE_LINES ? [...lines.slice(0, TRACE_LINES), `… ${lines.length - TRACE_LINES} more lines (Explain shows all)`] : lines;
  return `${head}\n\n\`\`\`text\n${shown.join('\n')}\n\`\`\``;
}

/** The hover at `offset`, or undefined where there is nothing to say. */
export function doHover(doc: LanguageDocument, offset: number, ws: Workspace): Hover | undefined {
  const node = nodeAtOffset(doc, offset);
  if (!node) return undefined;
  const transform = enclosingTransform(node);
  if (!transform) return undefined;
  const sections: string[] = [];
  const type = member(transform, 'type');
  const spec = typeof type?.value === 'string' ? ws.engine.registry.get(type.value) : undefined;
  const location = locationAt(doc, offset);
  const property = node.parent?.type === 'property' ? node.parent : undefined;
  if (spec && node === type) sections.push(operationDocumentation(spec));
  else if (spec && location?.isAtPropertyKey && property?.parent?.parent?.parent === transform && property.parent.parent.children?.[0]?.value === 'attributes') {
    sections.push(attributeDocumentation(spec, String(node.value)));
  }
  const pointer = pointerJoin('', ...pointerOf(transform));
  const value = valueSection(doc, pointer, ws);
  if (value) sections.push(value);
  if (sections.length === 0) return undefined;
  return { contents: sections.join('\n\n---\n\n'), span: span(node) };
}
