// #foreach with fewer than three arguments, as Velocity 1.7 runs it. 1.7's grammar takes any
// arguments after #foreach; its Foreach directive reads the list from the third child of the
// node (the arguments, then the body): with two arguments (`#foreach($n [])`, `#foreach($n in)`,
// no `in`) that child is the body, whose value is null, so the loop renders nothing and its body
// never runs; with fewer (`#foreach()`, `#foreach($n)`) there is no third child, and rendering it
// fails (ArrayIndexOutOfBoundsException), a `#foreach` that never runs does not. velocityjs's
// grammar refuses both: their heads are rewritten to a loop over nothing that velocityjs reads,
// and the node is marked for the renderer (./directives.ts).

import { columnMap } from './column-map.js';
import { closingParen } from './hash-tokens.js';
import type { Flat } from './grammar.js';

/** How a rewritten head differs from a loop over a list: 'body' never runs it, 'none' fails when run. */
export type ShortForeach = 'body' | 'none';

const HEAD = /#(?:foreach|\{foreach\})[ \t]*\(/g;
/** The head velocityjs reads in place of a short one (its variable is never bound: the body never runs). */
const REPLACEMENT = '#foreach($foreach in [])';

/**
 * The top-level arguments of `#foreach(…)`, split at blanks and commas outside brackets and
 * quotes, and where a list, a map, a string or a reference follows a word (`in[1]`).
 */
function argumentCount(inside: string): number {
  let count = 0;
  let depth = 0;
  let quote: string | null = null;
  let inArgument = false;
  let word = false;
  for (const c of inside) {
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    const separator = depth === 0 && /[\s,]/.test(c);
    if (!separator && (!inArgument || (depth === 0 && word && /[[{"'$]/.test(c)))) {
      count++;
      word = /[A-Za-z0-9_]/.test(c);
    }
    inArgument = !separator;
    if (c === '"' || c === "'") quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
  }
  return count;
}

export interface ForeachRewrite {
  text: string;
  /** A column of the rewritten text back to the column of `text` as given. */
  column(line: number, column: number): number;
  /** The rewritten heads, by `line:column` (0-based column) in the rewritten text. */
  heads: Map<string, ShortForeach>;
}

/** Rewrite the heads of #foreach with fewer than three arguments (on one line each). */
export function rewriteShortForeach(text: string): ForeachRewrite | undefined {
  if (!text.includes('foreach')) return undefined;
  const shifts: [number, number, number][] = [];
  const heads = new Map<string, ShortForeach>();
  let out = '';
  let from = 0;
  let line = 1;
  for (const m of text.matchAll(HEAD)) {
    if (m.index < from) continue;
    const open = m.index + m[0].length - 1;
    const close = closingParen(text, open);
    if (close < 0) continue;
    const inside = text.slice(open + 1, close);
    const count = argumentCount(inside);
    if (count >= 3 || /[\r\n]/.test(inside)) continue;
    const skipped = text.slice(from, m.index);
    for (const c of skipped) if (c === '\n') line++;
    out += skipped;
    const before = out.length - out.lastIndexOf('\n') - 1;
    heads.set(`${line}:${before}`, count === 2 ? 'body' : 'none');
    out += REPLACEMENT;
    shifts.push([line, before + REPLACEMENT.length, REPLACEMENT.length - (close + 1 - m.index)]);
    from = close + 1;
  }
  if (heads.size === 0) return undefined;
  return { text: out + text.slice(from), column: columnMap(shifts), heads };
}

/** Mark the rewritten heads among velocityjs's statements (positions still in the rewritten text). */
export function markShortForeach(flat: Flat[], heads: Map<string, ShortForeach>): void {
  for (const node of flat) {
    if (typeof node === 'string' || node.type !== 'foreach' || !node.pos) continue;
    const kind = heads.get(`${node.pos.first_line}:${node.pos.first_column}`);
    if (kind) node.shortForeach = kind;
  }
}
