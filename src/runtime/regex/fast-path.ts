// A JavaScript RegExp in front of RE2 for the simplest Java patterns, where java.util.regex
// (https://docs.oracle.com/javase/8/docs/api/java/util/regex/Pattern.html) and ECMAScript
// (https://tc39.es/ecma262/#sec-regexp-regular-expression-objects) provably agree: ASCII
// literals, `.`, `\d \s \w` and their negations, simple classes, quantifiers on single atoms,
// capturing groups that are not repeated, `^` first and `$` last. Both are leftmost-first
// backtracking matchers, so on such patterns they find the same matches with the same groups;
// what differs is spelled out below (`.`, `\s`, `$`). Anything else, including every pattern
// that can match the empty string (where the two advance differently after an empty match), a
// replacement that names a group or refers to one the pattern lacks (an error in Java), and an
// input with a lone surrogate (which the general path keeps apart from RE2's UTF-8, surrogates.ts),
// goes to the general RE2 path. Only replaceAll, replaceFirst, find and matches take the fast
// path; split keeps the general one. An input without any surrogate is matched without the `u`
// flag (one code unit is one code point there, so both flags match alike, and V8 runs it faster).
//
// Backtracking can take time exponential in the number of quantifiers where RE2 is linear, so
// an input goes to the fast path only while len^(unbounded quantifiers + 1) × (choices of the
// bounded ones) stays under FAST_STEPS: a bound on the paths a backtracking matcher can try.

import type { JavaPattern, JavaReplacement } from './index.js';
import { hasLoneSurrogate } from './surrogates.js';

const FAST_STEPS = 2 ** 20;

/** Any UTF-16 surrogate unit (no `u` flag: each unit on its own). */
const SURROGATE = /[\uD800-\uDFFF]/;
const NONE = 0;
const BMP = 1;
const PAIRS = 2;

/** Java's `.` (no DOTALL): any code point but the line terminators. */
const DOT = '[^\\n\\r\\u0085\\u2028\\u2029]';
/** Java's `$` (no MULTILINE): at the end, or before a final line terminator (never inside \r\n). */
const DOLLAR = '(?:$|(?=\\r\\n$)|(?<!\\r)(?=\\n$)|(?=[\\r\\u0085\\u2028\\u2029]$))';
/** Java's predefined classes without UNICODE_CHARACTER_CLASS: ASCII only (JavaScript's \s is Unicode). */
const CLASSES: Record<string, string> = { d: '0-9', s: '\\t\\n\\x0B\\f\\r ', w: 'a-zA-Z_0-9' };
/** ASCII characters that stand for themselves outside a class in both languages. */
const PLAIN = /^[A-Za-z0-9 !"#%&',\-/:;<=>@_`~]$/;
/** ASCII characters that stand for themselves inside a class (no `[`, `]`, `\`, `&`, `^`, `-`). */
const CLASS_PLAIN = /^[A-Za-z0-9 !"#$%'()*+,./:;<=>?@_`{|}~]$/;

interface Shape {
  /** The JavaScript source. */
  js: string;
  groups: number;
  /** The shortest match's length (0: the pattern may match the empty string). */
  min: number;
  unbounded: number;
  /** Product of (max − min + 1) over the bounded quantifiers. */
  choices: number;
}

/** The pattern as a JavaScript RegExp source, or undefined when it is outside the subset. */
function translate(source: string): Shape | undefined {
  let i = 0;
  const shape: Shape = { js: '', groups: 0, min: 0, unbounded: 0, choices: 1 };
  const sequence = (depth: number): { js: string; min: number } | undefined => {
    let js = '';
    let min = 0;
    while (i < source.length) {
      const c = source[i]!;
      if (c === ')') {
        if (depth === 0) return undefined;
        return { js, min };
      }
      if (c === '^') {
        if (i !== 0) return undefined;
        js += '^';
        i++;
        continue;
      }
      if (c === '$') {
        if (depth !== 0 || i !== source.length - 1) return undefined;
        js += DOLLAR;
        i++;
        continue;
      }
      let atom: string;
      if (c === '(') {
        if (source[i + 1] === '?') return undefined;
        i++;
        shape.groups++;
        const inner = sequence(depth + 1);
        if (inner === undefined || source[i] !== ')') return undefined;
        i++;
        // A repeated group keeps its last capture in Java and is reset per iteration in JavaScript.
        if (i < source.length && '*+?{'.includes(source[i]!)) return undefined;
        js += `(${inner.js})`;
        min += inner.min;
        continue;
      }
      if (c === '.') {
        atom = DOT;
        i++;
      } else if (c === '[') {
        const cls = characterClass();
        if (cls === undefined) return undefined;
        atom = cls;
      } else if (c === '\\') {
        const e = escape(false);
        if (e === undefined) return undefined;
        atom = e;
      } else if (PLAIN.test(c)) {
        atom = c;
        i++;
      } else {
        return undefined;
      }
      const q = quantifier();
      if (q === undefined) return undefined;
      js += atom + q.js;
      min += q.min;
    }
    return depth === 0 ? { js, min } : undefined;
  };
  // `\x` outside (inClass false) or inside a class: a predefined class or a quoted punctuation character.
  const escape = (inClass: boolean): string | undefined => {
    const e = source[i + 1];
    if (e === undefined) return undefined;
    i += 2;
    const set = CLASSES[e.toLowerCase()];
    if (set !== undefined && 'dswDSW'.includes(e)) {
      if (e === e.toLowerCase()) return inClass ? set : `[${set}]`;
      return inClass ? undefined : `[^${set}]`;
    }
    // Java quotes any non-alphabetic character with a backslash; only ASCII punctuation is taken here.
    if (!/^[!-/:-@[-`{-~]$/.test(e)) return undefined;
    return `\\x${e.charCodeAt(0).toString(16).padStart(2, '0')}`;
  };
  const characterClass = (): string | undefined => {
    i++;
    let js = '[';
    if (source[i] === '^') {
      js += '^';
      i++;
    }
    let items = 0;
    for (;;) {
      const c = source[i];
      if (c === undefined) return undefined;
      if (c === ']') {
        if (items === 0) return undefined;
        i++;
        return js + ']';
      }
      // `-` is taken only first or last, where both languages read it as itself.
      if (c === '-') {
        if (items !== 0 && source[i + 1] !== ']') return undefined;
        js += '\\-';
        i++;
      } else if (c === '\\') {
        const e = escape(true);
        if (e === undefined) return undefined;
        js += e;
      } else if (CLASS_PLAIN.test(c)) {
        i++;
        if (source[i] === '-' && source[i + 1] !== ']') {
          const to = source[i + 1];
          if (to === undefined || !CLASS_PLAIN.test(to) || to < c) return undefined;
          js += `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}-\\x${to.charCodeAt(0).toString(16).padStart(2, '0')}`;
          i += 2;
        } else {
          js += `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
        }
      } else {
        return undefined;
      }
      items++;
    }
  };
  const quantifier = (): { js: string; min: number } | undefined => {
    const c = source[i];
    let min = 1;
    let max = 1;
    let js = '';
    if (c === '*' || c === '+' || c === '?') {
      min = c === '+' ? 1 : 0;
      max = c === '?' ? 1 : Infinity;
      js = c;
      i++;
    } else if (c === '{') {
      const m = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(source.slice(i));
      if (!m) return undefined;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      if (max < min || min > 1000 || (max !== Infinity && max > 1000)) return undefined;
      js = m[0];
      i += m[0].length;
    } else {
      return { js: '', min: 1 };
    }
    if (source[i] === '?') {
      js += '?';
      i++;
    } else if (source[i] === '+' || source[i] === '*' || source[i] === '{') {
      // Possessive (Java only) or a repeated quantifier.
      return undefined;
    }
    if (max === Infinity) shape.unbounded++;
    else shape.choices *= max - min + 1;
    return { js, min };
  };
  const top = sequence(0);
  if (top === undefined || i !== source.length) return undefined;
  shape.js = top.js;
  shape.min = top.min;
  return shape;
}

/**
 * The pattern with a JavaScript RegExp fast path when its source is in the subset above and
 * cannot match the empty string; otherwise the general pattern itself. `general` must be the
 * compiled pattern of the same source (its compilation raised any syntax error already).
 */
export function withFastPath(general: JavaPattern): JavaPattern {
  const shape = translate(general.source);
  if (shape === undefined || shape.min === 0 || shape.groups !== general.groupCount || shape.choices > FAST_STEPS) return general;
  return new FastJavaPattern(general, shape);
}

class FastJavaPattern implements JavaPattern {
  readonly source: string;
  readonly groupCount: number;
  /** For inputs with surrogate pairs: with the `u` flag, `.` and negated classes take a pair as one code point, as Java does. */
  private readonly all: RegExp;
  private readonly first: RegExp;
  private readonly whole: RegExp;
  /**
   * For inputs without any surrogate (most text), where a code unit is a code point and both
   * flags match alike: without `u`, which V8 runs faster (anchored patterns about twice as fast).
   */
  private readonly allBmp: RegExp;
  private readonly firstBmp: RegExp;
  private readonly wholeBmp: RegExp;
  /** Inputs longer than this go to RE2 (see FAST_STEPS). */
  private readonly maxLength: number;
  /** Each replacement in JavaScript's syntax, or null where the general path must run it. */
  private readonly replacements = new WeakMap<JavaReplacement, string | null>();
  /** The last replacement asked for and its JavaScript form: a replace node asks with the same one every time. */
  private lastReplacement: JavaReplacement | undefined = undefined;
  private lastJs: string | null = null;

  constructor(
    private readonly general: JavaPattern,
    shape: Shape,
  ) {
    this.source = general.source;
    this.groupCount = general.groupCount;
    this.all = new RegExp(shape.js, 'gu');
    this.first = new RegExp(shape.js, 'u');
    this.whole = new RegExp(`^(?:${shape.js})$`, 'u');
    this.allBmp = new RegExp(shape.js, 'g');
    this.firstBmp = new RegExp(shape.js);
    this.wholeBmp = new RegExp(`^(?:${shape.js})$`);
    this.maxLength = Math.floor((FAST_STEPS / shape.choices) ** (1 / (shape.unbounded + 1)));
  }

  /** How `input` is matched here: NONE (the general path), BMP (no surrogate at all) or PAIRS (surrogates, all paired). */
  private fast(input: string): number {
    if (input.length > this.maxLength) return NONE;
    if (!SURROGATE.test(input)) return BMP;
    return hasLoneSurrogate(input) ? NONE : PAIRS;
  }

  replaceAll(input: string, replacement: JavaReplacement): string {
    const js = this.replacement(replacement);
    const how = js === null ? NONE : this.fast(input);
    if (how === NONE) return this.general.replaceAll(input, replacement);
    return input.replace(how === BMP ? this.allBmp : this.all, js!);
  }

  replaceFirst(input: string, replacement: JavaReplacement): string {
    const js = this.replacement(replacement);
    const how = js === null ? NONE : this.fast(input);
    if (how === NONE) return this.general.replaceFirst(input, replacement);
    return input.replace(how === BMP ? this.firstBmp : this.first, js!);
  }

  split(input: string, limit?: number, guard?: (parts: number) => void): string[] {
    return this.general.split(input, limit, guard);
  }

  matches(input: string): boolean {
    const how = this.fast(input);
    return how === NONE ? this.general.matches(input) : (how === BMP ? this.wholeBmp : this.whole).test(input);
  }

  find(input: string): boolean {
    const how = this.fast(input);
    return how === NONE ? this.general.find(input) : (how === BMP ? this.firstBmp : this.first).test(input);
  }

  /**
   * Java's replacement in JavaScript's syntax (`$$` for `$`, `$&` for group 0, two-digit `$0k`
   * so that a digit after a reference is never read as part of it), resolving `$n` as
   * Matcher.appendReplacement does: the longest prefix of the digits that is a group number.
   */
  private replacement(replacement: JavaReplacement): string | null {
    if (replacement === this.lastReplacement) return this.lastJs;
    let js = this.replacements.get(replacement);
    if (js !== undefined) return this.remember(replacement, js);
    js = '';
    for (const p of replacement.parts) {
      if (p.kind === 'text') {
        js += p.text.replace(/\$/g, '$$$$');
      } else if (p.kind === 'name') {
        js = null;
        break;
      } else {
        let ref = Number(p.digits[0]);
        let used = 1;
        while (used < p.digits.length && ref * 10 + Number(p.digits[used]) <= this.groupCount) ref = ref * 10 + Number(p.digits[used++]);
        if (ref > this.groupCount) {
          js = null;
          break;
        }
        js += ref === 0 ? '$&' : `$${ref < 10 ? '0' : ''}${ref}`;
        js += p.digits.slice(used).replace(/\$/g, '$$$$');
      }
    }
    this.replacements.set(replacement, js);
    return this.remember(replacement, js);
  }

  private remember(replacement: JavaReplacement, js: string | null): string | null {
    this.lastReplacement = replacement;
    this.lastJs = js;
    return js;
  }
}
