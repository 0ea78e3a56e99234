// A macro call's arguments as Velocity 1.7's lexer reads them (its directive state) and
// velocityjs cannot: a comma before the first, a lone `$` that vanishes, arguments written with
// nothing between them (`#two('s'-2)`, `#two("w"$a)`). Rewritten here into arguments velocityjs
// reads the same way (./hash-tokens.ts calls this for each macro call in text).

import { argumentRewriteAt } from './argument-prefixes.js';
import { syntaxAt } from './hash-tokens.js';

/**
 * 1.7's grammar takes a comma before each of a directive's arguments, the first included
 * (`#foo(,1)`, `#foo(, $a)`), but not two, nor one that nothing follows (`#foo(,)`), and needs
 * nothing between two arguments that its lexer can tell apart (`#two(1-2)` passes 1 and -2).
 * It reads a lone `$` among a macro call's arguments and drops it (`#foo($ 1)`, `#foo($ "s")`,
 * `#foo($ ,1)` bind the value after it to the first parameter, `#foo($)` passes none), but after
 * a blank a blank after it does not parse (`#foo( $ )`, `#foo(1 $ 2)`, line breaks count as blanks there). velocityjs reads none of
 * these: the arguments rewritten (blanks between the arguments), or undefined when unchanged.
 */
export function macroCallArguments(source: string, open: number, close: number): string | undefined {
  const args = source.slice(open + 1, close);
  let found = false;
  let kept = '';
  for (let k = 0; k < args.length; ) {
    const c = args[k]!;
    if (c === '"' || c === "'") {
      // (A quoted string is copied as it is.)
      const end = args.indexOf(c, k + 1);
      const stop = end < 0 ? args.length : end + 1;
      kept += args.slice(k, stop);
      k = stop;
      continue;
    }
    // A lone `$` vanishes, but between two arguments it still ends the one before it
    // (`#two(-2$1)` passes -2 and 1, `"w"$"w"` two strings); `.5`, `5.` are written out, and one
    // right after a reference or a word is an argument of its own (`#two($a.5)` passes `$a` and
    // 0.5): argument-prefixes.ts.
    const afterWord = c === '.' && /[A-Za-z_}]\w*$/.test(kept);
    const rewrite = argumentRewriteAt(source, open + 1 + k, afterWord ? ' ' : kept);
    if (rewrite) {
      kept += (afterWord ? ' ' : '') + rewrite.text;
      k = rewrite.next - open - 1;
      found = true;
      continue;
    }
    kept += c;
    k++;
  }
  const comma = /^\s*,/.exec(kept);
  if (comma) {
    if (/^\s*(?:,|$)/.test(kept.slice(comma[0].length))) syntaxAt(source, open + 1 + args.indexOf(','), 'a comma before no argument of a macro call');
    kept = kept.slice(comma[0].length);
    found = true;
  }
  const spaced = apart(kept);
  return spaced !== undefined ? spaced : found ? kept : undefined;
}

/**
 * One argument token of 1.7's directive state: a string (a doubled quote inside it is one quote
 * in 1.7, `'s''s'`: one token, never split), a number, a reference, a word; lists and maps are
 * read by balanced().
 */
const ARGUMENT = /"(?:[^"]|"")*"|'(?:[^']|'')*'|-?\d+(?:\.\d+)?|\$!?(?:\{[^}]*\}|[A-Za-z_][\w-]*)|[A-Za-z_][\w-]*/y;
const BETWEEN = /[\s,]+/y;

/**
 * The arguments with a blank between two that touch (`'s'-2` → `'s' -2`) or stand apart by tabs or
 * line breaks only, or undefined when none do or a character is not one this reads (left to velocityjs
 * as it is).
 */
function apart(args: string): string | undefined {
  let out = '';
  let at = 0;
  let touching = false;
  let previous = false;
  while (at < args.length) {
    BETWEEN.lastIndex = at;
    const gap = BETWEEN.exec(args);
    if (gap) {
      // velocityjs needs a space right after an argument (a tab or a line break is not one), and
      // reads a comma after blanks and a line break as none: the comma first (`1 \n,2` → `1, \n2`).
      const bare = previous && !gap[0].startsWith(' ') && !gap[0].includes(',');
      const comma = previous && /^[^,]+,[^,]*$/.test(gap[0]) ? `,${gap[0].replace(',', '')}` : gap[0];
      out += bare ? ` ${gap[0]}` : comma;
      touching ||= bare || comma !== gap[0];
      at += gap[0].length;
      previous = false;
      continue;
    }
    const end = argumentEnd(args, at);
    if (end < 0) return undefined;
    if (previous) {
      out += ' ';
      touching = true;
    }
    out += args.slice(at, end);
    at = end;
    previous = true;
  }
  return touching ? out : undefined;
}

/** Where the argument starting at `at` ends (its calls, indexes and properties, or its brackets, included), or -1. */
function argumentEnd(args: string, at: number): number {
  const c = args[at];
  if (c === '[' || c === '{') return balanced(args, at);
  ARGUMENT.lastIndex = at;
  const m = ARGUMENT.exec(args);
  if (!m) return -1;
  let end = at + m[0].length;
  if (c !== '$') return end;
  // A reference goes on through its properties, calls and indexes.
  for (;;) {
    const rest = args.slice(end);
    const property = /^\.[A-Za-z_][\w-]*/.exec(rest);
    if (property) end += property[0].length;
    else if (rest.startsWith('(') || rest.startsWith('[')) {
      end = balanced(args, end);
      if (end < 0) return -1;
    } else return end;
  }
}

/** The index after the bracket closing the one at `at` (quotes skipped), or -1. */
function balanced(args: string, at: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let k = at; k < args.length; k++) {
    const c = args[k]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && --depth === 0) return k + 1;
  }
  return -1;
}
