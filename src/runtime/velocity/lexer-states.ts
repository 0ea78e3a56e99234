// The lexer states Velocity 1.7 keeps after a property, a reference or a `$` that vanished into a
// directive, and after `$a.b(`: what it reads there otherwise than velocityjs does (`##` as text,
// a `[` as an index, a word as a token of its own, a call's arguments read on). ./escapes.ts
// tests the output it has rewritten so far against these patterns.

import { closingParen, syntaxAt } from './hash-tokens.js';

/**
 * What 1.7's lexer, still in a call's arguments after `$a.b(` and a `#` (`$a.b(#end`,
 * `$a.b(#[[x]]#`), reads as text: words, numbers, `.`, `-`, `#`, references (with their calls),
 * directives (blanks inside their arguments included, with the line end they eat, and the blanks
 * before a #set), raw blocks and block comments — no other blank, line break or punctuation (`##`
 * is no comment there).
 */
export function callStateText(rest: string): boolean {
  const stripped = rest
    .replace(/#\[\[[\s\S]*?\]\]#/g, '#x')
    .replace(/#\*[\s\S]*?\*#/g, '')
    .replace(/[ \t]*#\{?set\}?[ \t]*\((?:[^()]|\([^()]*\))*\)(?:[ \t]*(?:\r\n|\n|\r))?/g, '#x')
    .replace(/#\{?(?:[A-Za-z]\w*\}?[ \t]*\((?:[^()]|\([^()]*\))*\)|(?:end|else)\b\}?)(?:[ \t]*(?:\r\n|\n|\r))?/g, '#x')
    .replace(/\$!?\{?[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*(?:\((?:[^()]|\([^()]*\))*\))?|\[[^\]]*\])*\}?/g, '$x');
  return /^[A-Za-z0-9_.\-$#{}!]*$/.test(stripped);
}

/** What follows a call's `(` that 1.7 reads on in its arguments: a `#`, blanks and a #set, `$`s that vanish into a directive. */
export const CALL_THEN_DIRECTIVE = /^(?:#|[ \t]+#\{?set\b|(?:\\*\$!?)+#\{?(?:set|if|elseif|else|end|foreach|break|macro|define)\b)/;

export function checkCallArguments(source: string, open: number): void {
  if (closingParen(source, open, true) < 0) syntaxAt(source, open, "the method call's ( has no closing )");
}

/**
 * A property followed right away by a `$` (a reference, or a `$` that vanished into a directive:
 * a marker) leaves 1.7's lexer in the property's state. Each such `$` keeps it through the #set
 * directives after it and one other directive (#if, #elseif, #else, #foreach, #macro or #end,
 * with the line break it eats); a second one ends it unless another `$` came between. There
 * `##` is text (`$m.k$a#else## c`, `#if(true)$m.k$a#end## c`, `$m.k$a#if(true)x## c`, but not
 * `$m.k$a#if(true)#end## c`), a `[` opens an index that nothing precedes (`$m.k$a#macro(f)[$p]#end`
 * and `#if(true)$m.k$a#end\n[1]` do not parse; `$m.k$a#foreach(…)#macro(…)[$p]#end#end` does),
 * and past a #end read as that one directive a `(` opens arguments (`#if(true)$m.k$a#end(x)`).
 */
export const P3_PROPERTY = String.raw`\$!?[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\([^()]*\)|\[[^\]]*\])*\.[A-Za-z_]\w*`;
export const P3_DOLLAR = String.raw`(?:#if\(false\)#\{end\})?#\[\[\u0000\u0000\]\]#|\$!?[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\([^()]*\)|\[[^\]]*\])*`;
export const P3_SET = String.raw`[ \t]*#\{?set\}?[ \t]*\((?:[^()]|\([^()]*\))*\)(?:[ \t]*(?:\r\n|\n|\r))?`;
export const P3_ONE = String.raw`(?:#\{?(?:if|elseif|foreach|macro)\}?[ \t]*\((?:[^()]|\([^()]*\))*\)|#\{?(?:else|end)\b\}?)(?:[ \t]*(?:\r\n|\n|\r))?`;
/**
 * One `$` (or a run of them) and the directives it keeps the state through: #sets, at most one
 * other directive. (Closed by a directive, so that consecutive groups cannot be split two ways:
 * the patterns stay linear on long runs of references.)
 */
export const P3_CLOSED = `(?:${P3_DOLLAR})+(?:(?:${P3_SET})+|(?:${P3_SET})*(?:${P3_ONE})(?:${P3_SET})*)`;
export const PROPERTY_THEN_DIRECTIVE = new RegExp(`${P3_PROPERTY}(?:${P3_CLOSED})+[^\\s#$\\[]*$`);
export const PROPERTY_THEN_REFERENCE = new RegExp(`${P3_PROPERTY}(?:${P3_CLOSED})*(?:${P3_DOLLAR})+(?:${P3_SET})*$`);
export const END_THEN_PAREN = /^#\{?(?:end|else)\}?(?:[ \t]*(?:\r\n|\n|\r))?\(/;
export const PROPERTY_THEN_DIRECTIVE_TEXT = new RegExp(`${P3_PROPERTY}(?:${P3_CLOSED})+(?:\\$!?\\{[A-Za-z_]\\w*\\})*$`);
/**
 * A property followed right away by #sets (each eating the line break after it) or braced
 * references keeps 1.7's lexer in the property's state through them and the word after them:
 * there `##` is text too (`$m.k#set($e = 1)## c`, `$m.k #set($e = 1)## c`, `$m.k#set($e = 1)x## c`
 * and `$m.k$!{b}## c` render the `## c`; `$m.k#set($e = 1) ## c` and `$m.k$b## c` do not).
 */
export const PROPERTY_THEN_SET = new RegExp(`${P3_PROPERTY}(?:[ \\t]*#\\{?set\\}?[ \\t]*\\((?:[^()]|\\([^()]*\\))*\\)(?:[ \\t]*(?:\\r\\n|\\n|\\r))?|\\$!?\\{[A-Za-z_]\\w*\\})+[^\\s#$]*$`);
export const PROPERTY_TAIL = /\$!?[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*|\([^()]*\)|\[[^\]]*\])*\.[A-Za-z_]\w*$/;
export const WORD_BEFORE_SET = /^[A-Za-z_]\w*(?=[ \t]+#(?:set|\{set\})[ \t]*\()/;
export const HYPHENATED_WORD_BEFORE_SET = /^[A-Za-z_][\w-]*(?=[ \t]+#(?:set|\{set\})[ \t]*\()/;
/**
 * The output ends with a reference without braces (`$a`, `$!a`, `$l.size()`, an escaped `\$a`),
 * then one or more #set directives (with the blanks before and the line break after them, which
 * they eat) and block comments (markers).
 */
export const REFERENCE_THEN_DIRECTIVES =
  /(?:\$!?[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\([^()]*\)|\[[^\]]*\])*|#\[\[\\*\$!?[A-Za-z_]\w*\]\]#)(?:(?:#if\(false\)#\{end\})?#\[\[\u0000\u0000?\]\]#|[ \t]*#\{?set\}?[ \t]*\((?:[^()\n]|\([^()\n]*\))*\)(?:[ \t]*(?:\r\n|\n|\r))?)+$/;
/** The marker of a `$` that vanished into a #set, then #set directives (from `vanishedAt`). */
export const VANISHED_THEN_SETS =
  /^(?:#if\(false\)#\{end\})?#\[\[\u0000\u0000\]\]#(?:[ \t]*#\{?set\}?[ \t]*\((?:[^()\n]|\([^()\n]*\))*\)(?:[ \t]*(?:\r\n|\n|\r))?)+$/;
export const BARE_REFERENCE_PAREN = /^\$(!?)([A-Za-z_][A-Za-z0-9_]*)(?=\()/;

/** An unbraced property (`$a.b`, `\$a.b`, `$l[0].x`), then `$`s that vanish, then the `(` after them. */
const PROPERTY_PAREN = /\$!?[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\([^()]*\)|\[[^\]]*\])*\.[A-Za-z_][\w-]*((?:\\*\$!?)*)\(/g;
/** An unbraced property, then a reference right after it and its `(`. */
const PROPERTY_REFERENCE_PAREN = /\$!?[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\([^()]*\)|\[[^\]]*\])*\.[A-Za-z_][\w-]*\$!?[A-Za-z_]\w*\(/g;
/** What 1.7's lexer, in a call's arguments right after that `(`, cannot read as any token the grammar takes there. */
const NOT_AN_ARGUMENT = /^[ \t]*(?:[\]},=]|\.[.)])|^[ \t]+\)/;
/** Comments and raw blocks, where no reference is read (masked, lengths kept). */
const UNREAD = /#\[\[[\s\S]*?\]\]#|#\*[\s\S]*?\*#|##[^\r\n]*/g;

/**
 * A `(` right after a property puts 1.7's lexer in a call's arguments, and so does one after a
 * property and `$`s (`$a.t$(t`: the `$`s vanish, the `(` opens `t`'s arguments). What the grammar
 * cannot take as arguments there does not parse, in a branch that never runs too: `$h.s(])`,
 * `$h.s( )`, `$h.s(,`; and after the `$`s, arguments that never close (`$a.t$(t#end`), as after
 * `$a.b(` itself, or a `#` and more than text (`$h.N$(#end x`). (`$h(])`, `${h.s}(])` and
 * `$a.length()(])` are text.)
 */
export function checkPropertyCalls(source: string): void {
  const read = source.replace(UNREAD, (m) => ' '.repeat(m.length));
  for (const m of read.matchAll(PROPERTY_PAREN)) {
    const open = m.index + m[0].length - 1;
    const rest = read.slice(open + 1, open + 200);
    const bad = NOT_AN_ARGUMENT.exec(rest);
    if (bad) syntaxAt(source, open + bad[0].length, `Encountered "${bad[0].trim().slice(0, 2)}" in the arguments of a method call`);
    if (!m[1] || rest === '') continue;
    // Before a `#` (or blanks and a #set), 1.7 reads on in the arguments as after `$a.b(#end`.
    if (/^(?:#|[ \t]+#\{?set\b)/.test(rest)) {
      if (!callStateText(source.slice(open + 1))) syntaxAt(source, open, "the method call's ( has no closing )");
    } else checkCallArguments(source, open);
  }
  // A reference right after a property keeps the property's state: a blank after its `(` is no
  // text there (`$m.k$a( x)`, `#if(false)$h.t$t( #end` do not parse; `$m.k$a(x` does).
  for (const m of read.matchAll(PROPERTY_REFERENCE_PAREN)) {
    const open = m.index + m[0].length - 1;
    if (/^[ \t]/.test(read.slice(open + 1, open + 2))) syntaxAt(source, open + 1, 'Encountered a blank after a reference\'s ( right after a property');
  }
}
