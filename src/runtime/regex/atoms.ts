// One atom of a Java pattern and its quantifier, as RE2 text (Java regex semantics,
// https://developer.sailpoint.com/docs/extensibility/transforms/operations/replace): a literal
// (case-folded under (?i)), `.`, a class, an escape outside a class, or a marker for a zero-width
// atom, and the `*`, `+`, `?`, `{n,m}` read after it with its lazy or possessive modifier, read
// the way java.util.regex's atom() and closure() read them. The layer between the lexical
// reader (./reader.ts) and the pattern's structure (./translate.ts), which reads groups and
// resolves the zero-width atoms.

import { emitSet, type Flags } from './emit.js';
import { PatternReader } from './reader.js';

/** Marks a zero-width atom, resolved once its quantifier is known (see ./translate.ts `anchor`). */
export const ANCHOR = '\x00';

export interface Quantifier {
  /** RE2 text, with the lazy `?` when there is one. */
  text: string;
  min: number;
  max: number;
  /** Reluctant (`*?`, `{n,m}?`): a path matching less comes first. */
  lazy: boolean;
  possessive: boolean;
}

export abstract class AtomReader extends PatternReader {
  /** A group after its `(` is read by the structure layer (it holds alternatives): RE2 text, or null for a flag group. */
  protected abstract group(outer: Flags): string | null;

  /**
   * A quantifier after an atom, or null. In COMMENTS mode Java reads past whitespace and
   * comments before the quantifier, before its lazy/possessive modifier, and between the
   * characters of `{n,m}` after the first digit.
   */
  protected quantifier(flags: Flags): Quantifier | null {
    const c = this.peek(flags);
    let min: number;
    let max: number;
    let text: string;
    if (c === '*' || c === '+' || c === '?') {
      this.i++;
      text = c;
      min = c === '+' ? 1 : 0;
      max = c === '?' ? 1 : Infinity;
    } else if (c === '{') {
      const at = this.i;
      if (!/[0-9]/.test(this.p[at + 1] ?? '')) this.fail('Illegal repetition', at);
      this.i++;
      const digit = (): boolean => /[0-9]/.test(this.p[this.i] ?? '');
      let lo = '';
      while (digit()) {
        lo += this.p[this.i++];
        this.skip(flags);
      }
      let hi = lo;
      if (this.p[this.i] === ',') {
        this.i++;
        this.skip(flags);
        hi = '';
        while (digit()) {
          hi += this.p[this.i++];
          this.skip(flags);
        }
      }
      if (this.p[this.i] !== '}') this.fail('Unclosed counted closure', this.i);
      this.i++;
      min = Number(lo);
      max = hi === '' ? Infinity : Number(hi);
      if (max < min) this.fail('Illegal repetition range', at);
      text = hi === '' ? `{${min},}` : hi === lo ? `{${min}}` : `{${min},${max}}`;
    } else {
      return null;
    }
    const mod = this.peek(flags);
    if (mod === '?') {
      this.i++;
      return { text: text + '?', min, max, lazy: true, possessive: false };
    }
    if (mod === '+') {
      this.i++;
      return { text, min, max, lazy: false, possessive: true };
    }
    return { text, min, max, lazy: false, possessive: false };
  }

  /** One atom as RE2 text, or null for an inline flag group that changes `flags` in place. */
  protected atom(flags: Flags): string | null {
    const at = this.i;
    const cp = this.p.codePointAt(at)!;
    const c = String.fromCodePoint(cp);
    switch (c) {
      case '(':
        return this.group(flags);
      case '[': {
        this.i++;
        const { set, negated } = this.klass(flags);
        return emitSet(set, negated);
      }
      case '.':
        this.i++;
        if (flags.s) return '(?s:.)';
        return flags.d ? '[^\\n]' : '[^\\n\\r\\x{85}\\x{2028}\\x{2029}]';
      case '^':
      case '$':
        this.i++;
        return ANCHOR + c;
      case '\\':
        return this.escape(flags);
      case '*':
      case '+':
      case '?':
        return this.fail(`Dangling meta character '${c}'`, at);
      case '{':
        // Java's atom() reads no character before a `{`: an empty atom, which a valid `{n,m}`
        // then repeats (`{2}` alone, or after another quantifier, matches the empty string).
        if (/^\{\d+(,\d*)?\}/.test(this.p.slice(at))) return '(?:)';
        return this.fail('Illegal repetition', at);
      default:
        this.i += c.length;
        return this.literalCase(cp, flags);
    }
  }

  /** A backslash escape outside a character class. */
  private escape(flags: Flags): string {
    const at = this.i;
    const c = this.p[at + 1];
    if (c === undefined) this.fail('Unexpected internal error', at + 1);
    switch (c) {
      case 'A':
      case 'z':
      case 'Z':
      case 'B':
        this.i += 2;
        return ANCHOR + c;
      case 'b':
        // Java reads `\b{g}` as a grapheme boundary (and `\b{g` without `}` as an error); any
        // other `{` after `\b` is a quantifier.
        if (this.p.startsWith('{g}', at + 2)) this.refuse('Grapheme boundary \\b{g}', at);
        if (this.p.startsWith('{g', at + 2)) this.fail('Illegal/unsupported escape sequence', at + 1);
        this.i += 2;
        return ANCHOR + 'b';
      case 'G':
        return this.refuse('\\G (end of previous match)', at);
      case 'X':
        return this.refuse('\\X (grapheme cluster)', at);
      case 'R':
        this.i += 2;
        return '(?:\\r\\n|[\\n\\x{B}\\f\\r\\x{85}\\x{2028}\\x{2029}])';
      case 'k':
        return this.refuse('Named backreference', at);
      default:
        if (c >= '1' && c <= '9') return this.refuse('Backreference', at);
    }
    const item = this.classEscape(flags);
    if (typeof item === 'number') return this.literalCase(item, flags);
    // \w, \d, \s, \p{…}: Java does not fold predefined classes (case properties are widened by resolveProperty).
    return emitSet(item.set, item.negated);
  }
}
