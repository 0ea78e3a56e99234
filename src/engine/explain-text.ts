// An explanation (engine.explain) as a person reads it in a terminal: one line per node, indented
// by depth, with the node's type, pointer, input and value (or error), and below it what the
// operation decided.

import type { Explanation } from './engine.js';
import type { TraceNode } from './trace.js';

const show = (value: unknown) => (value === undefined ? 'undefined' : JSON.stringify(value));
const MAX = 120;
const clip = (text: string) => (text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text);

function decisionLines(node: TraceNode, pad: string): string[] {
  const d = node.decisions;
  if (!d) return [];
  if (node.type === 'accountAttribute') {
    const accounts = d.accounts as { id: string; nativeIdentity?: string; name?: string; sortKey: unknown; value: unknown; droppedBy?: string }[];
    const lines = [`${pad}  accounts on the source: ${accounts.length}, sorted by ${String(d.sortAttribute)}${d.descending ? ' descending' : ''}${d.returnFirstLink ? ', first link only' : ''}`];
    const order = d.order as string[];
    for (const a of accounts) {
      const where = a.droppedBy ? `dropped by ${a.droppedBy}` : `#${order.indexOf(a.id) + 1} in sort order`;
      const mark = a.id === d.returned ? '→' : ' ';
      lines.push(`${pad}  ${mark} ${a.nativeIdentity ?? a.name ?? a.id} (${a.id}) sort key ${clip(show(a.sortKey))}, value ${clip(show(a.value))}: ${where}`);
    }
    if (d.returned === null) lines.push(`${pad}    no account gave a value`);
    return lines;
  }
  if (node.type === 'lookup') {
    return [`${pad}  key ${show(d.key)}: ${d.matched ? 'matched' : d.usedDefault ? 'no match, default used' : 'no match, no default'}`];
  }
  if (node.type === 'reference') return [`${pad}  evaluates transform ${show(d.transform)}`];
  return Object.entries(d).map(([k, v]) => `${pad}  ${k}: ${clip(show(v))}`);
}

function lines(node: TraceNode, depth: number, out: string[], chosen: boolean): void {
  const pad = '  '.repeat(depth);
  const where = `${node.transform !== undefined ? `in ${JSON.stringify(node.transform)} ` : ''}${node.pointer === '' ? '/' : node.pointer}`;
  const result = node.error ? `✗ ${node.error.code} ${node.error.message}` : `= ${clip(show(node.value))}`;
  out.push(`${pad}${chosen ? '→ ' : ''}${node.type} ${where}  input ${clip(show(node.input))}  ${result}`);
  out.push(...decisionLines(node, pad));
  // firstValid: the entry whose value the node returned is the one that won.
  const winner = node.type === 'firstValid' && !node.error ? node.children.findIndex((c) => !c.error && c.value !== null && show(c.value) === show(node.value)) : -1;
  node.children.forEach((child, i) => lines(child, depth + 1, out, i === winner));
}

/** A trace tree alone, indented by `depth` levels. */
export function formatTrace(trace: TraceNode, depth = 0): string {
  const out: string[] = [];
  lines(trace, depth, out, false);
  return out.join('\n') + '\n';
}

export function formatExplanation(explanation: Explanation): string {
  const out: string[] = [];
  lines(explanation.trace, 0, out, false);
  out.push(explanation.error ? `error: ${explanation.error.code} ${explanation.error.message}${explanation.error.path !== undefined ? ` (${explanation.error.path || '/'})` : ''}` : `value: ${show(explanation.value ?? null)}`);
  return out.join('\n') + '\n';
}
