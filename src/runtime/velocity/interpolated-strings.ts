// Inside an interpolated string ("…" among a directive's or a call's arguments) Velocity 1.7
// reads references and directives as in text; velocityjs parses the string's own template later,
// without ./escapes.ts's top-level rewrites. The few that text after a reference needs there are
// made here, as the string is copied (./escapes.ts calls this for each character of one).

import { SEPARATOR, hashToken, prefixedRawBlock, raw, syntaxAt } from './hash-tokens.js';
import { BARE_REFERENCE_PAREN, PROPERTY_TAIL } from './lexer-states.js';
import { CALL_THEN_WORD, quietNoReference, REFERENCE_TAIL, UNBRACED_REFERENCE_TAIL, UNNAMED_BRACE, needsSeparator } from './rewrite-tails.js';

/**
 * What replaces the character at `i` of a double-quoted string, `out` being the rewritten text
 * before it, and where the source goes on; undefined to copy it as it is.
 */
export function inStringRewrite(source: string, i: number, out: string): { text: string; next: number } | undefined {
  const c = source[i];
  if (c === '(') {
    // `"$a.charAt(0)(x)"`: the `(` after a call or an index is text, as at the top level.
    if (/[)\]]$/.test(out) && UNBRACED_REFERENCE_TAIL.test(out.slice(-200))) return { text: `${SEPARATOR}(`, next: i + 1 };
    // `"$m.k("`: a call's arguments that the string ends before do not parse (at the top level
    // 1.7 reads such a `(` at the end as text; in a string, not).
    const close = source.slice(i).search(/[)"]/);
    if (PROPERTY_TAIL.test(out.slice(-200)) && (close < 0 || source[i + close] === '"')) syntaxAt(source, i, "the method call's ( has no closing ) in the string");
    return undefined;
  }
  if (c === '$') {
    // `"a$!)"`, `"a$!"`: as in text, a `$!` that starts no reference renders `$`.
    const quiet = quietNoReference(source, i);
    if (quiet) return quiet;
    // `"a$#[[x]]#"`: the prefixes are part of the raw block's token, as at the top level.
    const block = prefixedRawBlock(source, i);
    if (block) return { text: (needsSeparator(out, '#[[') ? SEPARATOR : '') + raw(block.text), next: block.next };
    // `"$!{)"`: a `${` or `$!{` that opens no reference is text, as at the top level.
    const open = UNNAMED_BRACE.exec(source.slice(i, i + 4));
    if (open?.index === 0) return { text: raw(open[0]), next: i + open[0].length };
    // `"$a(x)"`: a reference, then the text `(`.
    const bare = BARE_REFERENCE_PAREN.exec(source.slice(i, i + 200));
    return bare ? { text: `$${bare[1]}{${bare[2]}}`, next: i + bare[0].length } : undefined;
  }
  if (c !== '#') return undefined;
  // `"#[[r]]#b"`: a raw block is copied whole (its closing `#` starts no token: `#b` is text).
  const close = source.startsWith('#[[', i) ? source.indexOf(']]#', i + 3) : -1;
  if (close >= 0 && !source.slice(i, close).includes('"')) return { text: (needsSeparator(out, '#[[') ? SEPARATOR : '') + source.slice(i, close + 3), next: close + 3 };
  // `"$u#1 "`, `"x #@"`: text that starts like a directive but names none, as at the top level,
  // kept apart from a reference, or a call and a word, right before it.
  const token = hashToken(source, i);
  const tail = out.slice(-200);
  const apart = (token?.raw || !/^#(?:\{?[A-Za-z]|\*|#)/.test(source.slice(i, i + 3))) && (REFERENCE_TAIL.test(tail) || CALL_THEN_WORD.test(tail));
  if (token?.raw) return { text: (apart ? SEPARATOR : '') + token.text, next: token.next };
  return apart ? { text: `${SEPARATOR}#`, next: i + 1 } : undefined;
}

/**
 * The method calls open inside one interpolated string, whose arguments read as anywhere else
 * (`"$a.concat($$a)"`), and the single quote open among them (a single-quoted argument is not read).
 */
export class StringCalls {
  private depth = 0;
  private quote: string | null = null;

  get inArguments(): boolean {
    return this.depth > 0 && this.quote === null;
  }

  /** Account for `c`, copied into the string after the rewritten text `out`. */
  read(c: string, out: string): void {
    if (c === "'" && this.depth > 0) this.quote = this.quote === null ? c : null;
    else if (this.quote === null && c === '(' && (this.depth > 0 || PROPERTY_TAIL.test(out.slice(-200)))) this.depth++;
    else if (this.quote === null && c === ')' && this.depth > 0) this.depth--;
  }
}
