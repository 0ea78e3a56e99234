// One run of backslashes at the top level or in a double-quoted string, read as Velocity 1.7
// reads it (escapes.ts describes the rules and rewrites the template with what this returns).

import { SEPARATOR, hashToken, raw, syntaxAt, vanishingPrefix } from './hash-tokens.js';
import { QUIET_NO_REFERENCE } from './rewrite-tails.js';

const REFERENCE_HEAD = /^\$!?\{?[A-Za-z_]/;
/**
 * An escaped reference (`\$a`, `\${a}`, `\$!a`, `\$a.b(…)`): one token of 1.7's lexer, kept
 * together, with its properties, calls and indexes (a reference among the call's arguments is
 * text there too: `\$a.concat($a)`).
 */
const ESCAPED_NAME = /^\$!?(?:\{[A-Za-z_]\w*\}|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*(?:\((?:[^()\n]|\([^()\n]*\))*\))?|\[[^\]\n]*\])*)?/;
const DIRECTIVE_HEAD = /^#\{?[A-Za-z]/;
/** The directives of 1.7's grammar and its directive objects (an escaped one loses its backslash). */
const DIRECTIVE_NAMES = new Set(['set', 'if', 'elseif', 'else', 'end', 'foreach', 'break', 'stop', 'macro', 'define', 'evaluate', 'include', 'parse', 'literal']);
const ESCAPED_DIRECTIVE = /^#(?:\{[A-Za-z]\w*\}|[A-Za-z]\w*)?/;

/** The text velocityjs should read for the backslashes at `start` and what they escape, and the index after them. */
export function escapeAt(source: string, start: number, topLevel: boolean): { text: string; next: number } {
  let k = 0;
  while (source[start + k] === '\\') k++;
  const after = source.slice(start + k, start + k + 200);
  const target = after[0];
  const run = source.slice(start, start + k);
  // A run of backslashes is a token of its own in 1.7 (blanks after it start the next one).
  if (target !== '$' && target !== '#') return { text: topLevel ? raw(run) : run, next: start + k };
  // A `#` that ends the template: 1.7's lexer fails on it, backslashes before it or not.
  if (topLevel && target === '#' && start + k + 1 === source.length) syntaxAt(source, start + k, "Encountered end of input after '#'");
  if (topLevel && target === '#' && (after[1] === '#' || after[1] === '*' || after.startsWith('#[['))) {
    // `\##`, `\#* *#`, `\#[[…]]#`: a backslash does not escape a comment or a raw block; the
    // run stays, the comment or raw block is one
    // (velocityjs needs it kept apart from the raw block: `]]###`).
    return { text: raw(run) + SEPARATOR, next: start + k };
  }
  // `\#  #set(…)`: the `#` vanishes into the #set (with its blanks), the run stays.
  const vanished = topLevel && target === '#' ? vanishingPrefix(source, start + k) : undefined;
  if (vanished !== undefined) return { text: raw(run), next: vanished };
  const head = target === '$' ? REFERENCE_HEAD.test(after) : DIRECTIVE_HEAD.test(after);
  if (head && target === '#' && topLevel) {
    // `\\#b`, `\\#{b}`, `\#end1`: a word that names no directive or macro call is text, and 1.7
    // keeps every backslash before it, whatever the length of the run.
    const token = hashToken(source, start + k);
    if (token?.raw) return { text: raw(run) + token.text, next: token.next };
    const word = /^#([A-Za-z_]\w*)(?![\w@]|[ \t]*\()/.exec(after);
    if (word && !DIRECTIVE_NAMES.has(word[1]!)) return { text: raw(run + word[0]), next: start + k + word[0].length };
  }
  if (!head) {
    // Nothing to escape: Velocity prints the backslashes and the character as they are (and
    // drops the `!` of a `$!` that starts no reference: `a\$!)` → `a\$)`).
    const bang = target === '$' && QUIET_NO_REFERENCE.exec(after.slice(0, 4))?.index === 0 && (!topLevel || start + k + 2 < source.length) ? 1 : 0;
    return { text: raw(run + target), next: start + k + 1 + bang };
  }
  // Right after a `$` or `$!` (`$\$a`, `$$\\$a`) the run is part of the reference's `$` token in
  // 1.7: it stays whole, and the reference renders after it.
  if (target === '$' && head && /\$!?$/.test(source.slice(Math.max(0, start - 2), start))) return { text: raw(run), next: start + k };
  if (k % 2 === 1) {
    // An escaped reference or directive: half the backslashes, then the text literally (a
    // reference with its name: the blanks after `\$a` start a token, as in 1.7).
    // (So is an escaped directive with its name: the blanks after `\#end` start a #set's.)
    const literal = (target === '$' ? ESCAPED_NAME : ESCAPED_DIRECTIVE).exec(after)![0];
    return { text: raw('\\'.repeat((k - 1) / 2) + literal), next: start + k + literal.length };
  }
  // An even run: half the backslashes, then the reference or directive itself.
  return { text: raw('\\'.repeat(k / 2)), next: start + k };
}
