// Java java.util.regex semantics over RE2
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/replace): the platform runs
// replace/replaceAll/split and Velocity's String.matches/replaceAll/split with java.util.regex,
// so patterns are translated from Java syntax to RE2 once, and matching, replacement and split
// follow java.util.regex.Matcher and java.lang.String rather than JavaScript.
//
// This module is the public surface: compiled patterns with java.lang.String's replaceAll,
// replaceFirst, split and matches. The translator (Java syntax → RE2 syntax) is ./translate.ts,
// Matcher's search over the RE2 programs ./matcher.ts, and Java replacement strings ./replacement.ts.

import { fromSubject, hasLoneSurrogate, matchSubject } from './surrogates.js';
import { JavaMatcher, type JavaMatch } from './matcher.js';
import { bindReplacement, re2Replacement, type BoundPart, type JavaReplacement } from './replacement.js';
import { translateJavaPattern, type Translation } from './translate.js';

export { compileJavaReplacement, type JavaReplacement } from './replacement.js';

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

/** Compile a Java regular expression. Throws REGEX_SYNTAX or REGEX_UNSUPPORTED with details.index. */
export function compileJavaRegex(source: string): JavaPattern {
  const translation = translateJavaPattern(source);
  return new Re2JavaPattern(source, translation);
}

/** A replacement bound to one pattern: its parts and their RE2 form (./replacement.ts), or why it cannot be. */
type Binding = { parts: BoundPart[]; re2: string } | { error: unknown };

class Re2JavaPattern implements JavaPattern {
  readonly groupCount: number;
  private readonly matcher: JavaMatcher;
  /** Each replacement bound to this pattern once: its parts and RE2 form, or the error binding raised. */
  private readonly bindings = new WeakMap<JavaReplacement, Binding>();

  constructor(
    readonly source: string,
    private readonly t: Translation,
  ) {
    this.groupCount = t.groupCount;
    this.matcher = new JavaMatcher(source, t);
  }

  /** The string RE2 matches for `input` (lone surrogates moved: ./surrogates.ts). */
  private subject(input: string): string {
    return matchSubject(input, this.t.surrogateBlind, this.source);
  }

  find(raw: string): boolean {
    return this.matcher.find(this.subject(raw));
  }

  matches(raw: string): boolean {
    return this.matcher.matches(this.subject(raw));
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
    this.matcher.each(this.subject(input), (start, end) => {
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
    const native = !this.matcher.hasHidden && subject === input && !hasLoneSurrogate(replacement.source);
    if (native) {
      // One native pass (RE2's own replace loop advances over empty matches exactly as
      // Matcher.find does); the replacement is bound to this pattern on the first match only,
      // so that, as in Java, an illegal group reference is no error when nothing matches.
      const re = all ? this.matcher.global : this.matcher.firstProgram();
      re.lastIndex = 0;
      const binding = this.bind(replacement);
      if (!('error' in binding)) return re.replace(input, binding.re2);
      // An illegal group reference: Java reports it only when something matches.
      if (!re.test(input)) return input;
      throw binding.error;
    }
    const first = this.matcher.next(subject, 0, null);
    // Java returns the input untouched when nothing matches, without reading the replacement.
    if (!first) return input;
    const binding = this.bind(replacement);
    if ('error' in binding) throw binding.error;
    const { parts } = binding;
    let out = '';
    let index = 0;
    for (let m: JavaMatch | null = first; m; m = all ? this.matcher.next(subject, m.end, m) : null) {
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
   * Resolve `$n` / `${name}` against this pattern, as Matcher.appendReplacement does, once per
   * replacement. A group the pattern lacks is kept as the error, raised by the caller only when
   * something matches, as in Java.
   */
  private bind(replacement: JavaReplacement): Binding {
    let binding = this.bindings.get(replacement);
    if (binding === undefined) {
      try {
        const parts = bindReplacement(replacement, this.groupCount, this.t.names);
        binding = { parts, re2: re2Replacement(parts, this.t.groupMap) };
      } catch (error) {
        binding = { error };
      }
      this.bindings.set(replacement, binding);
    }
    return binding;
  }
}
