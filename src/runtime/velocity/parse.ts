// Parsing VTL with velocityjs's grammar (https://developer.sailpoint.com/docs/extensibility/transforms/). velocityjs's public parse() nests
// blocks without checking them (an unclosed #if duplicates its body, a stray #end silently drops
// the rest of the template), so we take its flat token list and nest it ourselves, rejecting
// what Velocity rejects, and apply Velocity 1.7's whitespace gobbling (a directive eats the
// blanks and the line break that end its line; a block comment does not; #set also eats the
// blanks before it when they start a token).

import { createRequire } from 'node:module';
import { codedError, isTransformsError } from '../../errors/index.js';
import { rewriteEscapes } from './escapes.js';
import { markShortForeach, rewriteShortForeach } from './foreach-arguments.js';
import { flatParse, parseBudget, timedParse, type Flat, type ParseBudget } from './grammar.js';
import { HASH_BEFORE_DOLLAR, checkHashBeforeReference, endsRawBlock } from './hash-tokens.js';
import { checkPropertyCalls } from './lexer-states.js';
import type { Ast, Pos } from './expressions.js';
import { describeParseFailure } from './syntax-messages.js';

export type Node = string | Ast | Node[];

// velocityjs's reference-text helper, required directly: the package's entry point also loads
// its renderer and the debug package, which cost start-up time and are never used here. (Its
// generated parser is loaded, made linear and budgeted, by ./grammar.ts.)
const velocityRequire = createRequire(createRequire(import.meta.url).resolve('velocityjs'));
const getRefText = (velocityRequire('./helper/index.cjs') as { getRefText: (ast: never) => string }).getRefText;

const BLOCKS = new Set(['if', 'foreach', 'macro', 'define', 'noescape', 'macro_body']);
const TRIM = /^[ \t]*(?:\r\n|\n|\r)/;
const BLANKS = /^[ \t]+$/;

function syntaxError(message: string, pos: Pos | undefined, offset: Pos | undefined, cause?: unknown): never {
  const line = (pos?.first_line ?? 1) + (offset ? offset.first_line - 1 : 0);
  const column = (pos?.first_column ?? 0) + 1;
  throw codedError('TEMPLATE_SYNTAX', `Template does not parse: ${message} (line ${line}, column ${column})`, {
    cause,
    details: { line, column },
  });
}

/**
 * Brackets, and blocks, nested deeper than this are refused before parsing: velocityjs's parser
 * takes time that grows much faster than the input on deeply nested expressions (8,000 nested
 * parentheses, 16 KB, take over a minute; 7,000 nested #if seconds), and the recursive compile
 * would exhaust the stack further on.
 */
export const MAX_TEMPLATE_NESTING = 256;

const BLOCK_TOKENS = /#\{?(if|foreach|macro|define|end)\b/g;

function tooDeep(what: string, source: string, at: number): never {
  const before = source.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  throw codedError('COMPILE_TOO_DEEP', `the template nests ${what} deeper than ${MAX_TEMPLATE_NESTING} (line ${line}, column ${column})`, {
    details: { limit: 'maxDepth', max: MAX_TEMPLATE_NESTING, line, column },
  });
}

function checkNesting(source: string): void {
  let blocks = 0;
  for (const m of source.matchAll(BLOCK_TOKENS)) {
    if (m[1] !== 'end') {
      if (++blocks > MAX_TEMPLATE_NESTING) tooDeep('blocks', source, m.index);
    } else if (blocks > 0) blocks--;
  }
  checkBrackets(source);
}

function checkBrackets(source: string): void {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x28 || c === 0x5b || c === 0x7b) {
      if (++depth > MAX_TEMPLATE_NESTING) tooDeep('brackets', source, i);
    } else if ((c === 0x29 || c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
}

/** No limit: for templates already parsed once under a budget (the code generator's second look). */
const UNBUDGETED = (): ParseBudget => parseBudget(Infinity, Infinity);

/**
 * Parse a template into nested nodes, its tokens and time counted against `budget`; `nested`
 * marks an interpolated string literal (with its position).
 */
export function parseTemplate(source: string, budget: ParseBudget = UNBUDGETED(), nested: { offset: Pos | undefined } | undefined = undefined): Node[] {
  return timedParse(budget, () => parse(source, budget, nested));
}

function parse(source: string, budget: ParseBudget, nested: { offset: Pos | undefined } | undefined): Node[] {
  const offset = nested?.offset;
  if (!nested) {
    checkNesting(source);
    if (HASH_BEFORE_DOLLAR.test(source)) checkHashBeforeReference(source);
    if (source.includes('.') && source.includes('(')) checkPropertyCalls(source);
  }
  // A nested string template was already rewritten as part of its parent.
  const rewritten = nested ? { text: source, column: (_l: number, c: number) => c } : rewriteEscapes(source, budget);
  // Velocity's lexer fails on a `#` that ends the template (velocityjs keeps it as text).
  // (Not the second `#` of an empty `##` comment: `a##` renders `a` in 1.7, nor the `#` that
  // ends a raw block or a block comment, which the rewrite made a raw block; a stray `*#` or
  // `]]#` is text that ends with `#`.)
  const text = rewritten.text;
  if (!nested && /(?<!\\)#$/.test(text) && !endsRawBlock(text) && !/(?<!#)##$/.test(source)) {
    const lines = source.split('\n');
    syntaxError("Encountered end of input after '#'", { first_line: lines.length, first_column: lines[lines.length - 1]!.length - 1 } as Pos, offset);
  }
  // Nor does it read a final `#*` or `#[[`, wherever it stands (in a comment too), unless its
  // `#` closes a raw block or a block comment, or opens a line comment (`#[[x]]#*`, `a##*`).
  if (!nested && /(?<!\]\]|\*|(?<!#)#)#(?:\*|\[\[)$/.test(source)) {
    const lines = source.split('\n');
    syntaxError('Encountered end of input after #* or #[[', { first_line: lines.length, first_column: lines[lines.length - 1]!.length - 1 } as Pos, offset);
  }
  const foreach = nested ? undefined : rewriteShortForeach(text);
  const parsed = foreach ? { text: foreach.text, column: (l: number, c: number) => rewritten.column(l, foreach.column(l, c)) } : rewritten;
  let flat: Flat[];
  try {
    flat = flatParse(parsed.text, budget);
  } catch (cause) {
    if (isTransformsError(cause)) throw cause;
    const failure = describeParseFailure(source, parsed, cause);
    return syntaxError(failure.message, { first_line: failure.line, first_column: failure.column - 1 } as Pos, offset, cause);
  }
  if (foreach) markShortForeach(flat, foreach.heads);
  if (parsed.text !== source) for (const node of flat) relocateAll(node, parsed.column);
  // velocityjs may cut a run of text into pieces (after a reference, each blank on its own):
  // join them, so that the gobbling below sees the text as Velocity's lexer does.
  flat = flat.reduce<Flat[]>((out, node) => {
    const last = out.length - 1;
    if (typeof node === 'string' && typeof out[last] === 'string') out[last] += node;
    else out.push(node);
    return out;
  }, []);
  for (let i = 0; i < flat.length; i++) {
    const node = flat[i]!;
    if (typeof node === 'string' || node.type === 'references' || node.type === 'raw') continue;
    if (node.type === 'comment' && String(node.value).startsWith('#*')) continue;
    const next = flat[i + 1];
    if (typeof next === 'string' && TRIM.test(next)) flat[i + 1] = next.replace(TRIM, '');
  }
  // Velocity 1.7's #set token includes the blanks before it: where they start a token (at the
  // start of the template, or right after a directive, comment or reference) they are eaten;
  // blanks that end a run of text stay ("a  #set(…)" keeps them).
  for (let i = 0; i < flat.length - 1; i++) {
    const node = flat[i]!;
    const next = flat[i + 1]!;
    if (typeof node !== 'string' || !BLANKS.test(node) || typeof next === 'string' || next.type !== 'set') continue;
    if (i === 0 || typeof flat[i - 1] !== 'string') flat[i] = '';
  }
  const [nodes, end] = nest(flat, 0, undefined, offset);
  if (end < flat.length) {
    const stray = flat[end] as { pos?: Pos };
    syntaxError('#end without an open block', stray.pos, offset);
  }
  return nodes;
}

function relocate(pos: Pos, column: (line: number, column: number) => number): Pos {
  return { ...pos, first_column: column(pos.first_line, pos.first_column) };
}

/** Positions in every node (conditions and arguments included) back to source columns. */
function relocateAll(node: unknown, column: (line: number, column: number) => number): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) relocateAll(n, column);
    return;
  }
  const record = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if (key === 'pos' && value && typeof value === 'object') record.pos = relocate(value as Pos, column);
    else if (value && typeof value === 'object') relocateAll(value, column);
  }
}

/** Nest from `start` until the #end of `open` (or the end of input at top level). */
function nest(flat: Flat[], start: number, open: { type: string; pos?: Pos } | undefined, offset: Pos | undefined): [Node[], number] {
  const out: Node[] = [];
  let i = start;
  // 1.7's grammar takes no #else or #elseif after an #if's #else.
  let seenElse = false;
  while (i < flat.length) {
    const node = flat[i]!;
    if (typeof node === 'string') {
      if (node) out.push(node);
      i++;
      continue;
    }
    if (node.type === 'end') {
      if (!open) return [out, i];
      return [out, i + 1];
    }
    if ((node.type === 'else' || node.type === 'elseif') && open?.type !== 'if') {
      syntaxError(`#${node.type} outside #if`, node.pos, offset);
    }
    if (node.type === 'else' || node.type === 'elseif') {
      if (seenElse) syntaxError(`#${node.type} after #else`, node.pos, offset);
      seenElse = node.type === 'else';
    }
    if (BLOCKS.has(node.type)) {
      const [children, next] = nest(flat, i + 1, node, offset);
      out.push([node, ...children]);
      i = next;
      continue;
    }
    out.push(node);
    i++;
  }
  if (open) syntaxError(`#${open.type} has no #end`, open.pos, offset);
  return [out, i];
}

/** The source text of a reference, for lenient rendering of unresolved references. */
export function referenceText(ast: unknown): string {
  return getRefText(ast as never);
}
