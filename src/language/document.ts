// A document of the language service: its text, the tree a tolerant parser recovers from it
// (every keystroke leaves the JSON invalid for a moment), the value of that tree, and where a
// JSON Pointer or an offset is in it. Offsets count UTF-16 code units, as JavaScript strings
// and editors' LSP positions do; each adapter turns them into what it speaks.

import type * as Jsonc from 'jsonc-parser';
import { MAX_TRANSFORM_BYTES } from '../engine/validate.js';
import { jsonc } from '../json/positions.js';
import { isTransformsError, pointerTokens, type TransformsError } from '../errors/index.js';
import { checkJsonDepth, MAX_JSON_DEPTH } from '../json/depth.js';

/** A range of the text: a start offset and a length. */
export interface Span {
  offset: number;
  length: number;
}

export interface LanguageDocument {
  /** Where the document is (a file URI, or any name the adapter chooses). */
  readonly uri: string;
  readonly text: string;
  /**
   * The text's size in UTF-8 bytes when it is above the platform's 400 KB for a transform: such a
   * text is not parsed (its diagnostic is VALIDATE_TOO_LARGE, as `validate` says of the file).
   */
  readonly tooLarge?: number;
  /**
   * JSON_TOO_DEEP, for a valid text nested deeper than the recursive parser follows: its first
   * value too deep (json/depth.ts), rather than a syntax error that a valid text does not have.
   */
  readonly tooDeep?: TransformsError;
  /** The recovered tree; undefined for an empty text, one too large, or one too deep for the recursive parser. */
  readonly tree: Jsonc.Node | undefined;
  /** The tree's value (what JSON.parse would give, for a valid text). */
  readonly value: unknown;
  /** Syntax errors, in text order. */
  readonly syntaxErrors: readonly Jsonc.ParseError[];
}

const OPTIONS = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: true } as const;

/**
 * Parse a text into a document; never throws. A text above the platform's 400 KB is kept
 * unparsed: its position tree would take hundreds of megabytes and seconds for each keystroke
 * of a document of tens of megabytes, for a transform the platform refuses anyway (measuring
 * the bytes allocates nothing).
 */
export function parseDocument(uri: string, text: string): LanguageDocument {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_TRANSFORM_BYTES) return { uri, text, tooLarge: bytes, tree: undefined, value: undefined, syntaxErrors: [] };
  const syntaxErrors: Jsonc.ParseError[] = [];
  let tree: Jsonc.Node | undefined;
  let value: unknown;
  try {
    tree = jsonc().parseTree(text, syntaxErrors, OPTIONS);
    value = tree ? jsonc().getNodeValue(tree) : undefined;
  } catch {
    // A document nested deeper than the recursive parser's stack: no tree. A valid one is too
    // deep (JSON.parse is not recursive, and the text is at most 400 KB); any other has a syntax error.
    const tooDeep = validTooDeep(text);
    if (tooDeep !== undefined) return { uri, text, tooDeep, tree: undefined, value: undefined, syntaxErrors: [] };
    tree = undefined;
    syntaxErrors.length = 0;
    syntaxErrors.push({ error: 0 as Jsonc.ParseErrorCode, offset: 0, length: 1 });
  }
  return { uri, text, tree, value, syntaxErrors };
}

/** JSON_TOO_DEEP for a valid JSON text nested deeper than MAX_JSON_DEPTH; undefined otherwise. */
function validTooDeep(text: string): TransformsError | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  try {
    checkJsonDepth(value, MAX_JSON_DEPTH, 'the document');
  } catch (error) {
    if (isTransformsError(error) && error.code === 'JSON_TOO_DEEP') return error;
  }
  return undefined;
}

/** The node a JSON Pointer reaches, or the deepest one on its way (a missing member: its parent). */
export function nodeAtPointer(doc: LanguageDocument, pointer: string): Jsonc.Node | undefined {
  let node = doc.tree;
  if (!node) return undefined;
  for (const token of pointerTokens(pointer)) {
    const next: Jsonc.Node | undefined = jsonc().findNodeAtLocation(node, [node.type === 'array' ? Number(token) : token]);
    if (!next) break;
    node = next;
  }
  return node;
}

/**
 * The span a finding at a JSON Pointer is shown at, so that the squiggle sits under what is
 * wrong: the value there; a property's key when `key` is asked for (an unknown property); for a
 * missing member, the key of the object that lacks it (the root object: its opening brace).
 */
export function spanOfPointer(doc: LanguageDocument, pointer: string, key = false): Span {
  const node = nodeAtPointer(doc, pointer);
  if (!node) return { offset: 0, length: Math.min(1, doc.text.length) };
  const reached = pointerOf(node).length === pointerTokens(pointer).length;
  const property = node.parent?.type === 'property' && node.parent.children?.[1] === node ? node.parent : undefined;
  if (property && (key || !reached)) return span(property.children![0]!);
  if (!reached) return { offset: node.offset, length: 1 };
  return span(node);
}

export const span = (node: Jsonc.Node): Span => ({ offset: node.offset, length: node.length });

/** The JSON Pointer tokens of a node. */
export function pointerOf(node: Jsonc.Node): (string | number)[] {
  return jsonc().getNodePath(node);
}

/** The innermost node at an offset (a caret just after a value still touches it). */
export function nodeAtOffset(doc: LanguageDocument, offset: number): Jsonc.Node | undefined {
  return doc.tree ? jsonc().findNodeAtOffset(doc.tree, offset, true) : undefined;
}

/** Where a caret is: its path, and whether it is on a property key (jsonc-parser's location). */
export function locationAt(doc: LanguageDocument, offset: number): Jsonc.Location | undefined {
  if (doc.tooLarge !== undefined) return undefined;
  try {
    return jsonc().getLocation(doc.text, offset);
  } catch {
    return undefined;
  }
}

/** The object node a transform is: the one holding a "type" member, at or above `node`. */
export function enclosingTransform(node: Jsonc.Node | undefined): Jsonc.Node | undefined {
  for (let n = node; n; n = n.parent) {
    if (n.type === 'object' && n.children?.some((p) => p.children?.[0]?.value === 'type')) return n;
  }
  return undefined;
}

/** A member's value node of an object node. */
export function member(object: Jsonc.Node | undefined, key: string): Jsonc.Node | undefined {
  const property = object?.children?.find((p) => p.children?.[0]?.value === key);
  return property?.children?.[1];
}
