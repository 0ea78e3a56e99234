// `$` and `$!` among the arguments of a directive, a macro call or a method call, as Velocity
// 1.7's lexer reads them: its `$` and `$!` tokens (backslashes before them included) glue onto
// the token after them and mean nothing there. velocityjs reads none of this; ./escapes.ts and
// ./macro-arguments.ts rewrite each run with what this returns.
//
// Checked against Velocity 1.7 (the differential suite's pinned vectors): `#if($$a)` and
// `#if(\$a)` test `$a`; `#set($x = $1)`, `#set($x = $"s")`, `#if(1 $== 1)`, `[1$, 2]`,
// `$a.concat($ $a)` read as if the `$` were not there; `#if($true)` reads the literal `true`
// (`$truex` is a reference); a `$` with a blank on both sides does not parse (`#if(\n$ $a)`,
// `#set($x = $ 1)`), nor one before `[`, `#` or `.` and a letter.

import { syntaxAt } from './hash-tokens.js';
import { decimalLiteralAt } from './number-literals.js';

/** A run of 1.7's `$` and `$!` tokens (`("\\")* "$"`, `("\\")* "$" ("\\")* "!"`). */
const PREFIXES = /^(?:\\*\$(?:\\*!)?)+/;
/** Words 1.7 reads after the run as its literals, not as a reference's name. */
const KEYWORD = /^(?:true|false)(?![\w-])/;
/** What the run leaves to the grammar as it is (it does not parse there). */
const NOT_GLUED = /^(?:[[#]|\.(?![\d.]))/;
/** Characters that keep two arguments apart (no blank needed where the run was). */
const APART = /^$|[\s,.()[\]{}]/;
/** A `$` or `$!` that starts no plain reference: somewhere in the template, this rewrite may apply. */
export const ARGUMENT_PREFIX_ANYWHERE = /\$!?(?:(?![A-Za-z_{])|(?:true|false)(?![\w-]))/;

/**
 * The text that stands for the run of `$`s at `at` of `source` (inside arguments, outside quotes):
 * the last `$` or `$!` before a reference's name, nothing before a keyword or any other token (a
 * blank where it kept two tokens apart), with the length of the run; undefined when there is no
 * such run or it stays as written. Throws TEMPLATE_SYNTAX for a run with a blank on both sides.
 */
export function argumentPrefix(source: string, at: number): { text: string; length: number } | undefined {
  const run = PREFIXES.exec(source.slice(at, at + 200))?.[0];
  if (run === undefined) return undefined;
  const after = source.slice(at + run.length, at + run.length + 50);
  if (/^[A-Za-z_{]/.test(after) && !KEYWORD.test(after)) {
    const text = run.endsWith('!') ? '$!' : '$';
    return text === run ? undefined : { text, length: run.length };
  }
  if (NOT_GLUED.test(after)) return undefined;
  const before = source[at - 1] ?? '';
  if (/\s/.test(before) && /^\s/.test(after)) syntaxAt(source, at + run.length, "a blank after a lone '$' that follows a blank among arguments");
  return { text: APART.test(before) || APART.test(after.slice(0, 1)) ? '' : ' ', length: run.length };
}

/**
 * What replaces the text at `i` among arguments: `$`s glued to the token after them, or a number
 * literal velocityjs cannot read (number-literals.ts; `before` is the rewritten text before `i`),
 * and the index after it; undefined to copy it as it is.
 */
export function argumentRewriteAt(source: string, i: number, before: string): { text: string; next: number } | undefined {
  const c = source[i];
  if (c === '$' || c === '\\') {
    const prefix = argumentPrefix(source, i);
    return prefix && { text: prefix.text, next: i + prefix.length };
  }
  return c !== undefined && /[\d.]/.test(c) ? decimalLiteralAt(source, i, before) : undefined;
}
