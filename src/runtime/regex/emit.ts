// RE2 text for the pieces the Java-pattern translator emits (Java regex semantics): literals,
// character sets and Java's \Q…\E pre-pass (case folding lives in ./classes.ts and ./case-fold.ts).

import type { CodeSet } from './classes.js';

export interface Flags {
  i: boolean;
  d: boolean;
  m: boolean;
  s: boolean;
  u: boolean;
  x: boolean;
}

const META = new Set('\\.+*?()|[]{}^$'.split(''));

/** java.util.regex.Pattern.RemoveQEQuoting: \Q…\E becomes escaped text before parsing. */
export function removeQuoting(p: string): string {
  if (!p.includes('\\Q')) return p;
  let out = '';
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === '\\' && p[i + 1] === 'Q') {
      i += 2;
      const end = p.indexOf('\\E', i);
      const quoted = end < 0 ? p.slice(i) : p.slice(i, end);
      for (const ch of quoted) out += /[A-Za-z0-9]/.test(ch) || ch.codePointAt(0)! > 0x7f ? ch : '\\' + ch;
      i = end < 0 ? p.length : end + 2;
    } else if (c === '\\' && i + 1 < p.length) {
      out += c + p[i + 1];
      i += 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function hex(cp: number): string {
  return `\\x{${cp.toString(16).toUpperCase()}}`;
}

/** A literal code point as RE2 text outside a class. */
export function literal(cp: number): string {
  const ch = String.fromCodePoint(cp);
  if (META.has(ch)) return '\\' + ch;
  if (cp > 0x20 && cp < 0x7f) return ch;
  return hex(cp);
}

/** A code set as RE2 text: a single literal, or a bracketed class. */
export function emitSet(set: CodeSet, negated: boolean): string {
  if (!negated && set.props.length === 0 && set.ranges.length === 1 && set.ranges[0]![0] === set.ranges[0]![1]) {
    return literal(set.ranges[0]![0]);
  }
  if (set.ranges.length === 0 && set.props.length === 0) {
    // The empty class: nothing matches (or, negated, everything does).
    return negated ? '[\\x{0}-\\x{10FFFF}]' : '[^\\x{0}-\\x{10FFFF}]';
  }
  let body = '';
  for (const [lo, hi] of set.ranges) body += lo === hi ? classChar(lo) : `${classChar(lo)}-${classChar(hi)}`;
  for (const p of set.props) body += p;
  return `[${negated ? '^' : ''}${body}]`;
}

function classChar(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return String.fromCharCode(cp);
  return hex(cp);
}

export function flipProp(p: string): string {
  return p.startsWith('\\p') ? '\\P' + p.slice(2) : '\\p' + p.slice(2);
}
