// Velocity's backslash escapes (reference §3.2, §5.2 "$ inside regex/replacement"): velocityjs
// drops a backslash before every `$` and `#`, but Velocity keeps it unless it escapes a
// reference or a directive. That matters for regexes and Java replacements written in
// transforms (`\$` is a literal dollar in both): `"\$5"` must reach Java as `\$5`, not `$5`.
// This pass rewrites the escapes into raw blocks `#[[…]]#` that velocityjs emits verbatim.

const REFERENCE_HEAD = /^\$!?\{?[A-Za-z_]/;
const DIRECTIVE_HEAD = /^#\{?[A-Za-z]/;

/** After a directive name or a reference path, `(` opens arguments (quotes are strings there). */
const CALL_BEFORE = /(#\{?[A-Za-z]\w*\}?\s*|\$!?\{?[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*|\)\.[A-Za-z_][\w-]*)$/;

/**
 * Rewrite backslash escapes the way Velocity reads them:
 * - `\$5`, `\$)`, `\#1` (no reference or directive follows): the text stays as written;
 * - `\$name`, `\#if` (an odd run of backslashes before a reference or directive): one level of
 *   backslashes is removed and the reference or directive is literal text — Velocity's
 *   `runtime.references.strict.escape` behaviour, which does not depend on whether `$name` is set;
 * - `\\$name` (an even run): half the backslashes, then the reference itself.
 * Inside single-quoted strings of directive or method arguments nothing is rewritten (they are
 * not interpolated).
 */
export interface Rewritten {
  text: string;
  /** Map a 0-based column on a 1-based line of `text` back to the source's column. */
  column(line: number, column: number): number;
}

const IDENTITY: Rewritten['column'] = (_line, column) => column;

export function rewriteEscapes(source: string): Rewritten {
  if (!source.includes('\\')) return { text: source, column: IDENTITY };
  let out = '';
  let depth = 0;
  let quote: string | null = null;
  let i = 0;
  let line = 1;
  let lineStart = 0;
  // Raw blocks lengthen a line: [line, rewritten column after the block, characters added].
  const shifts: Array<[number, number, number]> = [];
  const escape = () => {
    const r = escapeAt(source, i);
    out += r.text;
    const added = r.text.length - (r.next - i);
    if (added !== 0) shifts.push([line, out.length - lineStart, added]);
    i = r.next;
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\n') {
      line++;
      lineStart = out.length + 1;
    }
    if (depth > 0 && quote !== null) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') {
        escape();
        continue;
      }
      out += c;
      i++;
      continue;
    }
    if (c === '\\') {
      escape();
      continue;
    }
    // Only the end of the output can precede this `(`: look at a bounded tail, not all of it.
    if (c === '(' && (depth > 0 || CALL_BEFORE.test(out.slice(-120)))) depth++;
    else if (c === ')' && depth > 0) depth--;
    else if (depth > 0 && (c === '"' || c === "'")) quote = c;
    out += c;
    i++;
  }
  if (shifts.length === 0) return { text: out, column: IDENTITY };
  return {
    text: out,
    column(l, column) {
      let original = column;
      for (const [sl, end, added] of shifts) if (sl === l && end <= column) original -= added;
      return original;
    },
  };
}

function escapeAt(source: string, start: number): { text: string; next: number } {
  let k = 0;
  while (source[start + k] === '\\') k++;
  const after = source.slice(start + k);
  const target = after[0];
  const run = source.slice(start, start + k);
  if (target !== '$' && target !== '#') return { text: run, next: start + k };
  const head = target === '$' ? REFERENCE_HEAD.test(after) : DIRECTIVE_HEAD.test(after);
  if (!head) {
    // Nothing to escape: Velocity prints the backslashes and the character as they are.
    return { text: raw(run + target), next: start + k + 1 };
  }
  if (k % 2 === 1) {
    // An escaped reference or directive: half the backslashes, then the text literally.
    return { text: raw('\\'.repeat((k - 1) / 2) + target), next: start + k + 1 };
  }
  // An even run: half the backslashes, then the reference or directive itself.
  return { text: raw('\\'.repeat(k / 2)), next: start + k };
}

function raw(text: string): string {
  return `#[[${text}]]#`;
}
