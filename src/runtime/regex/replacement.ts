// Java replacement strings (java.util.regex.Matcher.appendReplacement syntax, as the platform's
// replace and replaceAll use them: https://developer.sailpoint.com/docs/extensibility/transforms/operations/replace):
// `$n`, `${name}`, and `\x` for a literal x. A replacement is parsed once, on its own, and then
// bound to each pattern it is used with, since what `$12` means depends on the pattern's groups.

import { codedError } from '../../errors/index.js';

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
export type BoundPart = string | number;

/**
 * Resolve `$n` / `${name}` against a pattern with `groupCount` groups and these named groups, as
 * Matcher.appendReplacement does. Throws REGEX_REPLACEMENT for a group the pattern lacks.
 */
export function bindReplacement(replacement: JavaReplacement, groupCount: number, names: ReadonlyMap<string, number>): BoundPart[] {
  const out: BoundPart[] = [];
  for (const p of replacement.parts) {
    if (p.kind === 'text') {
      out.push(p.text);
    } else if (p.kind === 'name') {
      const n = names.get(p.name);
      if (n === undefined) {
        throw codedError('REGEX_REPLACEMENT', `No group with name {${p.name}}`, { details: { index: p.index, name: p.name } });
      }
      out.push(n);
    } else {
      let ref = Number(p.digits[0]);
      let used = 1;
      while (used < p.digits.length) {
        const next = ref * 10 + Number(p.digits[used]);
        if (next > groupCount) break;
        ref = next;
        used++;
      }
      if (ref > groupCount) {
        throw codedError('REGEX_REPLACEMENT', `No group ${ref}`, { details: { index: p.index, group: ref } });
      }
      out.push(ref);
      if (used < p.digits.length) out.push(p.digits.slice(used));
    }
  }
  return out;
}

/**
 * A bound replacement in RE2's (JavaScript) syntax, Java group numbers mapped to RE2's through
 * `groupMap`: `$$` for a literal `$` and two-digit `$0k`, so that a literal digit after a
 * reference is never read as part of it. RE2 then runs its own native replace loop, one pass
 * over the input.
 */
export function re2Replacement(parts: readonly BoundPart[], groupMap: readonly number[]): string {
  let out = '';
  for (const p of parts) {
    if (typeof p === 'string') out += p.replace(/\$/g, '$$$$');
    else {
      const k = groupMap[p]!;
      out += k === 0 ? '$&' : `$${k < 10 ? '0' : ''}${k}`;
    }
  }
  return out;
}
