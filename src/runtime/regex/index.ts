// Java java.util.regex semantics over RE2
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/replace): the platform runs
// replace/replaceAll/split and Velocity's String.matches/replaceAll/split with java.util.regex,
// so patterns are translated from Java syntax to RE2 once, and matching, replacement and split
// follow java.util.regex.Matcher and java.lang.String rather than JavaScript.
//
// The translator (Java syntax → RE2 syntax) lives in ./regex/translate.ts; this module is the
// public surface: compiled patterns, Java replacement strings, replaceAll/split/matches/find.

import RE2 from 're2';
import { codedError } from '../../errors/index.js';
import { isTerminator, render, type Program } from './anchors.js';
import { fromSubject, hasLoneSurrogate, matchSubject } from './surrogates.js';
import { translateJavaPattern, type Translation } from './translate.js';

/** Inputs longer than this are matched one match at a time (see JavaPatternImpl.each). */
const LONG_INPUT = 4096;

export interface JavaPattern {
  readonly source: string;
  /** Number of capturing groups in the Java pattern. */
  readonly groupCount: number;
  /** Java String.replaceAll(regex, replacement). */
  replaceAll(input: string, replacement: JavaReplacement): string;
  /** Java String.replaceFirst(regex, replacement). */
  replaceFirst(input: string, replacement: JavaReplacement): string;
  /**
   * Java String.split(regex, limit); limit 0 (default) removes trailing empty strings. `guard`
   * is called with the number of parts so far before each new part; it may throw (a budget).
   */
  split(input: string, limit?: number, guard?: (parts: number) => void): string[];
  /** Whole-string match (String.matches). */
  matches(input: string): boolean;
  /** Any match (Matcher.find). */
  find(input: string): boolean;
}

type ReplacementPart =
  | { kind: 'text'; text: string }
  /** `$` followed by digits: Java takes the longest prefix that is a valid group number. */
  | { kind: 'number'; digits: string; index: number }
  | { kind: 'name'; name: string; index: number };

export interface JavaReplacement {
  readonly source: string;
  /** @internal parsed form */
  readonly parts: readonly ReplacementPart[];
}

/** A match with Java group numbering already applied (group 0 is the whole match). */
interface JavaMatch {
  start: number;
  end: number;
  group(n: number): string | null;
}

/**
 * Parse a Java replacement string (Matcher.appendReplacement syntax): `$n`, `${name}`, `\x`
 * quotes x. Errors that do not depend on the pattern are raised here (compile time); a group
 * number or name the pattern lacks is raised by replaceAll when a match occurs, as in Java.
 */
export function compileJavaReplacement(source: string): JavaReplacement {
  const parts: ReplacementPart[] = [];
  let text = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      if (i + 1 >= source.length) {
        throw codedError('REGEX_REPLACEMENT', 'character to be escaped is missing', { details: { index: i } });
      }
      text += source[i + 1];
      i += 2;
    } else if (c === '$') {
      const at = i;
      i++;
      if (i >= source.length) {
        throw codedError('REGEX_REPLACEMENT', 'Illegal group reference: group index is missing', { details: { index: at } });
      }
      if (source[i] === '{') {
        i++;
        let name = '';
        while (i < source.length && /[A-Za-z0-9]/.test(source[i]!)) name += source[i++];
        if (name.length === 0) {
          throw codedError('REGEX_REPLACEMENT', 'named capturing group has 0 length name', { details: { index: at } });
        }
        if (source[i] !== '}') {
          throw codedError('REGEX_REPLACEMENT', "named capturing group is missing trailing '}'", { details: { index: at } });
        }
        if (/^[0-9]/.test(name)) {
          throw codedError('REGEX_REPLACEMENT', `capturing group name {${name}} starts with digit character`, { details: { index: at } });
        }
        i++;
        if (text) parts.push({ kind: 'text', text });
        text = '';
        parts.push({ kind: 'name', name, index: at });
      } else if (/[0-9]/.test(source[i]!)) {
        let digits = '';
        while (i < source.length && /[0-9]/.test(source[i]!)) digits += source[i++];
        if (text) parts.push({ kind: 'text', text });
        text = '';
        parts.push({ kind: 'number', digits, index: at });
      } else {
        throw codedError('REGEX_REPLACEMENT', 'Illegal group reference', { details: { index: at } });
      }
    } else {
      text += c;
      i++;
    }
  }
  if (text) parts.push({ kind: 'text', text });
  return Object.freeze({ source, parts: Object.freeze(parts) });
}

/** Resolved against one pattern: group numbers (Java numbering) and literal text. */
type BoundPart = string | number;

/** Compile a Java regular expression. Throws REGEX_SYNTAX or REGEX_UNSUPPORTED with details.index. */
export function compileJavaRegex(source: string): JavaPattern {
  const translation = translateJavaPattern(source);
  return new Re2JavaPattern(source, translation);
}

class Re2JavaPattern implements JavaPattern {
  readonly groupCount: number;
  private readonly global: RE2;
  /** The other programs of ./anchors.ts, made when first needed. */
  private readonly programs = new Map<string, RE2>();
  private anchored: RE2 | undefined;
  private first: RE2 | undefined;
  private readonly hasHidden: boolean;
  private readonly js = new WeakMap<JavaReplacement, string | { error: () => never }>();
  private readonly bound = new WeakMap<JavaReplacement, BoundPart[] | { error: () => never }>();

  constructor(
    readonly source: string,
    private readonly t: Translation,
  ) {
    this.groupCount = t.groupCount;
    this.hasHidden = t.hidden.length > 0 || t.hiddenStart.length > 0;
    this.global = makeRe2(render(t.re2, SEARCH), this.hasHidden ? 'gud' : 'gu', source);
  }

  /** The string RE2 matches for `input` (lone surrogates moved: ./surrogates.ts). */
  private subject(input: string): string {
    return matchSubject(input, this.t.surrogateBlind, this.source);
  }

  find(raw: string): boolean {
    const input = this.subject(raw);
    if (this.hasHidden) return this.next(input, 0, null) !== null;
    this.global.lastIndex = 0;
    return this.global.test(input);
  }

  matches(raw: string): boolean {
    const input = this.subject(raw);
    if (!this.anchored) this.anchored = makeRe2(`\\A(?:${render(this.t.re2, { dollar: 'whole', caret: 'head' })})\\z`, this.hasHidden ? 'ud' : 'u', this.source);
    // Java's MULTILINE `^` never matches at the end of the input, so not in an empty one.
    if (input.length === 0 && this.t.hiddenStart.length > 0) return false;
    const m = this.anchored.exec(input);
    if (!m) return false;
    // A trailing line terminator taken by a translated `$` is not part of the match in Java.
    return this.effectiveEnd(m) === input.length;
  }

  replaceAll(input: string, replacement: JavaReplacement): string {
    return this.replace(input, replacement, true);
  }

  replaceFirst(input: string, replacement: JavaReplacement): string {
    return this.replace(input, replacement, false);
  }

  split(input: string, limit = 0, guard?: (parts: number) => void): string[] {
    const list: string[] = [];
    const limited = limit > 0;
    let index = 0;
    // Parts are cut from the input itself: the subject only moves lone surrogates.
    this.each(this.subject(input), (start, end) => {
      if (limited && list.length >= limit - 1) return false;
      if (guard !== undefined) guard(list.length);
      // Java 8+: a zero-width match at the beginning never produces a leading empty string.
      if (index === 0 && start === 0 && end === 0) return true;
      list.push(input.slice(index, start));
      index = end;
      return true;
    });
    if (index === 0 && list.length === 0) return [input];
    list.push(input.slice(index));
    if (limit === 0) {
      let size = list.length;
      while (size > 0 && list[size - 1] === '') size--;
      list.length = size;
    }
    return list;
  }

  private replace(input: string, replacement: JavaReplacement, all: boolean): string {
    const subject = this.subject(input);
    // RE2's native replace would turn a lone surrogate of the input or the replacement into U+FFFD.
    const native = !this.hasHidden && subject === input && !hasLoneSurrogate(replacement.source);
    if (native) {
      // One native pass (RE2's own replace loop advances over empty matches exactly as
      // Matcher.find does); the replacement is bound to this pattern on the first match only,
      // so that, as in Java, an illegal group reference is no error when nothing matches.
      const re = all ? this.global : (this.first ??= makeRe2(render(this.t.re2, SEARCH), 'u', this.source));
      re.lastIndex = 0;
      const js = this.jsReplacement(replacement);
      if (typeof js === 'string') return re.replace(input, js);
      // An illegal group reference: Java reports it only when something matches.
      if (!re.test(input)) return input;
      return js.error();
    }
    const first = this.next(subject, 0, null);
    // Java returns the input untouched when nothing matches, without reading the replacement.
    if (!first) return input;
    const parts = this.bind(replacement);
    let out = '';
    let index = 0;
    for (let m: JavaMatch | null = first; m; m = all ? this.next(subject, m.end, m) : null) {
      out += input.slice(index, m.start);
      for (const p of parts) {
        if (typeof p === 'string') out += p;
        else {
          const g = m.group(p);
          if (g !== null) out += subject === input ? g : fromSubject(g);
        }
      }
      index = m.end;
    }
    return out + input.slice(index);
  }

  /**
   * Visit every match (start, end) in order until `visit` returns false. RE2's replace with a
   * callback is one native pass but costs time proportional to the input for every match (it
   * hands the callback the whole input), so long inputs are walked match by match instead,
   * which also stops as soon as `visit` says so.
   */
  private each(input: string, visit: (start: number, end: number) => boolean): void {
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
   * The replacement in RE2's (JavaScript) syntax, group numbers mapped to RE2's: `$$` for a
   * literal `$` and two-digit `$0k`, so that a literal digit after a reference is never read as
   * part of it. RE2 then runs its own native replace loop, one pass over the input.
   */
  private jsReplacement(replacement: JavaReplacement): string | { error: () => never } {
    const cached = this.js.get(replacement);
    if (cached !== undefined) return cached;
    let out: string | { error: () => never };
    try {
      out = '';
      for (const p of this.bind(replacement)) {
        if (typeof p === 'string') out += p.replace(/\$/g, '$$$$');
        else {
          const k = this.t.groupMap[p]!;
          out += k === 0 ? '$&' : `$${k < 10 ? '0' : ''}${k}`;
        }
      }
    } catch (error) {
      out = {
        error: () => {
          throw error;
        },
      };
    }
    this.js.set(replacement, out);
    return out;
  }

  /** Resolve `$n` / `${name}` against this pattern, as Matcher.appendReplacement does. */
  private bind(replacement: JavaReplacement): BoundPart[] {
    const cached = this.bound.get(replacement);
    if (cached) {
      if (Array.isArray(cached)) return cached;
      return cached.error();
    }
    try {
      const out: BoundPart[] = [];
      for (const p of replacement.parts) {
        if (p.kind === 'text') {
          out.push(p.text);
        } else if (p.kind === 'name') {
          const n = this.t.names.get(p.name);
          if (n === undefined) {
            throw codedError('REGEX_REPLACEMENT', `No group with name {${p.name}}`, { details: { index: p.index, name: p.name } });
          }
          out.push(n);
        } else {
          let ref = Number(p.digits[0]);
          let used = 1;
          while (used < p.digits.length) {
            const next = ref * 10 + Number(p.digits[used]);
            if (next > this.groupCount) break;
            ref = next;
            used++;
          }
          if (ref > this.groupCount) {
            throw codedError('REGEX_REPLACEMENT', `No group ${ref}`, { details: { index: p.index, group: ref } });
          }
          out.push(ref);
          if (used < p.digits.length) out.push(p.digits.slice(used));
        }
      }
      this.bound.set(replacement, out);
      return out;
    } catch (error) {
      this.bound.set(replacement, {
        error: () => {
          throw error;
        },
      });
      throw error;
    }
  }

  /**
   * The next match at or after `from`, following Matcher.find: after an empty match the search
   * resumes one character further on (one code point, so that a surrogate pair is never split).
   * The anchors of ./anchors.ts are checked here for what RE2 cannot see: a MULTILINE `^` never
   * holds at the end of the input nor between `\r` and `\n`, a MULTILINE `$` never between
   * `\r` and `\n`; a candidate that breaks one is skipped and the search goes on after it.
   */
  private next(input: string, from: number, previous: JavaMatch | null): JavaMatch | null {
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

const SEARCH: Program = { dollar: 'search', caret: 'consume' };

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
