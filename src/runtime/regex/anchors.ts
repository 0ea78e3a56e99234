// Java's line anchors over RE2 (docs/decisions.md X3, X12). java.util.regex knows five line
// terminators (`\n`, `\r`, `\u0085`, `\u2028`, `\u2029`, with `\r\n` as one); RE2 knows `\n` and
// has no lookaround, so an anchor that looks at the character after it is emitted as a hidden
// capturing group that consumes that character, trimmed off the match afterwards, and one that
// looks at the character before it (a MULTILINE `^`) consumes the terminator before the match
// and is trimmed off its start. The translator emits placeholders for these atoms; the RE2 text
// of each is chosen per program: the search program, the search program for an input that ends
// with `\r\n` (where Java's `$` may stand before the `\r` but not between it and the `\n`), and
// the whole-input program of `matches()`, where a trailing `$` can only hold at the end; and for
// a MULTILINE `^`, whether it consumes the terminator before it or stands at the input's start.

/** Java's `$` / `\Z` without MULTILINE: end of input, or before a final line terminator. */
export const DOLLAR = '\x01';
/** The same with UNIX_LINES: only `\n` is a terminator. */
export const DOLLAR_UNIX = '\x02';
/** MULTILINE `$` (without UNIX_LINES): before any line terminator, or at the end. */
export const DOLLAR_LINE = '\x03';
/** MULTILINE `^` at the start of a top-level alternative: after a line terminator, or at 0. */
export const CARET_LINE = '\x04';
/** The same with UNIX_LINES. */
export const CARET_LINE_UNIX = '\x05';

/**
 * Which RE2 program: `dollar` — `search`, `crlf` (the input ends with `\r\n`: a non-MULTILINE
 * `$` holds before the `\r\n` or at the end) or `whole` (`matches()`: a trailing `$` holds at
 * the end only); `caret` — `consume` (the terminator before a MULTILINE `^`) or `head` (at the
 * start of the input, where `^` needs nothing before it).
 */
export interface Program {
  dollar: 'search' | 'crlf' | 'whole';
  caret: 'consume' | 'head';
}

const TERMINATOR = '[\\n\\r\\x{85}\\x{2028}\\x{2029}]';

/** The RE2 text of one program: the placeholders replaced by their atoms. */
export function render(text: string, program: Program): string {
  const whole = program.dollar === 'whole';
  return text.replace(/[\x01-\x05]/g, (p) => {
    switch (p) {
      case DOLLAR:
        if (whole) return '(?:()\\z)';
        return program.dollar === 'crlf' ? '(?:(\\r\\n)?\\z)' : `(?:(\\r\\n|${TERMINATOR})?\\z)`;
      case DOLLAR_UNIX:
        return whole ? '(?:()\\z)' : '(?:(\\n)?\\z)';
      case DOLLAR_LINE:
        return whole ? '(?:()\\z)' : `(?:(${TERMINATOR})|\\z)`;
      case CARET_LINE:
        return program.caret === 'head' ? '()' : `(\\r\\n|${TERMINATOR})`;
      default:
        return program.caret === 'head' ? '()' : '(\\n)';
    }
  });
}

/** A Java line terminator (one UTF-16 unit), or only `\n` with UNIX_LINES. */
export function isTerminator(code: number, unix: boolean): boolean {
  if (unix) return code === 0x0a;
  return code === 0x0a || code === 0x0d || code === 0x85 || code === 0x2028 || code === 0x2029;
}
