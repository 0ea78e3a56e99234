// Java Pattern syntax → RE2 syntax (https://developer.sailpoint.com/docs/extensibility/transforms/operations/replace). One recursive-descent pass
// over the Java pattern that emits RE2 text, so that every construct is read the way
// java.util.regex reads it: Java-only syntax RE2 can express is rewritten (\p{In…} blocks,
// POSIX and java.lang.Character classes, \Q…\E, \Z, Java's `$` and `.`, \s with \x0B, ASCII-only
// (?i)), constructs RE2 cannot run are REGEX_UNSUPPORTED, and Java syntax errors are
// REGEX_SYNTAX with the index Java would report. The parser is one class (~470 lines) because
// its states share the flag stack, the cursor and the group counters; the character-class
// tables live in ./classes.ts and the RE2 text helpers in ./emit.ts.

import RE2 from 're2';
import { codedError } from '../../errors/index.js';
import { CARET_LINE, CARET_LINE_UNIX, DOLLAR, DOLLAR_LINE, DOLLAR_UNIX } from './anchors.js';
import { foldRangesUnicode, foldSingleUnicode } from './case-fold.js';
import { complement, foldAsciiCase, resolveProperty, type CodeSet, SETS } from './classes.js';
import { emitSet, flipProp, literal, normalize, removeQuoting, type Flags } from './emit.js';

export interface Translation {
  /** RE2 pattern text (compile with the `u` flag) with anchor placeholders: see ./anchors.ts `render`. */
  re2: string;
  /** Capturing groups of the Java pattern. */
  groupCount: number;
  /** Java group number → RE2 group number (hidden groups shift the numbering). */
  groupMap: number[];
  /** Named groups → Java group number. */
  names: Map<string, number>;
  /** RE2 numbers of the hidden groups that capture the line terminator Java's `$`/`\Z` may stand before. */
  hidden: number[];
  /** RE2 numbers of the hidden groups that capture the line terminator before a MULTILINE `^` (every top-level alternative starts with one). */
  hiddenStart: number[];
  /** A `$`/`\Z` without MULTILINE or UNIX_LINES: an input ending with `\r\n` needs the `crlf` program. */
  dollarCrlf: boolean;
  /** A MULTILINE `$` without UNIX_LINES: it never holds between `\r` and `\n`. */
  lineDollar: boolean;
}

/** Marks a zero-width atom, resolved once its quantifier is known (see `Translator.anchor`). */
const ANCHOR = '\x00';

interface Quantifier {
  text: string;
  min: number;
  max: number;
  possessive: boolean;
}


function syntax(message: string, index: number, pattern: string): never {
  throw codedError('REGEX_SYNTAX', `${message} near index ${index} of regex ${JSON.stringify(pattern)}`, { details: { index } });
}
function unsupported(message: string, index: number, pattern: string): never {
  throw codedError('REGEX_UNSUPPORTED', `${message} is not supported (RE2 cannot run it) near index ${index} of regex ${JSON.stringify(pattern)}`, {
    details: { index },
  });
}

/** Whether one of these atoms matches `\r` (false when RE2 rejects one: compiling the pattern reports that). */
function canMatchCR(atoms: readonly string[]): boolean {
  try {
    return new RE2(`(?:${atoms.join('|')})`, 'u').test('\r');
  } catch {
    return false;
  }
}

export function translateJavaPattern(source: string): Translation {
  return new Translator(source).run();
}

class Translator {
  private readonly p: string;
  private i = 0;
  private javaGroups = 0;
  private re2Groups = 0;
  private readonly groupMap: number[] = [0];
  private readonly names = new Map<string, number>();
  private readonly hidden: number[] = [];
  private readonly hiddenStart: number[] = [];
  private dollarCrlf = false;
  private lineDollarAt = -1;
  private caretAt = -1;
  /** Group nesting depth while parsing. */
  private depth = 0;
  /** Set by `sequence`/`alternation`: index of a `$` that ends what was just parsed (nothing may follow it), or -1. */
  private tail = -1;
  /** Set by `sequence`: the branch just parsed starts with a MULTILINE `^`. */
  private leads = false;
  /** RE2 text of every character-consuming atom, to ask whether the pattern can match `\r`. */
  private readonly consumers: string[] = [];

  constructor(private readonly source: string) {
    // Indices are those of the de-quoted pattern, as in Java's PatternSyntaxException.
    this.p = removeQuoting(source);
  }

  run(): Translation {
    const flags: Flags = { i: false, d: false, m: false, s: false, u: false, x: false };
    const re2 = this.alternation(flags);
    if (this.i < this.p.length) {
      // Only an unbalanced `)` stops the top-level alternation early.
      this.fail('Unmatched closing \')\'', this.i - 1);
    }
    if (this.lineDollarAt >= 0 && this.consumers.length > 0 && canMatchCR(this.consumers)) {
      // Java's MULTILINE `$` fails between `\r` and `\n`; when the pattern itself may have taken
      // the `\r`, only backtracking into it would find Java's match (docs/decisions.md X12).
      this.refuse('MULTILINE `$` in a pattern that can match `\\r` (use (?d), or \\z)', this.lineDollarAt);
    }
    return {
      re2,
      groupCount: this.javaGroups,
      groupMap: this.groupMap,
      names: this.names,
      hidden: this.hidden,
      hiddenStart: this.hiddenStart,
      dollarCrlf: this.dollarCrlf,
      lineDollar: this.lineDollarAt >= 0,
    };
  }

  private fail(message: string, index = this.i): never {
    return syntax(message, index, this.source);
  }
  private refuse(message: string, index = this.i): never {
    return unsupported(message, index, this.source);
  }

  /** In COMMENTS mode (?x), whitespace and #-comments are skipped wherever a token may start. */
  private skip(flags: Flags): void {
    if (!flags.x) return;
    for (;;) {
      const c = this.p[this.i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\x0B') this.i++;
      else if (c === '#') {
        while (this.i < this.p.length && this.p[this.i] !== '\n' && this.p[this.i] !== '\r') this.i++;
      } else return;
    }
  }

  private peek(flags: Flags): string | undefined {
    this.skip(flags);
    return this.p[this.i];
  }

  private alternation(flags: Flags): string {
    const top = this.depth === 0;
    const caretsBefore = this.hiddenStart.length;
    const branches = [this.sequence(flags)];
    let tail = this.tail;
    let leads = this.leads;
    while (this.peek(flags) === '|') {
      this.i++;
      branches.push(this.sequence(flags));
      if (tail < 0) tail = this.tail;
      leads &&= this.leads;
    }
    if (top && this.hiddenStart.length > caretsBefore && !leads) {
      // A MULTILINE `^` is run by consuming the terminator before it, which moves where a match
      // starts: sound only when every top-level alternative starts so (docs/decisions.md X12).
      this.refuse('MULTILINE `^` that does not start every alternative of the pattern', this.caretAt);
    }
    this.tail = tail;
    return branches.join('|');
  }

  private sequence(flags: Flags): string {
    let out = '';
    /** A `$` already in this branch: nothing may follow it (its RE2 form consumes the terminator). */
    let active = -1;
    let emitted = false;
    let leads = false;
    for (;;) {
      const c = this.peek(flags);
      if (c === undefined || c === '|' || c === ')') break;
      const at = this.i;
      const atom = this.atom(flags);
      if (atom === null) continue; // a flag group such as (?i): nothing to quantify
      if (atom.startsWith(ANCHOR)) {
        const q = this.quantifier(flags);
        // Java repeats a zero-width atom at most once more (a zero-length iteration ends the
        // loop): with a minimum of 0 it always succeeds in place, otherwise it is the atom once.
        if (q && q.min === 0) continue;
        if (active >= 0) this.refuse('`$` followed by more of the pattern', active);
        const text = this.anchor(atom.slice(1), flags, at, !emitted);
        if (text === DOLLAR || text === DOLLAR_UNIX || text === DOLLAR_LINE) active = at;
        if (text === CARET_LINE || text === CARET_LINE_UNIX) leads = true;
        out += text;
      } else {
        const group = this.p[at] === '(';
        const groupTail = group ? this.tail : -1;
        if (!group) this.consumers.push(atom);
        const q = this.quantifier(flags);
        if (q?.possessive) this.refuse('Possessive quantifier', this.i - 1);
        if (active >= 0) this.refuse('`$` followed by more of the pattern', active);
        if (q && groupTail >= 0 && q.max > 1) this.refuse('`$` in a repeated group', groupTail);
        out += atom + (q?.text ?? '');
        if (!q || q.max > 0) active = groupTail;
      }
      emitted = true;
    }
    this.tail = active;
    this.leads = leads;
    return out;
  }

  /**
   * A quantifier after an atom, or null. In COMMENTS mode Java reads past whitespace and
   * comments before the quantifier, before its lazy/possessive modifier, and between the
   * characters of `{n,m}` after the first digit.
   */
  private quantifier(flags: Flags): Quantifier | null {
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
      text += '?';
    } else if (mod === '+') {
      this.i++;
      return { text, min, max, possessive: true };
    }
    return { text, min, max, possessive: false };
  }

  /** The RE2 text (or a placeholder of ./anchors.ts) of a zero-width atom. */
  private anchor(kind: string, flags: Flags, at: number, first: boolean): string {
    switch (kind) {
      case '^':
        if (!flags.m) return '^';
        if (this.depth > 0 || !first) this.refuse('MULTILINE `^` that does not start every alternative of the pattern', at);
        if (this.caretAt < 0) this.caretAt = at;
        this.re2Groups++;
        this.hiddenStart.push(this.re2Groups);
        return flags.d ? CARET_LINE_UNIX : CARET_LINE;
      case '$':
        if (flags.m && flags.d) return '(?m:$)';
        this.re2Groups++;
        this.hidden.push(this.re2Groups);
        if (flags.m) {
          if (this.lineDollarAt < 0) this.lineDollarAt = at;
          return DOLLAR_LINE;
        }
        if (flags.d) return DOLLAR_UNIX;
        this.dollarCrlf = true;
        return DOLLAR;
      case 'Z':
        // \Z is the `$` of a pattern without MULTILINE.
        return this.anchor('$', { ...flags, m: false }, at, first);
      case 'A':
        return '\\A';
      case 'z':
        return '\\z';
      case 'b':
        return '\\b';
      default:
        return '\\B';
    }
  }

  /** One atom as RE2 text, or null for an inline flag group that changes `flags` in place. */
  private atom(flags: Flags): string | null {
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

  private literalCase(cp: number, flags: Flags): string {
    if (flags.i) {
      if (flags.u) {
        const variants = foldSingleUnicode(cp);
        return variants.length > 1 ? emitSet({ ranges: normalize(variants.map((v): [number, number] => [v, v])), props: [] }, false) : literal(cp);
      }
      const folded = foldAsciiCase({ ranges: [[cp, cp]], props: [] });
      return emitSet(folded, false);
    }
    return literal(cp);
  }

  private group(outer: Flags): string | null {
    const at = this.i;
    this.i++; // (
    const flags = { ...outer };
    let open = '(';
    if (this.p[this.i] === '?') {
      const rest = this.p.slice(this.i + 1);
      if (rest.startsWith(':')) {
        open = '(?:';
        this.i += 2;
      } else if (rest.startsWith('=') || rest.startsWith('!') || rest.startsWith('<=') || rest.startsWith('<!')) {
        return this.refuse('Lookaround', at);
      } else if (rest.startsWith('>')) {
        return this.refuse('Atomic group', at);
      } else if (rest.startsWith('<')) {
        const m = /^<([A-Za-z][A-Za-z0-9]*)>/.exec(rest);
        if (!m) this.fail('named capturing group is missing trailing \'>\' or has an illegal name', at);
        if (this.names.has(m[1]!)) this.fail(`Named capturing group <${m[1]}> is already defined`, at);
        this.i += 1 + m[0].length;
        this.javaGroups++;
        this.re2Groups++;
        this.groupMap[this.javaGroups] = this.re2Groups;
        this.names.set(m[1]!, this.javaGroups);
      } else {
        const m = /^([idmsuxU]*)(?:-([idmsuxU]*))?([:)])/.exec(rest);
        if (!m) this.fail('Unknown inline modifier', this.i + 1);
        const on = m[1]!;
        const off = m[2] ?? '';
        if ((on + off).includes('U')) this.refuse('UNICODE_CHARACTER_CLASS flag (?U)', at);
        for (const f of on) flags[f as keyof Flags] = true;
        for (const f of off) flags[f as keyof Flags] = false;
        this.i += 1 + m[0].length;
        if (m[3] === ')') {
          // (?flags) applies to the rest of the enclosing group: Java semantics, tracked here.
          Object.assign(outer, flags);
          return null;
        }
        open = '(?:';
      }
    } else {
      this.javaGroups++;
      this.re2Groups++;
      this.groupMap[this.javaGroups] = this.re2Groups;
    }
    this.depth++;
    const body = this.alternation(flags);
    this.depth--;
    if (this.p[this.i] !== ')') this.fail('Unclosed group', this.p.length);
    this.i++;
    return open + body + ')';
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

  /**
   * An escape usable inside or outside a class: a code point, or a set (\d, \p{…}, …).
   * Advances past the escape. Boundary escapes (\b, \A, \Z, …) and backreferences are
   * handled by `escape` before this is reached, so here they are errors, as in a Java class.
   */
  private classEscape(flags: Flags): number | { set: CodeSet; negated: boolean } {
    const at = this.i;
    const c = this.p[at + 1]!;
    this.i += 2;
    switch (c) {
      case 't': return 0x09;
      case 'n': return 0x0a;
      case 'r': return 0x0d;
      case 'f': return 0x0c;
      case 'a': return 0x07;
      case 'e': return 0x1b;
      case '0': {
        const m = /^[0-7]{1,3}/.exec(this.p.slice(this.i));
        if (!m) this.fail('Illegal octal escape sequence', this.i);
        let digits = m[0];
        if (digits.length === 3 && Number(digits[0]) > 3) digits = digits.slice(0, 2);
        this.i += digits.length;
        return parseInt(digits, 8);
      }
      case 'x': {
        if (this.p[this.i] === '{') {
          const m = /^\{([0-9a-fA-F]+)\}/.exec(this.p.slice(this.i));
          if (!m) this.fail('Unclosed hexadecimal escape sequence', this.i);
          const v = parseInt(m[1]!, 16);
          if (v > 0x10ffff) this.fail('Hexadecimal codepoint is too big', this.i);
          this.i += m[0].length;
          return v;
        }
        const m = /^[0-9a-fA-F]{2}/.exec(this.p.slice(this.i));
        if (!m) this.fail('Illegal hexadecimal escape sequence', this.i);
        this.i += 2;
        return parseInt(m[0], 16);
      }
      case 'u': {
        const hi = this.hex4();
        // A surrogate pair written as two \u escapes is one code point, as in Java.
        if (hi >= 0xd800 && hi <= 0xdbff && this.p.startsWith('\\u', this.i)) {
          const save = this.i;
          this.i += 2;
          const lo = this.hex4();
          if (lo >= 0xdc00 && lo <= 0xdfff) return 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
          this.i = save;
        }
        return hi;
      }
      case 'c': {
        const x = this.p.codePointAt(this.i);
        if (x === undefined) this.fail('Illegal control escape sequence', this.i);
        this.i++;
        return x ^ 64;
      }
      case 'd': return { set: SETS.digit, negated: false };
      case 'D': return { set: SETS.digit, negated: true };
      case 's': return { set: SETS.space, negated: false };
      case 'S': return { set: SETS.space, negated: true };
      case 'w': return { set: SETS.word, negated: false };
      case 'W': return { set: SETS.word, negated: true };
      case 'h': return { set: SETS.horizontal, negated: false };
      case 'H': return { set: SETS.horizontal, negated: true };
      case 'v': return { set: SETS.vertical, negated: false };
      case 'V': return { set: SETS.vertical, negated: true };
      case 'p':
      case 'P': {
        let name: string;
        if (this.p[this.i] === '{') {
          const end = this.p.indexOf('}', this.i);
          if (end < 0) this.fail('Unclosed character family', this.i);
          name = this.p.slice(this.i + 1, end);
          this.i = end + 1;
        } else {
          name = this.p[this.i] ?? '';
          if (!name) this.fail('Illegal character family', this.i);
          this.i++;
        }
        const resolved = resolveProperty(name, flags.i);
        if (resolved === 'unknown') this.fail(`Unknown character property name {${name}}`, at);
        if (resolved === 'unsupported') this.refuse(`Character property {${name}}`, at);
        return { set: resolved, negated: c === 'P' };
      }
      case 'N':
        return this.refuse('Named character \\N{…}', at);
      default:
        // Letters and digits without a meaning (and, inside a class, \b \A \Z \R \1 …).
        if (/[A-Za-z0-9]/.test(c)) return this.fail('Illegal/unsupported escape sequence', at + 1);
        // Any other escaped character stands for itself (code point, so surrogate pairs stay whole).
        this.i = at + 1;
        {
          const cp = this.p.codePointAt(this.i)!;
          this.i += cp > 0xffff ? 2 : 1;
          return cp;
        }
    }
  }

  private hex4(): number {
    const m = /^[0-9a-fA-F]{4}/.exec(this.p.slice(this.i));
    if (!m) this.fail('Illegal Unicode escape sequence', this.i);
    this.i += 4;
    return parseInt(m[0], 16);
  }

  /**
   * A character class after its `[`: unions of items and nested classes, flattened into one
   * set. Intersection (&&) has no RE2 form and is refused rather than misread as literals.
   */
  private klass(flags: Flags): { set: CodeSet; negated: boolean } {
    let negated = false;
    if (this.p[this.i] === '^') {
      negated = true;
      this.i++;
    }
    // Escapes and nested classes (not case-folded) go to ranges/props; the class's own
    // characters and ranges are folded under (?i) before joining them.
    const ranges: Array<[number, number]> = [];
    const props: string[] = [];
    const singles: number[] = [];
    const own: Array<[number, number]> = [];
    let first = true;
    for (;;) {
      this.skip(flags);
      const at = this.i;
      const c = this.p[at];
      if (c === undefined) this.fail('Unclosed character class', this.p.length - 1);
      if (c === ']' && !first) {
        this.i++;
        break;
      }
      first = false;
      if (c === '&' && this.p[at + 1] === '&') this.refuse('Character class intersection (&&)', at);
      if (c === '[') {
        this.i++;
        const inner = this.klass(flags);
        this.union(ranges, props, inner.set, inner.negated, at);
        continue;
      }
      let lo: number;
      if (c === '\\') {
        const item = this.classEscape(flags);
        if (typeof item !== 'number') {
          this.union(ranges, props, item.set, item.negated, at);
          continue;
        }
        lo = item;
      } else {
        lo = this.p.codePointAt(at)!;
        this.i += lo > 0xffff ? 2 : 1;
      }
      // A range a-b, unless the `-` is the last character before `]`.
      if (this.p[this.i] === '-' && this.p[this.i + 1] !== ']' && this.p[this.i + 1] !== undefined) {
        this.i++;
        this.skip(flags);
        let hi: number;
        if (this.p[this.i] === '[') this.fail('Illegal character range', this.i);
        if (this.p[this.i] === '\\') {
          const item = this.classEscape(flags);
          if (typeof item !== 'number') this.fail('Illegal character range', this.i);
          hi = item;
        } else {
          hi = this.p.codePointAt(this.i)!;
          this.i += hi > 0xffff ? 2 : 1;
        }
        if (hi < lo) this.fail('Illegal character range', this.i - 1);
        own.push([lo, hi]);
      } else {
        singles.push(lo);
      }
    }
    if (!flags.i) ranges.push(...own, ...singles.map((c): [number, number] => [c, c]));
    else if (!flags.u) ranges.push(...foldAsciiCase({ ranges: [...own, ...singles.map((c): [number, number] => [c, c])], props: [] }).ranges);
    else {
      ranges.push(...foldRangesUnicode(own));
      for (const c of singles) for (const v of foldSingleUnicode(c)) ranges.push([v, v]);
    }
    return { set: { ranges: normalize(ranges), props }, negated };
  }

  private union(ranges: Array<[number, number]>, props: string[], set: CodeSet, negated: boolean, at: number): void {
    if (!negated) {
      ranges.push(...set.ranges);
      props.push(...set.props);
    } else if (set.props.length === 0) {
      ranges.push(...complement(set.ranges));
    } else if (set.ranges.length === 0 && set.props.length === 1) {
      props.push(flipProp(set.props[0]!));
    } else {
      this.refuse('Negated multi-property set inside a character class', at);
    }
  }
}
