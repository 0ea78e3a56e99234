// java.util.regex.Matcher's find and matches over RE2 (Java regex semantics,
// https://developer.sailpoint.com/docs/extensibility/transforms/operations/replace): the RE2
// programs of one translated pattern (./translate.ts), each compiled once, when first needed, and
// the search loop that steps over empty matches as Matcher.find does and trims what the hidden
// groups of ./anchors.ts took off each match and its groups.

import RE2 from 're2';
import { codedError } from '../../errors/index.js';
import { isTerminator, render, type Program } from './anchors.js';
import type { Translation } from './translate.js';

/** Inputs longer than this are matched one match at a time (see JavaMatcher.each). */
const LONG_INPUT = 4096;

/** A match with Java group numbering already applied (group 0 is the whole match). */
export interface JavaMatch {
  start: number;
  end: number;
  group(n: number): string | null;
}

const SEARCH: Program = { dollar: 'search', caret: 'consume' };

export class JavaMatcher {
  /** The search program, global: RE2's native replace runs it over the whole input. */
  readonly global: RE2;
  /** Whether the pattern has hidden groups (./anchors.ts) whose text must be trimmed off matches. */
  readonly hasHidden: boolean;
  /** The other programs of ./anchors.ts, made when first needed. */
  private readonly programs = new Map<string, RE2>();
  private anchored: RE2 | undefined;
  private first: RE2 | undefined;

  constructor(
    private readonly source: string,
    private readonly t: Translation,
  ) {
    this.hasHidden = t.hidden.length > 0 || t.hiddenStart.length > 0;
    this.global = makeRe2(render(t.re2, SEARCH), this.hasHidden ? 'gud' : 'gu', source);
  }

  /** The search program that stops at the first match (a native replaceFirst). */
  firstProgram(): RE2 {
    return (this.first ??= makeRe2(render(this.t.re2, SEARCH), 'u', this.source));
  }

  /** Any match (Matcher.find). */
  find(input: string): boolean {
    if (this.hasHidden) return this.next(input, 0, null) !== null;
    this.global.lastIndex = 0;
    return this.global.test(input);
  }

  /** Whole-input match (Matcher.matches). */
  matches(input: string): boolean {
    if (!this.anchored) this.anchored = makeRe2(`\\A(?:${render(this.t.re2, { dollar: 'whole', caret: 'head' })})\\z`, this.hasHidden ? 'ud' : 'u', this.source);
    // Java's MULTILINE `^` never matches at the end of the input, so not in an empty one.
    if (input.length === 0 && this.t.hiddenStart.length > 0) return false;
    const m = this.anchored.exec(input);
    if (!m) return false;
    // A trailing line terminator taken by a translated `$` is not part of the match in Java.
    return this.effectiveEnd(m) === input.length;
  }

  /**
   * Visit every match (start, end) in order until `visit` returns false. RE2's replace with a
   * callback is one native pass but costs time proportional to the input for every match (it
   * hands the callback the whole input), so long inputs are walked match by match instead,
   * which also stops as soon as `visit` says so.
   */
  each(input: string, visit: (start: number, end: number) => boolean): void {
    if (this.hasHidden || input.length > LONG_INPUT) {
      for (let m = this.next(input, 0, null); m; m = this.next(input, m.end, m)) if (!visit(m.start, m.end)) return;
      return;
    }
    let go = true;
    this.global.lastIndex = 0;
    this.global.replace(input, (...args: unknown[]) => {
      const match = args[0] as string;
      if (go) {
        const offset = args[args.length - 2] as number;
        go = visit(offset, offset + match.length);
      }
      return match;
    });
  }

  /**
   * The next match at or after `from`, following Matcher.find: after an empty match the search
   * resumes one character further on (one code point, so that a surrogate pair is never split).
   * The anchors of ./anchors.ts are checked here for what RE2 cannot see: a MULTILINE `^` never
   * holds at the end of the input nor between `\r` and `\n`, a MULTILINE `$` never between
   * `\r` and `\n`; a candidate that breaks one is skipped and the search goes on after it.
   */
  next(input: string, from: number, previous: JavaMatch | null): JavaMatch | null {
    let start = from;
    if (previous && previous.start === previous.end) {
      if (start >= input.length) return null;
      const cp = input.codePointAt(start)!;
      start += cp > 0xffff ? 2 : 1;
    }
    if (start > input.length) return null;
    const caret = this.t.hiddenStart.length > 0;
    const crlf = this.t.dollarCrlf && input.endsWith('\r\n');
    const re = crlf ? this.program({ dollar: 'crlf', caret: 'consume' }) : this.global;
    // A MULTILINE `^` consumes the terminator before it: start one unit early to let it.
    let at = caret && start > 0 && isTerminator(input.charCodeAt(start - 1), false) ? start - 1 : start;
    let head = caret && start === 0 && input.length > 0;
    for (;;) {
      let m: RegExpExecArray | null = null;
      if (head) {
        head = false;
        // At the start of the input `^` needs no terminator before it.
        const first = this.program({ dollar: crlf ? 'crlf' : 'search', caret: 'head' }, true);
        first.lastIndex = 0;
        m = first.exec(input);
      }
      if (!m) {
        re.lastIndex = at;
        m = re.exec(input);
      }
      if (!m) return null;
      const j = this.toJava(m);
      if (caret) {
        if (j.start >= input.length) return null;
        const before = this.startCut(m);
        if (j.start < start || (before === '\r' && input.charCodeAt(j.start) === 0x0a)) {
          at = m.index + 1;
          continue;
        }
      }
      if (this.t.lineDollar && this.endCut(m) === '\n' && input.charCodeAt(j.end - 1) === 0x0d) {
        // Only reachable with nothing consumed (the translator refuses a pattern that can match
        // `\r` before such a `$`): Java has no match starting here.
        at = m.index + 1;
        continue;
      }
      return j;
    }
  }

  private program(p: Program, head = false): RE2 {
    const key = `${p.dollar} ${p.caret}`;
    let re = this.programs.get(key);
    if (!re) {
      const text = render(this.t.re2, p);
      re = makeRe2(head ? `\\A(?:${text})` : text, 'gud', this.source);
      this.programs.set(key, re);
    }
    return re;
  }

  /** The terminator a hidden group took before a MULTILINE `^`, or "". */
  private startCut(m: RegExpExecArray): string {
    for (const h of this.t.hiddenStart) {
      const text = m[h];
      if (typeof text === 'string' && text !== '') return text;
    }
    return '';
  }

  /** The terminator a hidden group took after a `$`, or "". */
  private endCut(m: RegExpExecArray): string {
    let cut = '';
    for (const h of this.t.hidden) {
      const text = m[h];
      // A hidden group only ever holds the line terminator Java's `$` stands before.
      if (typeof text === 'string' && text.length > cut.length) cut = text;
    }
    return cut;
  }

  private effectiveEnd(m: RegExpExecArray): number {
    const end = m.index + m[0].length;
    if (!this.hasHidden) return end;
    return end - this.endCut(m).length;
  }

  private toJava(m: RegExpExecArray): JavaMatch {
    const map = this.t.groupMap;
    const start = m.index + this.startCut(m).length;
    const end = this.effectiveEnd(m);
    const trimmed = end !== m.index + m[0].length;
    const indices = (m as RegExpExecArray & { indices?: Array<[number, number] | undefined> }).indices;
    const input = m.input;
    return {
      start,
      end,
      group(n: number): string | null {
        if (n === 0) return input.slice(start, end);
        const g = m[map[n]!];
        if (g === undefined || g === null) return null;
        if (!trimmed || !indices) return g;
        // A group that reached into the line terminator taken by a translated `$` stops at `$`.
        const span = indices[map[n]!];
        if (!span) return g;
        return input.slice(span[0], Math.min(span[1], end));
      },
    };
  }
}

function makeRe2(pattern: string, flags: string, javaSource: string): RE2 {
  try {
    return new RE2(pattern, flags);
  } catch (cause) {
    // RE2 rejects what the translation passed through unchanged: repetition counts above 1000,
    // unknown script names. Java accepts the former and rejects the latter.
    const message = cause instanceof Error ? cause.message : String(cause);
    const code = /invalid repetition size/.test(message) ? 'REGEX_UNSUPPORTED' : 'REGEX_SYNTAX';
    throw codedError(code, `${message} in regex ${JSON.stringify(javaSource)}`, { cause, details: { index: 0 } });
  }
}
