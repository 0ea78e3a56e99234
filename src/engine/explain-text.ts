// An explanation (engine.explain) as a person reads it in a terminal: one line per node, indented
// by depth, with the node's type, pointer, input (when it has one) and value (or error), and
// below it what the operation decided. The facts are the trace's (engine/trace.ts); this module
// only words them, so that the JSON form (the trace itself) carries the same.

import { terminalLines } from '../errors/terminal.js';
import type { Explanation } from './engine.js';
import { unknownAccountAttributeMessage } from './name-checks.js';
import type { TraceNode } from './trace.js';

const show = (value: unknown) => (value === undefined ? 'undefined' : JSON.stringify(value));
const MAX = 120;
const clip = (text: string) => (text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text);

/** What accountAttribute records (operations/accountAttribute.ts): where it read, what it considered, which account won. */
interface AccountDecisions {
  source?: { id: string; name: string };
  attribute?: string;
  unknownAttribute?: { suggestion?: string };
  accountFilter?: string;
  accountPropertyFilter?: string;
  sortAttribute: string;
  descending: boolean;
  returnFirstLink: boolean;
  accounts: { id: string; nativeIdentity?: string; name?: string; sortKey: unknown; value: unknown; droppedBy?: string }[];
  order: string[];
  returned: string | null;
}

/** An account as a person knows it: its display name, with its native identity when that differs. */
const accountName = (a: AccountDecisions['accounts'][number]) => {
  const name = a.name ?? a.nativeIdentity ?? a.id;
  return a.nativeIdentity !== undefined && a.nativeIdentity !== name ? `${show(name)} (${a.nativeIdentity})` : show(name);
};

function accountLines(d: AccountDecisions, pad: string): string[] {
  const source = d.source ? `source ${show(d.source.name)}` : 'the source';
  const lines = [`${pad}  reads ${show(d.attribute)} of the identity's accounts on ${source}`];
  if (d.unknownAttribute && d.source) lines.push(`${pad}  warning: ${unknownAccountAttributeMessage(d.source.name, String(d.attribute), d.unknownAttribute.suggestion)}`);
  if (d.accountFilter !== undefined) lines.push(`${pad}  accountFilter: ${clip(d.accountFilter)}`);
  if (d.accountPropertyFilter !== undefined) lines.push(`${pad}  accountPropertyFilter: ${clip(d.accountPropertyFilter)}`);
  const plural = d.accounts.length === 1 ? 'account' : 'accounts';
  lines.push(`${pad}  ${d.accounts.length} ${plural} considered, sorted by ${d.sortAttribute} ${d.descending ? 'descending' : 'ascending'}${d.returnFirstLink ? ', first link only' : ''}`);
  for (const a of d.accounts) {
    const where = a.droppedBy ? `dropped by ${a.droppedBy}` : `#${d.order.indexOf(a.id) + 1} in sort order`;
    const mark = a.id === d.returned ? '→' : ' ';
    lines.push(`${pad}  ${mark} ${accountName(a)} sort key ${clip(show(a.sortKey))}, value ${clip(show(a.value))}: ${where}`);
  }
  const won = d.accounts.find((a) => a.id === d.returned);
  lines.push(won ? `${pad}  won: ${accountName(won)}, account ${won.id}` : `${pad}  no account gave a value`);
  return lines;
}

function decisionLines(node: TraceNode, pad: string): string[] {
  const d = node.decisions;
  if (!d) return [];
  if (node.type === 'accountAttribute') return accountLines(d as unknown as AccountDecisions, pad);
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
  // The implicit input is shown where there is one: most nodes have none, and a column of
  // "input null" says nothing.
  const input = node.input === null || node.input === undefined ? '' : `  input ${clip(show(node.input))}`;
  out.push(`${pad}${chosen ? '→ ' : ''}${node.type} ${where}${input}  ${result}`);
  out.push(...decisionLines(node, pad));
  // firstValid: the entry whose value the node returned is the one that won.
  const winner = node.type === 'firstValid' && !node.error ? node.children.findIndex((c) => !c.error && c.value !== null && show(c.value) === show(node.value)) : -1;
  node.children.forEach((child, i) => lines(child, depth + 1, out, i === winner));
}

/** A trace tree alone, indented by `depth` levels. */
export function formatTrace(trace: TraceNode, depth = 0): string {
  const out: string[] = [];
  lines(trace, depth, out, false);
  return terminalLines(out);
}

export function formatExplanation(explanation: Explanation): string {
  const out: string[] = [];
  lines(explanation.trace, 0, out, false);
  out.push(explanation.error ? `error: ${explanation.error.code} ${explanation.error.message}${explanation.error.path !== undefined ? ` (${explanation.error.path || '/'})` : ''}` : `value: ${show(explanation.value ?? null)}`);
  return terminalLines(out);
}
