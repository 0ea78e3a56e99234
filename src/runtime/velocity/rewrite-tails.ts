// What the output escapes.ts has rewritten so far ends with, tested before each character it
// reads: the tails after which Velocity 1.7's lexer is in another state than velocityjs's (a
// reference, a call then a word, a reference then a bare directive), and whether velocityjs needs
// an empty #if between that tail and the token that follows.

/** The characters of the rewritten text kept for the state tests (the longest look back is 600). */
export const OUT_KEPT = 1024;
/** `${` or `$!{` not followed by a name or a reference (escaped or not): no reference for 1.7's lexer. */
export const UNNAMED_BRACE = /\$!?\{(?!\{?[A-Za-z_]|\\*\$!?\{?[A-Za-z_])/;
/**
 * `$!` before what starts no reference (`a$!)`, `a$!# x`, `a$!\x`, `"a$!"`): 1.7 renders `$`, its
 * `!` dropped by the lexer, in text and in interpolated strings alike (`$!$!)` → `$$)`). Not
 * before a name, a `{`, `$`s that start a reference, a `#` that starts a token of its own (`$!#x`, `$!#$a`, `$!#set`) or a backslash
 * before `$` or `!`.
 */
export const QUIET_NO_REFERENCE = /\$!(?![A-Za-z_{]|(?:\$!?)+[A-Za-z_{]|#[A-Za-z_@{\\*#[\d$-]|\\[$!\\])/;

/**
 * What a `$!` at `i` that starts no reference renders (QUIET_NO_REFERENCE): `$`, or nothing before
 * a `.` and a letter (`a$!.b` → `a.b`), and the index after it; undefined for any other text.
 */
export function quietNoReference(source: string, i: number): { text: string; next: number } | undefined {
  if (QUIET_NO_REFERENCE.exec(source.slice(i, i + 4))?.index !== 0) return undefined;
  return { text: /^\.[A-Za-z]/.test(source.slice(i + 2, i + 4)) ? '' : '$', next: i + 2 };
}
/** A `#` token of 1.7's lexer that velocityjs reads otherwise (hash-tokens.ts). */
export const HASH_TOKEN_ANYWHERE = /#(?:[A-Za-z_@{\\]|-?\d|(?:\$!?)+@)|[\w}]##|\$!?[ \t]*#|#[ \t]+#|\$!?[A-Za-z_]\w*\(|\$!?\{?[A-Za-z_][\w.]*\([^)]*$/;
export const HASH_AFTER_NAME = /[\w)}\]]#(?![A-Za-z{*#])/;
/** The output ends with a reference: `$a`, `$!{a}`, `$a.b(…)`, `$a[0]` (arguments with one level of nested parentheses). */
export const REFERENCE_TAIL = /\$!?\{?[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\((?:[^()]|\([^()]*\))*\)|\[[^\]]*\])*\}?$/;
/** A reference without braces: `$a`, `$!a`, `$a.b(…)`, `$a[0]`. */
export const UNBRACED_REFERENCE_TAIL = /\$!?[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\((?:[^()]|\([^()]*\))*\)|\[[^\]]*\])*$/;
/** A `[` that no index can start: nothing, or neither a value nor `true`/`false` after blanks. */
export const INDEX_CANNOT_START = /^\[[ \t\r\n]*(?![$\d\-"'[{]|(?:true|false)\b)/;
export const NO_INDEX_ANYWHERE = /\$!?[A-Za-z_][\w.-]*(?:\([^()]*\)|\[[^\]]*\])*\[[ \t\r\n]*(?![$\d\-"'[{ \t\r\n]|(?:true|false)\b)/;
/** A call or an index, then a word (a token of its own in 1.7). */
export const CALL_THEN_WORD = /\$!?\{?[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\([^()]*\)|\[[^\]]*\])*(?:\([^()]*\)|\[[^\]]*\])[A-Za-z_]\w*$/;
/** A reference, then #break, #end or #else (velocityjs reads a `#` after them as a directive's). */
export const REFERENCE_THEN_BARE_DIRECTIVE = /\$!?\{?[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\([^()]*\)|\[[^\]]*\])*\}?#\{?(?:break|end|else)\}?$/;
/** A word, then `(` (right after a call or an index: WORD_PAREN_ANYWHERE). */
export const WORD_THEN_PAREN = /^[A-Za-z_]\w*\(/;
export const WORD_PAREN_ANYWHERE = /[)\]](?:[A-Za-z_]\w*)?\(/;
/** #end or #else, then a `.` and a name. */
export const END_THEN_DOT = /^#\{?(?:end|else)\b\}?\.[A-Za-z_]/;
/** A #macro or #foreach whose `(` comes next: velocityjs reads its arguments with no comma between them. */
export const COMMA_HEAD = /#\{?(?:macro|foreach)\}?[ \t]*$/;

/**
 * velocityjs cannot read a `#` right after a reference, or after a reference and #break, #end or
 * #else (`$a#break#{end}(x`), nor a raw block right after #break or a word that follows a call or
 * an index (`$a.b(0)x#[[…]]#`), nor #end or #else before a `(` there (`$a.length()x#else(H`): an
 * empty #if stands between them.
 */
export function needsSeparator(out: string, text: string): boolean {
  if (!text.startsWith('#')) return false;
  const tail = out.slice(-200);
  return (
    REFERENCE_TAIL.test(tail) || REFERENCE_THEN_BARE_DIRECTIVE.test(tail) ||
    (text.startsWith('#[[') && /(?:[)\]]\w*|#\{?(?:break|end|else)\}?)$/.test(tail)) ||
    (/^#\{(?:end|else)\}$/.test(text) && CALL_THEN_WORD.test(tail))
  );
}
