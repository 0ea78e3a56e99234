// The explanation of an evaluation as the page shows it: the engine's trace (engine/trace.ts),
// each node of the edited document given the span of its JSON in the text, so that clicking a
// node selects it. A node inside a referenced transform is shown without a span (its JSON is in
// another file). The tree is cut at MAX_TRACE_NODES nodes: an evaluation that loops over a
// reference thousands of times stays a page the browser can draw.

import type { TraceNode } from '../engine/trace.js';
import { spanOfPointer, type LanguageDocument, type Span } from '../language/document.js';

export const MAX_TRACE_NODES = 2000;

export interface LocatedNode extends Omit<TraceNode, 'children'> {
  /** Where the node's JSON is in the text, when it is in the edited document. */
  span?: Span;
  children: LocatedNode[];
  /** Children left out once the tree reached MAX_TRACE_NODES. */
  omitted?: number;
}

/** The trace with spans; `rootPointer` is where the evaluated transform is in the document. */
export function locateTrace(doc: LanguageDocument, rootPointer: string, trace: TraceNode): LocatedNode {
  let budget = MAX_TRACE_NODES;
  const visit = (node: TraceNode): LocatedNode => {
    budget--;
    const { children, ...rest } = node;
    const out: LocatedNode = { ...rest, children: [] };
    if (node.transform === undefined) out.span = spanOfPointer(doc, rootPointer + node.pointer);
    for (const child of children) {
      if (budget <= 0) {
        out.omitted = (out.omitted ?? 0) + 1;
        continue;
      }
      out.children.push(visit(child));
    }
    return out;
  };
  return visit(trace);
}
