// Velocity 1.7's lexer around `#` and `$` where velocityjs's grammar reads the text otherwise.
// The rewrite pass (escapes.ts) calls these at the top level of the template (outside directive
// and method arguments) and emits what velocityjs should see instead:
//
// - `#` followed by a word of letters, digits, `_` and `@` (`#breakHi`, `#foo`, `#break@x`,
//   `#@`) or by a number (`#1`, `#-1.5`) is one token of 1.7's lexer, rendered as text when it
//   names no directive. It becomes a raw block, so that the blanks after it start a token: before
//   a #set they are eaten (`#breakHi #set($x = 1)b` renders `#breakHib`), as 1.7 does.
//   velocityjs would read `#break@x` as #break and `#if@x` as a broken #if.
// - `#end` followed by word characters (`#endx`) is, for 1.7, a call of the macro `endx`: an
//   error in strict mode ("Macro '#endx' is not defined"), its text otherwise.
// - `$`, `$!` and `#` directly before the blanks of a #set, or `$` directly before a directive
//   (`x$ #set(…)`, `x$#if(…)`), are the start of the directive's token in 1.7 and vanish with it.
// - `#break(…)`: 1.7 reads arguments after #break (a scope, `#break($foreach)`). Empty ones are
//   dropped; an unclosed list, a directive or a bare word inside is a syntax error.
// - `$` or `$!` right before #foreach, #macro or #define, and a #set that 1.7's lexer reaches
//   from a `#` right before a reference (`#${a}#set(…)`, checkHashBeforeReference), do not parse.

import { codedError } from '../../errors/index.js';
import { macroCallArguments } from './macro-arguments.js';

/** Directive names velocityjs's grammar reads itself (a word followed by `(` is a macro call). */
const DIRECTIVES = new Set(['set', 'if', 'elseif', 'else', 'end', 'break', 'foreach', 'noescape', 'define', 'macro']);
const WORD = /^#([A-Za-z_@][A-Za-z0-9_@]*)/;
const BRACED_WORD = /^#\{([A-Za-z_][A-Za-z0-9_@]*)\}/;
const NUMBER = /^#-?\d+(?:\.\d*)?/;
/** Blanks and line breaks, then `(`: 1.7 reads a directive's or a macro call's arguments there. */
const CALL_AFTER = /^[ \t\r\n]*\(/;
/** The prefixes 1.7's lexer glues to the next token (its MORE rules for `$`, `$!` and `#`). */
const PREFIXES = /^(?:\\*\$!?|#)+/;
const DOLLARS = /^(?:\\*\$!?)+/;
const SET_AFTER_BLANKS = /^[ \t]+#(?:set|\{set\})[ \t]*\(/;
const DIRECTIVE_AFTER = /^#\{?(?:set|if|elseif|else|end|foreach|macro|define)(?![\w@])/;

export interface Token {
  /** What velocityjs should read instead (empty: the source text vanishes). */
  readonly text: string;
  /** Index in the source after the token. */
  readonly next: number;
  /** True when `text` is a raw block holding the source text. */
  readonly raw?: boolean;
  /** True when `text` ends inside the arguments it opened (the pass reads them on). */
  readonly opens?: boolean;
}

/**
 * The content of a raw block the renderer reads as a marker, not text: `#[[\u0000]]#` renders
 * nothing and keeps apart what velocityjs would join (blanks before a vanished `$` stay text).
 */
export const MARK = '\u0000';

/** The marker of `$`s that vanished into a directive (lexer-states.ts tells it from a block comment's). */
export const VANISHED = '\u0000\u0000';

/** An empty #if: keeps apart two tokens velocityjs would read as one. */
export const SEPARATOR = '#if(false)#{end}';

/** A raw block holding `text` (velocityjs emits it verbatim). */
export function raw(text: string): string {
  return `#[[${text}]]#`;
}

/** Whether rewritten template text ends with the `]]#` that closes its last raw block (`#[[…]]#`), not with a stray one. */
export function endsRawBlock(text: string): boolean {
  if (!text.endsWith(']]#')) return false;
  const start = text.lastIndexOf('#[[');
  return start >= 0 && text.indexOf(']]#', start + 3) === text.length - 3;
}

/** A TEMPLATE_SYNTAX error at offset `at` of the template, with its line and column. */
export function syntaxAt(source: string, at: number, message: string): never {
  const before = source.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  throw codedError('TEMPLATE_SYNTAX', `Template does not parse: ${message} (line ${line}, column ${column})`, { details: { line, column } });
}

/** A `#` token at `i` (top level) that velocityjs must see differently, or undefined. */
export function hashToken(source: string, i: number): Token | undefined {
  const tail = source.slice(i, i + 200);
  // `#$1`: a number after `#$` is one token with them, as `#1` is (the blanks before a #set after
  // it are eaten); so after `#\$`, whose backslashes belong to 1.7's `$` token.
  const dollarNumber = /^#\\*\$-?\d+(?:\.\d*)?(?!\w)/.exec(tail);
  if (dollarNumber) return { text: raw(dollarNumber[0]), next: i + dollarNumber[0].length, raw: true };
  // `#\`: the backslashes after a lone `#` escape nothing (`#\$a` renders `#\` and $a).
  const backslashes = /^#\\+/.exec(tail);
  if (backslashes) return { text: raw(backslashes[0]), next: i + backslashes[0].length, raw: true };
  const braced = BRACED_WORD.exec(tail);
  if (braced) {
    const name = braced[1]!;
    if (i + braced[0].length === source.length) atEnd(source, i, name);
    if (DIRECTIVES.has(name) || CALL_AFTER.test(source.slice(i + braced[0].length, i + braced[0].length + 50))) return undefined;
    return { text: raw(braced[0]), next: i + braced[0].length, raw: true };
  }
  const number = NUMBER.exec(tail);
  if (number) return { text: raw(number[0]), next: i + number[0].length, raw: true };
  const word = WORD.exec(tail);
  if (!word) return undefined;
  const name = word[1]!;
  const next = i + word[0].length;
  const after = source.slice(next, next + 50);
  if (next === source.length) atEnd(source, i, name);
  if (name === 'break' && CALL_AFTER.test(after)) return breakArguments(source, i, next);
  // `#end(`, `#else(`: the directive, then the text `(` (they take no arguments).
  if ((name === 'end' || name === 'else') && after.startsWith('(')) return { text: `#{${name}}`, next };
  // `#set` without its `(` is text (`a#set x`, `#set\nx`).
  if (name === 'set' && !CALL_AFTER.test(after)) return { text: raw(word[0]), next, raw: true };
  if (DIRECTIVES.has(name)) return undefined;
  if (CALL_AFTER.test(after)) {
    // 1.7 calls the macro `break@x`, which no #macro can define.
    if (name.includes('@')) return syntaxAt(source, i, `'#${name}' is not a directive or a macro name`);
    const open = source.indexOf('(', next);
    const close = closingParen(source, open);
    if (close < 0) return syntaxAt(source, i, `#${name}( has no closing )`);
    // A directive among the arguments (`#e(#n)`) does not parse.
    const inner = directiveInArguments(source, open, close);
    if (inner >= 0) return syntaxAt(source, inner, `a directive inside the arguments of #${name}(`);
    // `#name\n(…)`: a call all the same; velocityjs needs the `(` right after the name (the line
    // breaks move inside the arguments, so that lines stay where they were).
    if (/[\r\n]/.test(source.slice(next, open))) return { text: `#${name}(${source.slice(next, open)}`, next: open + 1, opens: true };
    const args = macroCallArguments(source, open, close);
    return args === undefined ? undefined : { text: `${source.slice(i, open)}(${args})`, next: close + 1 };
  }
  if (name.startsWith('end') && /^end[A-Za-z0-9_]+$/.test(name)) return { text: `#${name}()`, next };
  return { text: raw(word[0]), next, raw: true };
}

/** Directives that 1.7 fails on when the template ends right after their name (no arguments). */
const NEED_ARGUMENTS = new Set(['if', 'elseif', 'foreach', 'macro', 'define', 'evaluate']);

function atEnd(source: string, i: number, name: string): void {
  if (NEED_ARGUMENTS.has(name)) syntaxAt(source, i, `#${name} ends the template without its arguments`);
}

/**
 * The index of the `)` closing the `(` at `open` (quotes skipped), or -1; with `stopAtHash`, -1
 * too when a `#` comes first outside quotes (a directive inside a call's arguments does not parse).
 */
export function closingParen(source: string, open: number, stopAtHash = false): number {
  let depth = 0;
  let quote: string | null = null;
  for (let k = open; k < source.length; k++) {
    const c = source[k]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return k;
    else if (c === '#' && stopAtHash) return -1;
  }
  return -1;
}

/** The offset of a `#` that starts a directive (`#name`, `#{name}`) between `open` and `close`, outside quotes, or -1. */
function directiveInArguments(source: string, open: number, close: number): number {
  let quote: string | null = null;
  for (let k = open + 1; k < close; k++) {
    const c = source[k]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && /^#\{?[A-Za-z]/.test(source.slice(k, k + 3))) return k;
  }
  return -1;
}

/** `#break(…)`: empty arguments dropped; what 1.7 cannot parse refused. */
function breakArguments(source: string, start: number, afterName: number): Token | undefined {
  const open = source.indexOf('(', afterName);
  let depth = 0;
  let quote: string | null = null;
  for (let k = open; k < source.length; k++) {
    const c = source[k]!;
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '#') break;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) {
      const args = source.slice(open + 1, k);
      if (/^\s*$/.test(args)) {
        // `#break( )x`: the directive, then the text (kept apart from it).
        const sep = /^[A-Za-z0-9_]/.test(source.slice(k + 1, k + 2)) ? SEPARATOR : '';
        return { text: `#break${sep}`, next: k + 1 };
      }
      if (/^\s*[A-Za-z_]\w*\s*$/.test(args)) return syntaxAt(source, open + 1, `#break takes a scope reference, not '${args.trim()}'`);
      return undefined;
    }
  }
  return syntaxAt(source, start, '#break( has no closing )');
}

/** `$`s (`$!`, backslashes before them) and `#`s right before a raw block, with a `$` among them (`##[[` is a comment). */
const RAW_BLOCK_PREFIXES = /^(?:\\*\$(?:\\*!)?|#)*\\*\$(?:\\*!)?(?=#\[\[)/;

/**
 * A raw block with the prefixes 1.7's lexer glues to it (`a$#[[x]]#`): they are part of its
 * token, whose first three and last three characters ASTTextblock cuts off, so the cut falls
 * inside `prefixes + #[[` (`a$#[[x]]#` renders `a[x`, `a$!#[[x]]#` and `a#$#[[x]]#` `a[[x`). The
 * text the block renders and the index after it, or undefined (no such prefixes, or a block that
 * never closes).
 */
export function prefixedRawBlock(source: string, i: number): { text: string; next: number } | undefined {
  const prefixes = RAW_BLOCK_PREFIXES.exec(source.slice(i, i + 200));
  if (!prefixes) return undefined;
  const open = i + prefixes[0].length;
  const close = source.indexOf(']]#', open + 3);
  return close < 0 ? undefined : { text: source.slice(i, close).slice(3), next: close + 3 };
}

/**
 * `$#break`, `$!#break`: 1.7 reads the `$`s and #break (a directive its grammar does not know by
 * name) as one token of text, which renders as written and breaks nothing.
 */
export function textBreak(source: string, i: number): Token | undefined {
  const m = /^(?:\\*\$!?)+#\{?break\}?(?![\w@])/.exec(source.slice(i, i + 100));
  return m ? { text: raw(m[0]), next: i + m[0].length, raw: true } : undefined;
}

/** `$`, `$!` and `#` at `i` that 1.7 glues to the directive after them: the index after what vanishes. */
export function vanishingPrefix(source: string, i: number): number | undefined {
  const tail = source.slice(i, i + 200);
  const dollars = DOLLARS.exec(tail);
  // (So do they before a block comment that is not empty: `a$#* c *#x` renders `ax`, `a$#**#x` `a$x`.)
  // (And before an escaped directive, whose backslashes then escape it: `a$\#end` renders `a#end`.)
  if (dollars && (DIRECTIVE_AFTER.test(tail.slice(dollars[0].length).replace(/^\\+(?=#)/, '')) || /^#\*(?!\*#)/.test(tail.slice(dollars[0].length)))) {
    // 1.7's grammar cannot read #foreach, #macro or #define as the rest of a `$` token.
    if (/^#\{?(?:foreach|macro|define)\b/.test(tail.slice(dollars[0].length))) {
      return syntaxAt(source, i, `'${dollars[0]}' right before #${/^#\{?(\w+)/.exec(tail.slice(dollars[0].length))![1]}`);
    }
    return i + dollars[0].length;
  }
  const m = PREFIXES.exec(tail);
  if (!m || m[0].includes('##')) return undefined;
  const rest = tail.slice(m[0].length);
  // Before an escaped directive or word (`$#\#if(…)`, `#\#set(…)`: it renders `#if(…)`, `#set(…)`),
  // and before a block comment that is not empty (`#$#* c *#x` renders `x`), they all vanish.
  if (/^(?:\\\\)*\\#\{?[A-Za-z]/.test(rest)) return i + m[0].length;
  if (m[0].length > 1 && m[0].endsWith('#') && /^\*(?!\*#)/.test(rest)) return i + m[0].length - 1;
  if (m[0].includes('#') && /[$!]$/.test(m[0]) && /^@(?!@)/.test(rest)) {
    // `#$@x`: the prefixes start the token of a block macro call's `#@` and vanish (1.7 renders
    // `@x`); with arguments (`#$@(`, `#$@x (…)`) it does not parse.
    if (/^@[A-Za-z0-9_]*[ \t]*\(/.test(rest)) return syntaxAt(source, i, `'${m[0]}@' starts a block macro call that 1.7 cannot read`);
    return i + m[0].length;
  }
  if (SET_AFTER_BLANKS.test(rest)) return i + m[0].length + /^[ \t]+/.exec(rest)![0].length;
  return undefined;
}

const STALE_REFERENCE = /^\$!?(?:(\{)[A-Za-z_]\w*(?:\.[A-Za-z_]\w*(?:\([^()#]*\))?)*\}|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*(?:\([^()#]*\))?|\[[^\]#]*\])*)/;
/**
 * A directive that keeps the state (with the `$` that vanish into it), or a line comment (with
 * the line break it ends on), read like one.
 */
const STALE_DIRECTIVE = /^(?:(?:\$!?)*#\{?(?:(?:end|else)\b\}?|(?:if|elseif|foreach)\}?[ \t]*\((?:[^()#]|\([^()#]*\))*\))(?:[ \t]*(?:\r\n|\n|\r))?|##[^\r\n]*(?:\r\n|\n|\r))/;
const SET_HEAD = /^#\{?set\}?[ \t]*\(/;
const HASH_WORD_THEN_SET = /^\$!?#(?:\{[A-Za-z_]\w*\}|[A-Za-z_@][\w@]*|-?\d+(?:\.\d*)?)#\{?set\}?[ \t]*\(/;
const WORD_TOKEN_THEN_SET = /^#(?!\{?(?:set|if|elseif|else|end|foreach|break|macro|define)\b)(?:\{[A-Za-z_]\w*\}|[A-Za-z_@][\w@]*|-?\d+(?:\.\d*)?)#\{?set\}?[ \t]*\(/;
/** The same after text (no blank) that follows a reference: `#$l[0]x#e#set(…)`. */
const TEXT_THEN_WORD_TOKEN_SET = new RegExp(`^[^\\s#$]*${WORD_TOKEN_THEN_SET.source.slice(1)}`);
const WORD_CALL = /^[A-Za-z_]\w*[ \t]*\(/;
/** What a macro call's arguments may hold: references, literals, lists and maps, apart by blanks or commas. */
const MACRO_ARGUMENTS = /^[ \t\r\n,]*(?:(?:\$!?\{?[A-Za-z_][\w.]*\}?|"[^"#]*"|'[^']*'|-?\d+(?:\.\d+)?|true|false|\[[^\]#]*\]|\{[^}#]*\})[ \t\r\n,]*)*$/;
/** The arguments of the call whose `(` is at `open`, or null when it has no closing `)` before a `#`. */
function callArguments(source: string, open: number): string | null {
  const close = closingParen(source, open, true);
  return close < 0 ? null : source.slice(open + 1, close);
}
const BLOCK_CALL = /^@[A-Za-z0-9_]*[ \t]*\(/;

/** A `#`, then a `$` (1.7's `$` token: backslashes before it included). */
export const HASH_BEFORE_DOLLAR = /#\\*\$/;
const HASHES_BEFORE_DOLLARS = new RegExp(HASH_BEFORE_DOLLAR.source, 'g');

/**
 * A `#` right before a reference (`#$a`, `#${a}`, `#\$a`) leaves 1.7's lexer with a state too many. It
 * reads on as long as only directives (with the blanks and line break they eat), references
 * right before a directive or a #set, and #sets follow; a #set right after a directive or a
 * braced reference does not parse there (`#${a}#set(…)`, `#if(…)#$a#end\n#set(…)`,
 * `#$a#set(…)#else\n#set(…)`), one right after the `#$a` itself, a #set, text or a plain
 * reference does (`#$a#set(…)`, `#$a#set(…)#set(…)`). Text, or a reference followed by text,
 * ends that state — but once a #set or a block comment was read in it, only text holding a blank
 * or a line break, or a word ending the body of a block opened in it, does
 * (`#$a#set(…)x#if(…)#end#set(…)` and `#if(…)#$a#* c *#x#end\n#set(…)` do not parse;
 * `#$a#set(…) x#if(…)#end#set(…)` and `#$a#set(…)#if(…)x#end#set(…)` do).
 * Throws TEMPLATE_SYNTAX at such a #set.
 */
export function checkHashBeforeReference(source: string): void {
  for (const hash of source.matchAll(HASHES_BEFORE_DOLLARS)) {
    const k = hash.index;
    if (k > 0 && /[*#\]\\]/.test(source[k - 1]!)) continue;
    // (Backslashes between them belong to 1.7's `$` token: `#\$a` leaves the same state.)
    let i = k + hash[0].length - 1;
    // What was read last: a #set is refused right after a directive or a braced reference.
    let last: 'start' | 'reference' | 'braced' | 'directive' | 'set' | 'text' = 'start';
    // After a #set, text on the same line no longer ends the state.
    let sticky = false;
    // Blocks (#if, #foreach) opened inside the state and not yet closed.
    let opened = 0;
    // `#$#e#set(…)`: a `#$` before a word token and a #set does not parse either.
    if (HASH_WORD_THEN_SET.test(source.slice(i, i + 300))) syntaxAt(source, k, "a #set after '#$' and a word (Velocity 1.7's lexer cannot read it)");
    // More `$` before the reference are part of the same token (`#$$a`).
    while (/^\$!?\$/.test(source.slice(i, i + 3))) i += source[i + 1] === '!' ? 2 : 1;
    // Nor does `#$[`.
    if (/^\$!?\[/.test(source.slice(i, i + 3))) syntaxAt(source, k, "'#$[' (Velocity 1.7's lexer cannot read it)");
    for (;;) {
      const tail = source.slice(i, i + 300);
      // Nor does a block macro call's `@name(`, nor a `$[` right after a directive.
      if (BLOCK_CALL.test(tail)) syntaxAt(source, i, "'@' and arguments after '#' and a reference (Velocity 1.7's lexer reads a block macro call)");
      if (last === 'directive' && tail.startsWith('$[')) syntaxAt(source, i, "'$[' after '#', a reference and a directive (Velocity 1.7's lexer cannot read it)");
      // A word token right before a #set (`#$a#e#set(…)`) does not parse in that state, and a word
      // right after a directive, then `(`, is a macro call (`#$a#if(true)t(…)`): unclosed, or
      // with arguments no macro call takes (`t(])`), it does not parse.
      if (WORD_TOKEN_THEN_SET.test(tail)) syntaxAt(source, i, "a #set right after a word token after '#' and a reference (Velocity 1.7's lexer cannot read it)");
      if (last === 'directive' && WORD_CALL.test(tail) && !MACRO_ARGUMENTS.test(callArguments(source, source.indexOf('(', i)) ?? '#')) {
        syntaxAt(source, i, "a word and '(' after '#', a reference and a directive open a macro call (Velocity 1.7's lexer) whose arguments do not parse");
      }
      if (tail.startsWith('#*')) {
        // A block comment is no token, but like a #set it keeps the state past a word.
        const end = source.indexOf('*#', i + 2);
        if (end < 0) break;
        i = end + 2;
        sticky = true;
        continue;
      }
      const ref = STALE_REFERENCE.exec(tail);
      if (ref) {
        i += ref[0].length;
        const after = source.slice(i, i + 300);
        if (TEXT_THEN_WORD_TOKEN_SET.test(after)) syntaxAt(source, i, "a #set right after a word token after '#' and a reference (Velocity 1.7's lexer cannot read it)");
        if (BLOCK_CALL.test(after)) syntaxAt(source, i, "'@' and arguments after '#' and a reference (Velocity 1.7's lexer reads a block macro call)");
        if (ref[1] === '{') {
          if (STALE_DIRECTIVE.test(after) || SET_HEAD.test(after) || after.startsWith('#*')) {
            last = 'braced';
            continue;
          }
          break;
        }
        // Right after a property `##` is text, no comment (`#$a.b## c`, a line break, `#set(…)`
        // parses): the text ends the state.
        if (after.startsWith('##') && /\.[A-Za-z_]\w*$/.test(ref[0])) break;
        // A directive, a block comment or another reference right after it keeps the state.
        if (STALE_DIRECTIVE.test(after) || after.startsWith('#*') || STALE_REFERENCE.test(after)) {
          last = 'reference';
          continue;
        }
        const blanks = /^[ \t]*/.exec(after)![0];
        if (SET_HEAD.test(after.slice(blanks.length))) {
          i += blanks.length;
          last = 'reference';
          continue;
        }
        // Text without a blank right before a #set keeps it too (`#$l[0]x#set(…)`).
        const word = /^[^\s#$]+/.exec(after);
        if (word && SET_HEAD.test(after.slice(word[0].length))) {
          i += word[0].length;
          last = 'text';
          continue;
        }
        break;
      }
      const directive = STALE_DIRECTIVE.exec(tail);
      if (directive) {
        i += directive[0].length;
        const name = directive[0].replace(/^(?:\$!?)*/, '');
        if (/^#\{?(?:if|foreach)\b/.test(name)) opened++;
        else if (/^#\{?end\b/.test(name) && opened > 0) opened--;
        last = 'directive';
        continue;
      }
      if (SET_HEAD.test(tail)) {
        if (last === 'directive' || last === 'braced') {
          syntaxAt(source, i, "a #set after '#' and a reference (Velocity 1.7's lexer cannot read it)");
        }
        const close = closingParen(source, source.indexOf('(', i));
        if (close < 0) break;
        // Like the other directives, a #set eats the blanks and the line break after it.
        i = close + 1 + /^(?:[ \t]*(?:\r\n|\n|\r))?/.exec(source.slice(close + 1, close + 200))![0].length;
        last = 'set';
        sticky = true;
        continue;
      }
      if (!sticky) break;
      const text = /^[^#$]+/.exec(tail);
      if (!text || /\s/.test(text[0])) break;
      i += text[0].length;
      // A word that ends the body of a block opened in the state (`#if(…)x#end`) ends it too.
      if (opened > 0 && /^#\{?(?:end|else|elseif)\b/.test(source.slice(i, i + 10))) break;
      last = 'text';
    }
  }
}
