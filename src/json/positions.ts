// Where a problem is in a JSON text or file, said one way everywhere: `file:line:column` (1-based,
// the column in characters, as editors count them) and a plain sentence. The parser's own error
// codes (jsonc-parser's PropertyNameExpected, InvalidSymbol…) are mapped to sentences here and
// never shown. Everything in this module runs only once something is wrong: a clean run never
// counts lines or loads the position-keeping parser.

import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Jsonc from 'jsonc-parser';
import { codedError, pointerTokens, type TransformsError } from '../errors/index.js';

const require = createRequire(import.meta.url);
let jsoncLoaded: typeof Jsonc | undefined;
/** jsonc-parser, loaded on first use. */
export function jsonc(): typeof Jsonc {
  return (jsoncLoaded ??= require('jsonc-parser') as typeof Jsonc);
}

export interface Position {
  line: number;
  column: number;
}

/** `file:line:column`, the one way positions are written. */
export function formatPosition(file: string, position: Position): string {
  return `${file}:${position.line}:${position.column}`;
}

/** A UTF-8 byte-order mark, as the first character of a decoded text. */
export const BYTE_ORDER_MARK = '\uFEFF';

/** The text without a leading byte-order mark (editors on Windows write one; JSON.parse rejects it). */
export function stripByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** 1-based line and column of a character offset of `text`. */
export function positionOf(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const OPTIONS = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false } as const;

/** A plain sentence for one of jsonc-parser's error codes at `offset` of `text`. */
function sentence(error: Jsonc.ParseErrorCode, text: string, offset: number): string {
  const name = jsonc().printParseErrorCode(error);
  const at = text.charAt(offset);
  const closing = at === '}' || at === ']';
  switch (name) {
    case 'InvalidSymbol':
      if (at === BYTE_ORDER_MARK) return 'a byte-order mark (U+FEFF) is not allowed here';
      return at === "'" ? 'strings must be in double quotes' : `unexpected character ${JSON.stringify(at)}`;
    case 'InvalidNumberFormat':
      return 'invalid number';
    case 'PropertyNameExpected':
      return closing ? 'a trailing comma is not allowed before "}"' : 'expected a property name in double quotes';
    case 'ValueExpected':
      if (closing) return `a trailing comma is not allowed before "${at}"`;
      return at === '' ? 'unexpected end of the text: a value is missing' : 'expected a value';
    case 'ColonExpected':
      return 'expected ":" after the property name';
    case 'CommaExpected':
      return 'expected "," between two members or elements';
    case 'CloseBraceExpected':
      return at === '' ? 'unexpected end of the text: an object is not closed with "}"' : 'expected "," or "}" after a member';
    case 'CloseBracketExpected':
      return at === '' ? 'unexpected end of the text: an array is not closed with "]"' : 'expected "," or "]" after an element';
    case 'EndOfFileExpected':
      return 'unexpected content after the JSON value';
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      return 'comments are not allowed in JSON';
    case 'UnexpectedEndOfString':
      return 'a string is not closed with a double quote';
    case 'UnexpectedEndOfNumber':
      return 'a number ends too early';
    case 'InvalidUnicode':
      return 'invalid \\u escape in a string';
    case 'InvalidEscapeCharacter':
      return 'invalid escape sequence in a string';
    case 'InvalidCharacter':
      return 'a control character (such as a raw line break or tab) is not allowed inside a string';
    default:
      return 'invalid JSON';
  }
}

export interface SyntaxProblem {
  /** A plain sentence. */
  message: string;
  /** Character offset in the text. */
  offset: number;
}

/**
 * The first syntax error of a JSON text, or undefined when it parses. With `firstValueOnly`, the
 * text may go on after one complete value (a window of a file that holds more).
 */
export function firstSyntaxError(text: string, firstValueOnly = false): SyntaxProblem | undefined {
  const errors: Jsonc.ParseError[] = [];
  try {
    jsonc().parse(text, errors, OPTIONS);
  } catch {
    return undefined;
  }
  let first: Jsonc.ParseError | undefined = errors[0];
  if (first && firstValueOnly && jsonc().printParseErrorCode(first.error) === 'EndOfFileExpected') first = undefined;
  if (!first) {
    // jsonc-parser accepts a few things JSON.parse does not (leading zeros are caught as a missing comma).
    if (firstValueOnly) return undefined;
    try {
      JSON.parse(text);
      return undefined;
    } catch {
      return { message: 'invalid JSON', offset: 0 };
    }
  }
  let message = sentence(first.error, text, first.offset);
  // An unexpected character where a name or value should be: say what was expected too.
  if (jsonc().printParseErrorCode(first.error) === 'InvalidSymbol' && text.charAt(first.offset) !== BYTE_ORDER_MARK && text.charAt(first.offset) !== "'") {
    let atKey = false;
    try {
      atKey = jsonc().getLocation(text, first.offset).isAtPropertyKey;
    } catch {
      // A document too deep for the recursive locator: the plain sentence stays as it is.
    }
    message += atKey ? ' where a property name in double quotes was expected' : ' where a value was expected';
  }
  return { message, offset: first.offset };
}

const CHUNK = 1 << 20;

/** Line and column of a byte offset of a file, counted by reading the file up to there. */
export function positionInFile(file: string, byteOffset: number): Position {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return { line: 1, column: 1 };
  }
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let line = 1;
    let lineStart = 0;
    for (let base = 0; base < byteOffset; ) {
      const n = readSync(fd, buf, 0, Math.min(CHUNK, byteOffset - base), base);
      if (n === 0) break;
      for (let i = buf.indexOf(10, 0); i !== -1 && i < n; i = buf.indexOf(10, i + 1)) {
        line++;
        lineStart = base + i + 1;
      }
      base += n;
    }
    // The column counts characters, not bytes: decode the line up to the offset.
    const length = Math.max(0, byteOffset - lineStart);
    const head = Buffer.allocUnsafe(length);
    const n = length === 0 ? 0 : readSync(fd, head, 0, length, lineStart);
    const prefix = head.toString('utf8', 0, n);
    return { line, column: (line === 1 ? stripByteOrderMark(prefix) : prefix).length + 1 };
  } finally {
    closeSync(fd);
  }
}

/** How much of a file is read to find the syntax error of one element. */
const WINDOW = 8 << 20;

/**
 * The first syntax error of the JSON value that starts at byte `start` of a file (an element of
 * a large array, scanned without being parsed), with its byte offset; undefined when the value
 * parses.
 */
export function syntaxErrorInFile(file: string, start: number, length = WINDOW): { message: string; byteOffset: number } | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  let text: string;
  try {
    const buf = Buffer.allocUnsafe(Math.min(length, WINDOW));
    const n = readSync(fd, buf, 0, buf.length, start);
    text = buf.toString('utf8', 0, n);
  } finally {
    closeSync(fd);
  }
  const found = firstSyntaxError(text, true);
  if (!found) return undefined;
  return { message: found.message, byteOffset: start + Buffer.byteLength(text.slice(0, found.offset), 'utf8') };
}

/**
 * A CLI_FIXTURES error at a byte offset of a data file: the message starts with
 * `file:line:column` and its details carry file, line, column and the byte offset.
 */
export function fileError(file: string, byteOffset: number, message: string, options: { path?: string; cause?: unknown } = {}): TransformsError {
  const position = positionInFile(file, byteOffset);
  return codedError('CLI_FIXTURES', `${formatPosition(file, position)}: ${message}`, {
    ...options,
    details: { file, line: position.line, column: position.column, offset: byteOffset },
  });
}

/**
 * The error for a JSON value at byte `start` of a file that JSON.parse rejected: located at its
 * first syntax error, with `what` ("element 3", "the account of identity …") in the sentence.
 */
export function invalidJsonInFile(file: string, start: number, length: number, what: string, options: { path?: string; cause?: unknown } = {}): TransformsError {
  const found = syntaxErrorInFile(file, start, length + 1);
  return fileError(file, found?.byteOffset ?? start, `${what} is not valid JSON: ${found?.message ?? 'invalid JSON'}`, options);
}

/** The CLI_FIXTURES error for a whole file's text that JSON.parse rejected, at its first syntax error. */
export function invalidJsonText(file: string, text: string, cause: unknown): TransformsError {
  const found = firstSyntaxError(text);
  const position = found ? positionOf(text, found.offset) : { line: 1, column: 1 };
  return codedError('CLI_FIXTURES', `${formatPosition(file, position)}: the file is not valid JSON: ${found?.message ?? 'invalid JSON'}`, {
    cause,
    details: { file, line: position.line, column: position.column },
  });
}

/**
 * Locate a JSON Pointer in the source text with a position-keeping parser (jsonc-parser).
 * A missing member points at its parent object; an unlocatable pointer (or a document too
 * deep to build a tree for) falls back to line 1, column 1.
 */
export function locatePointer(text: string, tree: Jsonc.Node | undefined, pointer: string): Position {
  if (!tree) return { line: 1, column: 1 };
  const tokens = pointerTokens(pointer);
  const path: (string | number)[] = [];
  let node: Jsonc.Node | undefined = tree;
  for (const token of tokens) {
    const next: Jsonc.Node | undefined = jsonc().findNodeAtLocation(node, [node.type === 'array' ? Number(token) : token]);
    if (!next) break;
    path.push(token);
    node = next;
  }
  // For a property, point at its key (where editors underline), otherwise at the value.
  const target = node.parent?.type === 'property' && node.parent.children?.[1] === node ? node.parent : node;
  return positionOf(text, target.offset);
}

/** Build a position tree, or undefined when the document is too deep for a recursive parser. */
export function positionTree(text: string): Jsonc.Node | undefined {
  try {
    return jsonc().parseTree(text, [], { disallowComments: true, allowTrailingComma: false });
  } catch {
    return undefined;
  }
}

/** Where a JSON Pointer is in a file (read again, only for an error), or undefined when unreadable. */
export function positionOfPointerInFile(file: string, pointer: string): Position | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return locatePointer(text, positionTree(text), pointer);
}

/** A CLI_FIXTURES error about the value at `pointer` of a JSON file: `file:line:column: message`. */
export function pointerError(file: string, pointer: string, message: string): TransformsError {
  const position = positionOfPointerInFile(file, pointer) ?? { line: 1, column: 1 };
  return codedError('CLI_FIXTURES', `${formatPosition(file, position)}: ${message}`, { path: pointer, details: { file, line: position.line, column: position.column } });
}
