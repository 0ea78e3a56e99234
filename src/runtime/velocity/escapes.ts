// Velocity's backslash escapes (https://developer.sailpoint.com/docs/extensibility/transforms/; "$ inside regex/replacement" of https://developer.sailpoint.com/docs/extensibility/transforms/operations/replace): velocityjs
// drops a backslash before every `$` and `#`, but Velocity keeps it unless it escapes a
// reference or a directive. That matters for regexes and Java replacements written in
// transforms (`\$` is a literal dollar in both): `"\$5"` must reach Java as `\$5`, not `$5`.
// This pass rewrites the escapes into raw blocks `#[[…]]#` that velocityjs emits verbatim
// (backslashes.ts reads one run), and maps positions back (column-map.ts). It also rewrites, at the top level, the text Velocity 1.7's lexer reads otherwise than velocityjs
// (hash-tokens.ts, lexer-states.ts): directive-like words, comments, `(` after a reference, calls
// that never close; and, among arguments, `$`s glued to a token and number literals velocityjs
// cannot read (argument-prefixes.ts). It stays one pass longer than 400 lines: every rule reads the
// state the rules before it left in the rewritten text (its tail), so the loop is where they meet;
// what each rule recognises lives in the modules it calls.

import { codedError } from '../../errors/index.js';
import { checkParseTime, type ParseBudget } from './grammar.js';
import { escapeAt } from './backslashes.js';
import { StringCalls, inStringRewrite } from './interpolated-strings.js';
import { columnMap } from './column-map.js';
import { ARGUMENT_PREFIX_ANYWHERE, argumentRewriteAt } from './argument-prefixes.js';
import { MARK, SEPARATOR, VANISHED, endsRawBlock, hashToken, prefixedRawBlock, raw, syntaxAt, textBreak, vanishingPrefix } from './hash-tokens.js';
import {
  BARE_REFERENCE_PAREN, END_THEN_PAREN, HYPHENATED_WORD_BEFORE_SET, PROPERTY_TAIL, PROPERTY_THEN_DIRECTIVE, PROPERTY_THEN_DIRECTIVE_TEXT,
  PROPERTY_THEN_REFERENCE, PROPERTY_THEN_SET, REFERENCE_THEN_DIRECTIVES, VANISHED_THEN_SETS, WORD_BEFORE_SET, callStateText,
  CALL_THEN_DIRECTIVE, checkCallArguments,
} from './lexer-states.js';
import {
  OUT_KEPT, QUIET_NO_REFERENCE, quietNoReference, UNNAMED_BRACE, HASH_TOKEN_ANYWHERE, HASH_AFTER_NAME, REFERENCE_TAIL, UNBRACED_REFERENCE_TAIL, INDEX_CANNOT_START, NO_INDEX_ANYWHERE, CALL_THEN_WORD, REFERENCE_THEN_BARE_DIRECTIVE, WORD_THEN_PAREN, WORD_PAREN_ANYWHERE, END_THEN_DOT, COMMA_HEAD, needsSeparator,
} from './rewrite-tails.js';
import {
  EXPONENT_ANYWHERE, INSIDE_LIST, LONG_NEGATIVE_ANYWHERE, NEGATIVE_INTEGER, POINT_LITERAL_ANYWHERE, UNARY_BEFORE, negativeLiteral,
} from './number-literals.js';

export { plainDecimal } from './number-literals.js';


/** After a directive name or a reference path, `(` opens arguments (quotes are strings there); not after the `#` that closes a raw block (`#1x(` is text). */
const CALL_BEFORE = /((?<!\]\])#\{?(?!(?:end|else)\b)[A-Za-z]\w*\}?\s*|\$!?\{?[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*|\)\.[A-Za-z_][\w-]*)$/;

/**
 * Rewrite backslash escapes the way Velocity reads them:
 * - `\$5`, `\$)`, `\#1` (no reference or directive follows): the text stays as written;
 * - `\$name`, `\#if` (an odd run of backslashes before a reference or directive): one level of
 *   backslashes is removed and the reference or directive is literal text — Velocity's
 *   `runtime.references.strict.escape` behaviour, which does not depend on whether `$name` is set;
 * - `\\$name` (an even run): half the backslashes, then the reference itself.
 * Inside single-quoted strings of directive or method arguments nothing is rewritten (they are
 * not interpolated).
 */
export interface Rewritten {
  text: string;
  /** Map a 0-based column on a 1-based line of `text` back to the source's column. */
  column(line: number, column: number): number;
}

const IDENTITY: Rewritten['column'] = (_line, column) => column;

/** A call's `(` inside a double-quoted string with no `)` before the string ends (`"$m.k("`: interpolated-strings.ts). */
const STRING_CALL_OPEN = /"[^"]*\.[A-Za-z_]\w*\([^)"]*"/;


export function rewriteEscapes(source: string, budget?: ParseBudget): Rewritten {
  if (
    !source.includes('\\') && !source.includes('#*') && !source.includes('#[[') && !EXPONENT_ANYWHERE.test(source) &&
    !LONG_NEGATIVE_ANYWHERE.test(source) && !HASH_AFTER_NAME.test(source) && !HASH_TOKEN_ANYWHERE.test(source) &&
    !WORD_PAREN_ANYWHERE.test(source) && !UNNAMED_BRACE.test(source) && !NO_INDEX_ANYWHERE.test(source) && !QUIET_NO_REFERENCE.test(source) &&
    !STRING_CALL_OPEN.test(source) && !ARGUMENT_PREFIX_ANYWHERE.test(source) && !POINT_LITERAL_ANYWHERE.test(source)
  ) {
    return { text: source, column: IDENTITY };
  }
  // The rewritten text is `head + out`: the state tests below read the end of `out`, and each
  // read of a string built by `+=` flattens it, so `out` keeps only its last OUT_KEPT characters
  // and the rest moves to `head` (never read until the end): linear in the template.
  let head = '';
  let out = '';
  const size = (): number => head.length + out.length;
  /** The rewritten text from `at` (a position in head + out) to its end. */
  const since = (at: number): string => (at >= head.length ? out.slice(at - head.length) : head.slice(at) + out);
  let depth = 0;
  let quote: string | null = null;
  // Whether the arguments open at depth 1 are a #macro's or a #foreach's, and the brackets open in them.
  let commas = { head: false, brackets: 0 };
  let i = 0;
  let line = 1;
  let lineStart = 0;
  // The last `$a(` written `${a}(` for velocityjs: where it ends in the output, and both forms.
  let bareParen: { at: number; braced: string; bare: string } | undefined;
  // Where the marker of the last `$` that vanished into a directive starts in `out`.
  let vanishedAt = -1;
  // The markers of the last run of one-line block comments in `out` ([start, end]): 1.7's lexer
  // keeps a property's state through them, so the state tests below read `out` without them.
  let comments: [number, number] = [-1, -1];
  const stateText = (): string => {
    const [start, end] = comments;
    if (start < 0 || size() - start > 300) return out.slice(-300);
    // A #end or #else the comment ended stays one (`#end#* c *#x`: not `#endx`).
    return since(Math.max(0, start - 300)).slice(0, start - Math.max(0, start - 300)).replace(/#(end|else)$/, '#{$1}') + since(end);
  };
  // Raw blocks lengthen a line: [line, rewritten column after the block, characters added].
  const shifts: Array<[number, number, number]> = [];
  const escape = () => {
    const r = escapeAt(source, i, depth === 0);
    // velocityjs cannot read a `#` right after a reference: an empty #if stands between them (in
    // an interpolated string too).
    const text = (depth === 0 || quote === '"') && needsSeparator(out, r.text) ? SEPARATOR + r.text : r.text;
    out += text;
    const added = text.length - (r.next - i);
    if (added !== 0) shifts.push([line, size() - lineStart, added]);
    i = r.next;
  };
  // The method calls open inside the current interpolated string.
  let stringCalls = new StringCalls();
  /** Append rewritten text that may hold line breaks (kept one for one with the source's). */
  const emit = (text: string) => {
    for (const ch of text) {
      if (ch === '\n') {
        line++;
        lineStart = size() + 1;
      }
      out += ch;
    }
  };
  while (i < source.length) {
    if (out.length > 2 * OUT_KEPT) {
      head += out.slice(0, -OUT_KEPT);
      out = out.slice(-OUT_KEPT);
    }
    if (budget && (i & 1023) === 0) checkParseTime(budget);
    const c = source[i]!;
    if (depth === 0 && c === '#' && !/^#(?:\{?[A-Za-z]|\*|#)/.test(source.slice(i, i + 3)) && (REFERENCE_TAIL.test(out.slice(-200)) || REFERENCE_THEN_BARE_DIRECTIVE.test(out.slice(-200)) || CALL_THEN_WORD.test(out.slice(-200)))) {
      // A `#` that starts no directive or comment right after a reference (`$a#1`, `$m#[[…]]#`),
      // after a reference and a directive without arguments (`$a#break#(x`), or after a word
      // right after a call or an index (`$l[0]x#(`).
      out += SEPARATOR;
      shifts.push([line, size() - lineStart, SEPARATOR.length]);
    }
    if (depth === 0 && c === '#' && END_THEN_DOT.test(source.slice(i, i + 10)) && REFERENCE_TAIL.test(out.slice(-200))) {
      // `$a#end.x`: velocityjs reads the `.x` after the #end as more of the reference; 1.7 as text.
      out += SEPARATOR;
      shifts.push([line, size() - lineStart, SEPARATOR.length]);
    }
    if (depth === 0 && c === '#' && source.startsWith('#[[', i)) {
      // A raw block is copied as it is (nothing inside is a comment or an escape).
      const end = source.indexOf(']]#', i + 3);
      if (end >= 0) {
        if (needsSeparator(out, '#[[')) {
          out += SEPARATOR;
          shifts.push([line, size() - lineStart, SEPARATOR.length]);
        }
        // (An empty one renders nothing: velocityjs reads `#[[]]#` as text, so it becomes a marker.)
        const block = end === i + 3 ? raw(MARK) : source.slice(i, end + 3);
        emit(block);
        if (block.length !== end + 3 - i) shifts.push([line, size() - lineStart, block.length - (end + 3 - i)]);
        i = end + 3;
        continue;
      }
      // 1.7's lexer fails on a raw block that never closes (velocityjs reads it as text).
      syntaxAt(source, i, '#[[ has no closing ]]#');
    }
    if (depth === 0 && c === '#' && source[i + 1] === '*') {
      const end = source.indexOf('*#', i + 2);
      if (end >= 0) {
        // A block comment renders nothing, and the line break after it stays. velocityjs misreads
        // one right after a reference (`$a#* c *#`), so it is dropped here: the lines it spans
        // become `##` line comments (which eat their line breaks), the rest of it a marker (a
        // token boundary, as in 1.7: the blanks after it start the next token, a directive
        // before it does not eat the line break after it).
        const lines = source.slice(i + 2, end).split('\n');
        for (const part of lines.slice(0, -1)) emit(`##${part}\n`);
        const mark = (needsSeparator(out, raw(MARK)) ? SEPARATOR : '') + raw(MARK);
        if (lines.length === 1) comments = [comments[1] === size() ? comments[0] : size(), size() + mark.length];
        out += mark;
        const lastLength = (lines.length === 1 ? 2 : 0) + lines[lines.length - 1]!.length + 2;
        shifts.push([line, size() - lineStart, mark.length - lastLength]);
        i = end + 2;
        continue;
      }
      // A block comment that never closes runs to the end of the template and renders nothing,
      // as in 1.7, whose lexer fails only when the template ends right after `#*`, or with `#` or `$`.
      if (i + 2 === source.length || /[#$]$/.test(source)) syntaxAt(source, source.length - 1, "Encountered end of input in '#*'");
      out += (needsSeparator(out, raw(MARK)) ? SEPARATOR : '') + raw(MARK);
      break;
    }
    if (depth === 0 && c === '#' && source[i + 1] === '#') {
      // A line comment: nothing in it is a token (it ends at the line break, which it eats).
      const end = source.indexOf('\n', i);
      const stop = end < 0 ? source.length : end;
      // Right after a property (`$m.k##`), 1.7 reads `##` as text, not as a comment.
      // So it does after one-line block comments there (`$m.k#* c *### c`, `#if(true)$m.k$a#end#* c *### c`).
      const state = stateText();
      if (PROPERTY_TAIL.test(state.slice(-200)) || PROPERTY_THEN_DIRECTIVE.test(state) || PROPERTY_THEN_SET.test(state)) {
        const text = SEPARATOR + raw('##');
        out += text;
        shifts.push([line, size() - lineStart, text.length - 2]);
        i += 2;
        continue;
      }
      // A comment that ends the template with `#` (`##x *#`): 1.7's lexer fails, as on any final
      // `#`; not an empty one (`a##`), whose last `#` is its own.
      if (end < 0 && source.endsWith('#') && source.length - i > 2) {
        const lines = source.split('\n');
        throw codedError('TEMPLATE_SYNTAX', `Template does not parse: Encountered end of input after '#' (line ${lines.length}, column ${lines[lines.length - 1]!.length})`, {
          details: { line: lines.length, column: lines[lines.length - 1]!.length },
        });
      }
      out += source.slice(i, stop);
      i = stop;
      continue;
    }
    if (depth === 0 && c === '$') {
      // `${`, `$!{` before anything but a name or a reference (`${}`, `${ a}`, `${` at the end):
      // 1.7 reads no reference there, and renders the text as written.
      const open = UNNAMED_BRACE.exec(source.slice(i, i + 200));
      if (open?.index === 0) {
        // A lone `#` right before it goes into the raw block (`#${`): `##[[` would be a comment.
        const hash = out.endsWith('#') && !endsRawBlock(head + out) ? '#' : '';
        if (hash) out = out.slice(0, -1);
        const text = (needsSeparator(out, '#') ? SEPARATOR : '') + raw(hash + open[0]);
        out += text;
        shifts.push([line, size() - lineStart, text.length - hash.length - open[0].length]);
        i += open[0].length;
        continue;
      }
    }
    const quiet = depth === 0 && c === '$' && i + 2 < source.length && vanishingPrefix(source, i) === undefined ? quietNoReference(source, i) : undefined;
    if (quiet) {
      // `a$!)`: a `$!` that starts no reference renders `$`, its `!` dropped by 1.7's lexer (one
      // that ends the template stays text, as a final `$` does; one before a #set's blanks vanishes).
      out += quiet.text;
      shifts.push([line, size() - lineStart, quiet.text.length - 2]);
      i = quiet.next;
      continue;
    }
    if (depth === 0 && (c === '$' || c === '#' || c === '\\')) {
      const block = prefixedRawBlock(source, i);
      if (block) {
        if (needsSeparator(out, '#[[')) {
          out += SEPARATOR;
          shifts.push([line, size() - lineStart, SEPARATOR.length]);
        }
        const text = raw(block.text);
        emit(text);
        // (Only the block's first line is shorter: the shift falls on its last line when that is the first.)
        const last = (t: string): number => t.length - t.lastIndexOf('\n') - 1;
        shifts.push([line, size() - lineStart, last(text) - last(source.slice(i, block.next))]);
        i = block.next;
        continue;
      }
      const text = textBreak(source, i);
      if (text) {
        out += text.text;
        shifts.push([line, size() - lineStart, text.text.length - (text.next - i)]);
        i = text.next;
        continue;
      }
      const next = vanishingPrefix(source, i);
      if (next !== undefined) {
        const mark = needsSeparator(out, raw(VANISHED)) ? SEPARATOR + raw(VANISHED) : raw(VANISHED);
        vanishedAt = size();
        out += mark;
        shifts.push([line, size() - lineStart, mark.length - (next - i)]);
        i = next;
        continue;
      }
      // `$a(`: a reference, then the text `(` (velocityjs would read a call of $a).
      const bare = c === '$' ? BARE_REFERENCE_PAREN.exec(source.slice(i, i + 200)) : null;
      if (bare) {
        const braced = `$${bare[1]}{${bare[2]}}`;
        out += braced;
        shifts.push([line, size() - lineStart, braced.length - bare[0].length]);
        i += bare[0].length;
        bareParen = { at: size(), braced, bare: bare[0] };
        continue;
      }
    }
    if (depth === 0 && (out.endsWith(')') || out.endsWith(']')) && /[A-Za-z_]/.test(c) && REFERENCE_TAIL.test(out.slice(-200))) {
      // A word right after a call or an index (`$a.length()Hi #set(…)`) is a token of its own in
      // 1.7 (the blanks after it start the #set's).
      const word = WORD_BEFORE_SET.exec(source.slice(i, i + 200));
      if (word) {
        const text = SEPARATOR + raw(word[0]);
        out += text;
        shifts.push([line, size() - lineStart, text.length - word[0].length]);
        i += word[0].length;
        continue;
      }
      if (WORD_THEN_PAREN.test(source.slice(i, i + 200))) {
        // `$a.length()x(y`: the word and the `(` are text, as in 1.7; velocityjs needs them kept
        // apart from the call.
        out += SEPARATOR;
        shifts.push([line, size() - lineStart, SEPARATOR.length]);
      }
    }
    if (
      depth === 0 && /[A-Za-z_]/.test(c) &&
      (REFERENCE_THEN_DIRECTIVES.test(out.slice(-300)) || (vanishedAt >= 0 && /[)\n\r]/.test(out.slice(-1)) && VANISHED_THEN_SETS.test(since(vanishedAt))))
    ) {
      // After a reference without braces, 1.7's lexer stays in its reference state through #set
      // directives and block comments (`$a#set($x = 1)Hi #set(…)`, `$a#* c *#x #set(…)`), and so
      // it does after a `$` that vanished into a #set (`$#set($x = 1)Hi #set(…)`): the word that
      // follows is a token of its own, and the blanks after it start the #set's.
      const word = HYPHENATED_WORD_BEFORE_SET.exec(source.slice(i, i + 200));
      if (word) {
        const text = raw(word[0]);
        out += text;
        shifts.push([line, size() - lineStart, text.length - word[0].length]);
        i += word[0].length;
        continue;
      }
    }
    if (depth === 0 && c === '(') {
      // Right after that directive, or a word after it, 1.7 reads a `(` as opening arguments:
      // closed (`#if(true)$m.k$a#end#set($x = 1)(1)`, `$m.k$a#if(true)x(1)#end`) it does not
      // parse; left open it is text (`$m.k$a#set($x = 1)x(1`).
      const state = stateText();
      const word = /[\w-]*$/.exec(state)![0];
      if (/^(?:[A-Za-z_][\w-]*)?$/.test(word) && PROPERTY_THEN_DIRECTIVE_TEXT.test(state.slice(0, state.length - word.length)) && !callStateText(source.slice(i + 1))) {
        syntaxAt(source, i, "the ( after a property, a reference and a directive has a closing ) (Velocity 1.7's lexer reads arguments)");
      }
      // A reference in that state, then `(` and `#` (`$m.k$a#elseif(…)$u$a.charAt(0)(#else x`):
      // 1.7 reads on in arguments there, as after `$a.b(#end`.
      // (The state tests read such a reference as it was written, not braced: `$m.k$i(#end x`.)
      const tail = bareParen?.at === size() ? out.slice(-300 - bareParen.braced.length, -bareParen.braced.length) + bareParen.bare : out.slice(-300);
      if (source[i + 1] === '#' && PROPERTY_THEN_REFERENCE.test(tail) && !callStateText(source.slice(i + 1))) {
        syntaxAt(source, i, "the ( after a property and references, then '#', reads on as arguments (Velocity 1.7's lexer) that do not close");
      }
      // So it does right after a property and block comments, or a word after them
      // (`$m.k#* c *#(x)`, `$m.k#* c *#x-y(1)`): there a `(` left open is text (`$m.k#* c *#(x`).
      const afterComment = comments[1] >= 0 && size() - comments[1] <= 200 ? since(comments[1]) : undefined;
      if (
        afterComment !== undefined && /^(?:[A-Za-z_][\w-]*)?$/.test(afterComment) &&
        PROPERTY_TAIL.test(state.slice(0, state.length - afterComment.length)) && !callStateText(source.slice(i + 1))
      ) {
        syntaxAt(source, i, "the ( after a property and a block comment has a closing ) (Velocity 1.7's lexer reads arguments)");
      }
    }
    if (depth === 0 && c === '[') {
      // A word right after that directive (`$m.k$a#if(true)x[1]#end`): 1.7 reads the `[…]` right
      // after it as indexes of nothing and renders none of them; one left open does not parse.
      const state = stateText();
      const word = /[\w-]*$/.exec(state)![0];
      if (/^[A-Za-z_][\w-]*$/.test(word) && PROPERTY_THEN_DIRECTIVE_TEXT.test(state.slice(0, state.length - word.length))) {
        const start = i;
        while (source[i] === '[') {
          const index = /^\[[^[\]\n]*\]/.exec(source.slice(i, i + 300));
          if (!index) syntaxAt(source, i, "'[' after a property, a reference, a directive and a word (Velocity 1.7's lexer reads an index) has no ]");
          i += index[0].length;
        }
        shifts.push([line, size() - lineStart, start - i]);
        continue;
      }
    }
    if (depth === 0 && c === '[' && PROPERTY_THEN_DIRECTIVE_TEXT.test(out.slice(-300)) && !(/\$!?[A-Za-z_][\w.]*$/.test(out) && /^\[[^\]]*\]/.test(source.slice(i, i + 200)))) {
      syntaxAt(source, i, "'[' after a property, a reference and a directive (Velocity 1.7's lexer reads an index)");
    }
    if (depth === 0 && c === '[' && INDEX_CANNOT_START.test(source.slice(i, i + 200)) && UNBRACED_REFERENCE_TAIL.test(out.slice(-200))) {
      // Right after a reference without braces 1.7's lexer reads a `[` as an index, whatever
      // follows (`$l[x]`, `$l[` at the end do not parse); velocityjs reads such a `[` as text.
      syntaxAt(source, i, "'[' after a reference opens an index (Velocity 1.7's lexer), and what follows is none");
    }
    if (depth === 0 && c === '#' && PROPERTY_THEN_REFERENCE.test(out.slice(-300))) {
      // `$m.k$a#end(x)`, `#if(true)$m.k$a#else(x)#end`: past the #end or #else of that property
      // state, a `(` opens arguments in 1.7.
      const paren = END_THEN_PAREN.exec(source.slice(i, i + 50));
      if (paren && !callStateText(source.slice(i + paren[0].length))) syntaxAt(source, i + paren[0].length - 1, `the ( after ${paren[0].slice(0, paren[0].indexOf('('))} has no closing )`);
    }
    if (depth === 0 && c === '#') {
      const token = hashToken(source, i);
      if (token) {
        if (needsSeparator(out, token.text)) {
          // Its own shift, so that the token's position maps back to its `#`.
          out += SEPARATOR;
          shifts.push([line, size() - lineStart, SEPARATOR.length]);
        }
        const text = token.text;
        if (token.opens) depth++;
        // (A macro call's arguments may span lines.)
        const lines = token.text.split('\n');
        line += lines.length - 1;
        if (lines.length > 1) lineStart = size() + text.length - lines[lines.length - 1]!.length;
        out += text;
        const added = text.length - (token.next - i);
        if (added !== 0) shifts.push([line, size() - lineStart, added]);
        i = token.next;
        continue;
      }
    }
    if (c === '\n') {
      line++;
      lineStart = size() + 1;
    }
    if (depth > 0 && quote !== null) {
      // Inside a method call of an interpolated string, its arguments read as anywhere else
      // (`"$a.concat($$a)"`, `"$a.substring(1$)"`; a single-quoted argument is not read).
      const rewrite = c !== quote && stringCalls.inArguments ? argumentRewriteAt(source, i, out) : undefined;
      if (rewrite) {
        out += rewrite.text;
        shifts.push([line, size() - lineStart, rewrite.text.length - (rewrite.next - i)]);
        i = rewrite.next;
        continue;
      }
      if (c === quote) {
        quote = null;
        stringCalls = new StringCalls();
      } else if (c === '\\' && quote === '"') {
        escape();
        continue;
      } else if (quote === '"') {
        const rewrite = inStringRewrite(source, i, out);
        if (rewrite) {
          out += rewrite.text;
          shifts.push([line, size() - lineStart, rewrite.text.length - (rewrite.next - i)]);
          i = rewrite.next;
          continue;
        }
        stringCalls.read(c, out);
      }
      out += c;
      i++;
      continue;
    }
    if (depth > 0) {
      // `#if($$a)`, `#set($x = $1)`, `#set($x = .5)`.
      const rewrite = argumentRewriteAt(source, i, out);
      if (rewrite) {
        out += rewrite.text;
        if (rewrite.text.length !== rewrite.next - i) shifts.push([line, size() - lineStart, rewrite.text.length - (rewrite.next - i)]);
        i = rewrite.next;
        continue;
      }
    }
    if (c === '\\') {
      escape();
      continue;
    }
    if (depth > 0 && c === '-' && UNARY_BEFORE.test(head ? `\u0000${out}` : out) && !INSIDE_LIST.test(out.slice(-200))) {
      const m = NEGATIVE_INTEGER.exec(source.slice(i, i + 400));
      if (m && !Number.isSafeInteger(Number(m[0]))) {
        const exact = negativeLiteral(m[1]!);
        out += exact;
        i += m[0].length;
        shifts.push([line, size() - lineStart, exact.length - m[0].length]);
        continue;
      }
    }
    if (c === '(' && depth === 0 && /[)\]]$/.test(out) && UNBRACED_REFERENCE_TAIL.test(out.slice(-200))) {
      // `$a.charAt(0)(x)`, `$l[0](x`: 1.7 ends the reference at the call's `)` or the index's `]`
      // and renders the `(` as text; velocityjs would read on as another call.
      out += SEPARATOR;
      shifts.push([line, size() - lineStart, SEPARATOR.length]);
    }
    // Only the end of the output can precede this `(`: look at a bounded tail, not all of it.
    if (c === '(' && depth === 0 && CALL_BEFORE.test(out.slice(-120)) && out.slice(-120).match(CALL_BEFORE)![0].startsWith('$')) {
      const after = source.slice(i + 1, i + 200);
      // (`$`s that vanish into a directive right after it leave it before that directive: `$m.k($#end`.)
      const beforeDirective = CALL_THEN_DIRECTIVE.test(after);
      if (beforeDirective && !callStateText(source.slice(i + 1))) {
        // `$a.b(#end x`: 1.7's lexer reads the #end, and what follows, in the call's arguments.
        syntaxAt(source, i, "the method call's ( has no closing )");
      }
      if (i + 1 === source.length || beforeDirective) {
        // `$a.b(` at the end or before a directive, a raw block or a comment: 1.7 reads the
        // property, then the text `(`.
        const text = SEPARATOR + raw(c);
        out += text;
        shifts.push([line, size() - lineStart, text.length - 1]);
        i++;
        continue;
      }
      // A method call in text: 1.7 reads its arguments up to the closing `)`; a template that
      // ends first, or a `#` among them, does not parse.
      checkCallArguments(source, i);
    }
    if (depth === 1 && commas.head) {
      // A comma between the arguments of #macro or #foreach: a blank for velocityjs (same length).
      if (c === '[' || c === '{') commas.brackets++;
      else if ((c === ']' || c === '}') && commas.brackets > 0) commas.brackets--;
      else if (c === ',' && commas.brackets === 0) {
        if (/^[ \t\r\n]*[,)]/.test(source.slice(i + 1, i + 200))) syntaxAt(source, i, 'a comma before no argument of a directive');
        out += ' ';
        i++;
        continue;
      }
    }
    if (c === '(' && (depth > 0 || CALL_BEFORE.test(out.slice(-120)))) {
      // 1.7's grammar takes a comma before each argument of a directive, the first included
      // (`#macro(test2 $a, $b)`, `#macro(,f $p)`, `#foreach($i, in, $l)`); velocityjs, none.
      if (depth === 0) commas = { head: COMMA_HEAD.test(out.slice(-20)), brackets: 0 };
      depth++;
    } else if (c === ')' && depth > 0) depth--;
    else if (depth > 0 && (c === '"' || c === "'")) quote = c;
    out += c;
    i++;
  }
  const text = head + out;
  if (shifts.length === 0) return { text, column: IDENTITY };
  return { text, column: columnMap(shifts) };
}
