// The lexical layer of the Java pattern translator (./translate.ts): a cursor over the de-quoted
// pattern, Java's error messages with the index Java reports, COMMENTS-mode skipping, and the
// constructs read the same way in and out of a character class — escapes (a code point, or a
// set such as \d or \p{…}), literal case folding and the classes themselves, flattened into one
// set. One atom and its quantifier are read by ./atoms.ts, the structure of the pattern
// (alternatives, groups, anchors) by ./translate.ts; their classes extend this one.

import { codedError } from '../../errors/index.js';
import { foldRangesUnicode, foldSingleUnicode } from './case-fold.js';
import { complement, foldAsciiCase, normalize, resolveProperty, type CodeSet, SETS } from './classes.js';
import { emitSet, flipProp, literal, removeQuoting, type Flags } from './emit.js';

function syntax(message: string, index: number, pattern: string): never {
  throw codedError('REGEX_SYNTAX', `${message} near index ${index} of regex ${JSON.stringify(pattern)}`, { details: { index } });
}
function unsupported(message: string, index: number, pattern: string): never {
  throw codedError('REGEX_UNSUPPORTED', `${message} is not supported (RE2 cannot run it) near index ${index} of regex ${JSON.stringify(pattern)}`, {
    details: { index },
  });
}

export abstract class PatternReader {
  protected readonly p: string;
  protected i = 0;

  constructor(protected readonly source: string) {
    // Indices are those of the de-quoted pattern, as in Java's PatternSyntaxException.
    this.p = removeQuoting(source);
  }

  protected fail(message: string, index = this.i): never {
    return syntax(message, index, this.source);
  }
  protected refuse(message: string, index = this.i): never {
    return unsupported(message, index, this.source);
  }

  /** In COMMENTS mode (?x), whitespace and #-comments are skipped wherever a token may start. */
  protected skip(flags: Flags): void {
    if (!flags.x) return;
    for (;;) {
      const c = this.p[this.i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\x0B') this.i++;
      else if (c === '#') {
        while (this.i < this.p.length && this.p[this.i] !== '\n' && this.p[this.i] !== '\r') this.i++;
      } else return;
    }
  }

  /** The code point at the cursor, which moves past it (two UTF-16 units for a surrogate pair). */
  protected readCodePoint(): number {
    const cp = this.p.codePointAt(this.i)!;
    this.i += cp > 0xffff ? 2 : 1;
    return cp;
  }

  protected peek(flags: Flags): string | undefined {
    this.skip(flags);
    return this.p[this.i];
  }

  protected literalCase(cp: number, flags: Flags): string {
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

  /**
   * An escape usable inside or outside a class: a code point, or a set (\d, \p{…}, …).
   * Advances past the escape. Boundary escapes (\b, \A, \Z, …) and backreferences are
   * handled by `escape` before this is reached, so here they are errors, as in a Java class.
   */
  protected classEscape(flags: Flags): number | { set: CodeSet; negated: boolean } {
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
        return this.readCodePoint();
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
  protected klass(flags: Flags): { set: CodeSet; negated: boolean } {
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
        lo = this.readCodePoint();
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
          hi = this.readCodePoint();
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
