// Java Pattern syntax → RE2 syntax (https://developer.sailpoint.com/docs/extensibility/transforms/operations/replace). One recursive-descent pass
// over the Java pattern that emits RE2 text, so that every construct is read the way
// java.util.regex reads it: Java-only syntax RE2 can express is rewritten (\p{In…} blocks,
// POSIX and java.lang.Character classes, \Q…\E, \Z, Java's `$` and `.`, \s with \x0B, ASCII-only
// (?i)), constructs RE2 cannot run are REGEX_UNSUPPORTED, and Java syntax errors are
// REGEX_SYNTAX with the index Java would report. This file reads the pattern's structure
// (alternatives, groups, the zero-width atoms and what may follow them); one atom and its
// quantifier are ./atoms.ts, the cursor, escapes and character classes ./reader.ts, the
// character-class tables ./classes.ts and the RE2 text helpers ./emit.ts.

import RE2 from 're2';
import { CARET_LINE, CARET_LINE_UNIX, DOLLAR, DOLLAR_LINE, DOLLAR_UNIX } from './anchors.js';
import { ANCHOR, AtomReader, type Quantifier } from './atoms.js';
import type { Flags } from './emit.js';
import { surrogateBlind } from './surrogates.js';

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
  /** The pattern treats every lone surrogate U+D800+k as it treats U+E000+k (./surrogates.ts). */
  surrogateBlind: boolean;
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

class Translator extends AtomReader {
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
  /** Set by `sequence`/`alternation`: what was just parsed can match the empty string. */
  private nullable = false;
  /** Alternations and lazy quantifiers read so far: places where a path matching less may come first. */
  private choices = 0;

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
      surrogateBlind: surrogateBlind(re2),
    };
  }

  private alternation(flags: Flags): string {
    const top = this.depth === 0;
    const caretsBefore = this.hiddenStart.length;
    const branches = [this.sequence(flags)];
    let tail = this.tail;
    let leads = this.leads;
    let nullable = this.nullable;
    while (this.peek(flags) === '|') {
      this.i++;
      this.choices++;
      branches.push(this.sequence(flags));
      if (tail < 0) tail = this.tail;
      leads &&= this.leads;
      nullable ||= this.nullable;
    }
    if (top && this.hiddenStart.length > caretsBefore && !leads) {
      // A MULTILINE `^` is run by consuming the terminator before it, which moves where a match
      // starts: sound only when every top-level alternative starts so (docs/decisions.md X12).
      this.refuse('MULTILINE `^` that does not start every alternative of the pattern', this.caretAt);
    }
    this.tail = tail;
    this.nullable = nullable;
    return branches.join('|');
  }

  private sequence(flags: Flags): string {
    let out = '';
    /** A `$` already in this branch: nothing may follow it (its RE2 form consumes the terminator). */
    let active = -1;
    let emitted = false;
    let leads = false;
    let nullable = true;
    for (;;) {
      const c = this.peek(flags);
      if (c === undefined || c === '|' || c === ')') break;
      const at = this.i;
      const groupsBefore = this.javaGroups;
      const choicesBefore = this.choices;
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
        const body = group ? this.nullable : atom === '(?:)';
        if (!group) this.consumers.push(atom);
        const q = this.quantifier(flags);
        if (q?.lazy) this.choices++;
        if (group && q && q.max === Infinity && body) this.emptyIteration(at, groupsBefore, choicesBefore, q);
        nullable &&= body || (q !== null && q.min === 0);
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
    this.nullable = nullable;
    return out;
  }

  /**
   * An unbounded loop over a group that can match the empty string. java.util.regex (`Loop`,
   * `GroupCurly`) tries one more iteration after the last one that consumed something, and an
   * iteration that matches empty ends the loop there: its groups keep the empty iteration
   * (`(\s*)*.` on " x" leaves group 1 ""), and a body that prefers an empty path stops the loop
   * before a later path could consume more (`(?:a??)*` matches ""). RE2 drops empty iterations
   * instead, so it keeps the last non-empty one and goes on through the later paths. The two
   * agree when the body has no capturing group, no alternation and no lazy quantifier (its
   * empty path is then its last choice, taken only when nothing else matches); otherwise the
   * pattern is refused (docs/decisions.md X12).
   */
  private emptyIteration(at: number, groupsBefore: number, choicesBefore: number, q: Quantifier): void {
    if (this.javaGroups > groupsBefore || this.choices > choicesBefore || q.lazy) {
      this.refuse('Repeated group that can match the empty string, with a capturing group, an alternation or a lazy quantifier in it', at);
    }
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

  protected group(outer: Flags): string | null {
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
}

