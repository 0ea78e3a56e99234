// A parser failure in VTL's words. velocityjs's generated parser fails with "Parse error on line
// 1" and the names of its grammar's tokens (VAR_END, CLOSE_PARENTHESIS); Velocity 1.7 says
// `Encountered "<EOF>" … Was expecting one of: "}"`. This module turns the parser's failure into
// what a person can act on, located at line:column of the template as written:
// - input that ends inside a `${`, a directive's or a method call's `(`, a `[` or a map's `{`
//   names the bracket left open where it opened (`${name has no closing }`);
// - any other failure says what was encountered and what Velocity was expecting there.
// It reads the failure only; how the template is parsed is parse.ts's.

import type { Rewritten } from './escapes.js';

/** What the generated parser attaches to its error (jison's `hash`). */
interface ParserHash {
  text?: string;
  token?: string | number;
  expected?: string[];
}

export interface SyntaxMessage {
  message: string;
  line: number;
  /** 1-based. */
  column: number;
}

/** The grammar's token names in VTL's words; tokens a person never types are left out. */
const WORDS: Record<string, string> = {
  PARENTHESIS: '"("',
  CLOSE_PARENTHESIS: '")"',
  VAR_END: '"}"',
  MAP_END: '"}"',
  MAP_BEGIN: '"{"',
  BRACKET: '"["',
  CLOSE_BRACKET: '"]"',
  COMMA: '","',
  DOT: '"."',
  EQUAL: '"="',
  DOLLAR: 'a $reference',
  STRING: 'a string',
  EVAL_STRING: 'a string',
  INTEGER: 'a number',
  BOOL: 'true or false',
  ID: 'a name',
};
const OPERATORS = new Set(['||', '&&', '+', '-', '*', '/', '%', '>', '<', '==', '>=', '<=', '!=']);

const CLOSERS = new Set(['")"', '"}"', '"]"']);

/** What the parser was expecting, in VTL's words; of the closing brackets, only the one of the bracket open there. */
function expecting(expected: readonly string[], open: Opener | undefined): string {
  const names = expected.map((e) => e.replace(/^'|'$/g, ''));
  const words = new Set<string>();
  for (const name of names) {
    const word = WORDS[name];
    if (word !== undefined && (open === undefined || !CLOSERS.has(word) || word === `"${open.close}"`)) words.add(word);
  }
  // Before a value, - and ! are signs, not operators.
  if (!names.includes('DOLLAR') && names.some((n) => OPERATORS.has(n))) words.add('an operator');
  const list = [...words];
  if (list.length === 0) return '';
  if (list.length <= 2) return `; was expecting ${list.join(' or ')}`;
  return `; was expecting one of ${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}`;
}

/**
 * Where the parser stopped, as an offset into the text it parsed: jison's message shows the
 * last 20 characters it consumed (newlines dropped, "..." before when cut) above a caret.
 */
function failureOffset(text: string, message: string): number | undefined {
  const [, shown, caret] = message.split('\n');
  if (shown === undefined || caret === undefined || !caret.endsWith('^')) return undefined;
  const at = caret.length - 1;
  const flat: number[] = [];
  let joined = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\n' || text[i] === '\r') continue;
    flat.push(i);
    joined += text[i];
  }
  flat.push(text.length);
  if (!shown.startsWith('...')) return flat[Math.min(at, flat.length - 1)];
  const past = shown.slice(3, at);
  const upcoming = shown.slice(at).replace(/\.\.\.$/, '');
  for (let end = joined.indexOf(past); end >= 0; end = joined.indexOf(past, end + 1)) {
    const offset = end + past.length;
    if (joined.startsWith(upcoming, offset)) return flat[offset];
  }
  return undefined;
}

/** 1-based line and 0-based column of an offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') - 1 };
}

interface Opener {
  at: number;
  close: string;
  what: string;
}

const DIRECTIVE_BEFORE = /#\{?([A-Za-z]\w*)\}?[ \t]*$/;
const BRACED_REFERENCE = /^\$!?\{[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*/;
const REFERENCE_BEFORE = /\$!?\{?[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*$/;

/** The brackets of references and directives still open before offset `end` of the template, innermost last. */
function openBefore(source: string, end = source.length): Opener[] {
  const open: Opener[] = [];
  for (let i = 0; i < end; i++) {
    const c = source[i]!;
    const reference = c === '$' ? BRACED_REFERENCE.exec(source.slice(i, i + 200)) : null;
    if (reference) {
      open.push({ at: i, close: '}', what: reference[0] });
      i += reference[0].length - 1;
    } else if (open.length === 0) {
      if (c === '\\') i++;
      else if (source.startsWith('##', i)) i = endOf(source, '\n', i);
      else if (source.startsWith('#*', i)) i = endOf(source, '*#', i);
      else if (source.startsWith('#[[', i)) i = endOf(source, ']]#', i);
      else if (c === '(') {
        const before = source.slice(Math.max(0, i - 80), i);
        const directive = DIRECTIVE_BEFORE.exec(before);
        if (directive) open.push({ at: i - directive[0].length, close: ')', what: `#${directive[1]}(` });
        else if (REFERENCE_BEFORE.test(before)) open.push({ at: i, close: ')', what: "the method call's (" });
      }
    } else if (c === '"' || c === "'") i = endOf(source, c, i);
    else if (c === '(' || c === '[' || c === '{') open.push({ at: i, close: c === '(' ? ')' : c === '[' ? ']' : '}', what: `the ${c}` });
    else if (c === open[open.length - 1]!.close) open.pop();
  }
  return open;
}

/** The offset of the last character of the next `end` after `from` (the end of the text when none). */
function endOf(source: string, end: string, from: number): number {
  const at = source.indexOf(end, from + 1);
  return at < 0 ? source.length : at + end.length - 1;
}

/**
 * The message and location of a parser failure. `source` is the template as written, `rewritten`
 * the text the parser read (escapes.ts), `failure` what the parser threw.
 */
export function describeParseFailure(source: string, rewritten: Rewritten, failure: unknown): SyntaxMessage {
  const hash = ((failure as { hash?: ParserHash })?.hash ?? {}) as ParserHash;
  const message = failure instanceof Error ? failure.message : String(failure);
  const offset = failureOffset(rewritten.text, message) ?? rewritten.text.length;
  const atEnd = hash.token === 'EOF' || hash.token === 1 || offset >= rewritten.text.length;
  if (atEnd) {
    const opener = openBefore(source).pop();
    if (opener) {
      const { line, column } = lineColumn(source, opener.at);
      return { message: `${opener.what} has no closing ${opener.close}`, line, column: column + 1 };
    }
  }
  const { line, column } = lineColumn(rewritten.text, offset);
  const sourceColumn = rewritten.column(line, column);
  const sourceOffset = source.split('\n').slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + sourceColumn;
  const encountered = atEnd ? 'end of input' : hash.text === undefined || hash.text === '' ? 'text' : hash.text.trim() === '' ? 'a space' : JSON.stringify(hash.text);
  return { message: `Encountered ${encountered}${expecting(hash.expected ?? [], openBefore(source, sourceOffset).pop())}`, line, column: sourceColumn + 1 };
}
