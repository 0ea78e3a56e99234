// The documents the editor has open, kept in step with its changes (textDocument/didOpen,
// didChange, didClose; incremental sync), within bounds: a change is applied only when it can be
// applied as the protocol says and at a bounded cost, else it is refused with LSP_CHANGE_REFUSED
// and the document is held at its last good version until the editor opens it again.
// https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/#textDocument_didChange
// - a change to a document that is not open, or whose version does not increase ("the version
//   number points to the version after all provided content changes have been applied", and
//   versions only grow);
// - a range whose positions are not line and character numbers (uinteger); a position past a
//   line's end or the document's is taken as that end, as the protocol says of characters, and
//   is passed on as such (vscode-languageserver-textdocument updates its line table from the
//   line numbers it is given: a line a billion past the end corrupted it);
// - a document above MAX_DOCUMENT_CHARS, or a change whose edits would copy more than
//   MAX_CHANGE_WORK characters in all (each incremental edit copies the text once).

import { TextDocument } from 'vscode-languageserver-textdocument';
import type { DidChangeTextDocumentParams, Position, TextDocumentContentChangeEvent } from 'vscode-languageserver/node';
import { codedError, type TransformsError } from '../errors/index.js';
import { MAX_MESSAGE_BYTES } from './framing.js';

/** Characters a document may hold: what one message can carry. */
export const MAX_DOCUMENT_CHARS = MAX_MESSAGE_BYTES;
/** Characters the edits of one change may copy in all (256 Mi: a few hundred milliseconds). */
export const MAX_CHANGE_WORK = 256 * 1024 * 1024;

interface Held {
  text: TextDocument;
  /** Why the editor's copy and this one parted, once a change was refused. */
  refused?: TransformsError;
}

const isUinteger = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 2 ** 31 - 1;
export const isPosition = (p: unknown): p is Position => typeof p === 'object' && p !== null && isUinteger((p as Position).line) && isUinteger((p as Position).character);

export class OpenDocuments {
  private readonly held = new Map<string, Held>();

  get(uri: string): TextDocument | undefined {
    return this.held.get(uri)?.text;
  }

  /** The refusal that holds a document at its last good version, if any. */
  refusal(uri: string): TransformsError | undefined {
    return this.held.get(uri)?.refused;
  }

  all(): TextDocument[] {
    return [...this.held.values()].map((h) => h.text);
  }

  /** A document opened (again): its text is the editor's, whatever was refused before. */
  open(uri: string, languageId: string, version: number, text: string): TransformsError | undefined {
    if (typeof text !== 'string' || text.length > MAX_DOCUMENT_CHARS) {
      return refused(`${uri} is opened with ${typeof text === 'string' ? `${text.length} characters, above the limit of ${MAX_DOCUMENT_CHARS}` : 'no text'}`);
    }
    this.held.set(uri, { text: TextDocument.create(uri, languageId, version, text) });
    return undefined;
  }

  close(uri: string): void {
    this.held.delete(uri);
  }

  /**
   * Apply a change. Answers the refusal when it is refused — undefined when it is applied, or
   * when the document was already held back by an earlier refusal (said once).
   */
  change(params: DidChangeTextDocumentParams): TransformsError | undefined {
    const uri = String(params?.textDocument?.uri);
    const held = this.held.get(uri);
    if (!held) return refused(`a change to ${uri.slice(0, 300)}, which is not open (textDocument/didOpen comes first)`);
    if (held.refused) return undefined;
    const error = this.apply(held, params);
    if (error) held.refused = error;
    return error;
  }

  private apply(held: Held, params: DidChangeTextDocumentParams): TransformsError | undefined {
    const { version } = params.textDocument;
    const current = held.text.version;
    if (!Number.isInteger(version) || version <= current) return refused(`a change to ${held.text.uri} as version ${String(version)} after version ${current}: versions only increase`);
    const changes = params.contentChanges as unknown;
    if (!Array.isArray(changes)) return refused(`a change to ${held.text.uri} without a list of content changes`);
    // Applied to a copy, each edit's range measured against the text the earlier ones left.
    const scratch = TextDocument.create(held.text.uri, held.text.languageId, current, held.text.getText());
    let work = 0;
    for (const [i, change] of (changes as unknown[]).entries()) {
      const c = change as { text?: unknown; range?: { start?: unknown; end?: unknown } };
      if (typeof c !== 'object' || c === null || typeof c.text !== 'string') return refused(`content change ${i} to ${held.text.uri} has no text`);
      const length = scratch.getText().length;
      if (c.range === undefined) {
        if (c.text.length > MAX_DOCUMENT_CHARS) return tooLong(held.text.uri, c.text.length);
        TextDocument.update(scratch, [{ text: c.text }], current);
        continue;
      }
      if (typeof c.range !== 'object' || c.range === null || !isPosition(c.range.start) || !isPosition(c.range.end)) {
        return refused(`content change ${i} to ${held.text.uri} has a range that is not two positions of line and character numbers (integers from 0)`);
      }
      work += length + c.text.length;
      if (work > MAX_CHANGE_WORK) return refused(`a change of ${changes.length} edits to ${held.text.uri} copies more than ${MAX_CHANGE_WORK} characters in all: send the whole text`);
      const start = scratch.offsetAt(c.range.start);
      const end = scratch.offsetAt(c.range.end);
      const [from, to] = start <= end ? [start, end] : [end, start];
      if (length - (to - from) + c.text.length > MAX_DOCUMENT_CHARS) return tooLong(held.text.uri, length - (to - from) + c.text.length);
      TextDocument.update(scratch, [{ range: { start: scratch.positionAt(from), end: scratch.positionAt(to) }, text: c.text }], current);
    }
    held.text = TextDocument.update(scratch, [], version);
    return undefined;
  }
}

const tooLong = (uri: string, length: number) => refused(`a change to ${uri} makes it ${length} characters long, above the limit of ${MAX_DOCUMENT_CHARS}`);
const refused = (message: string) => codedError('LSP_CHANGE_REFUSED', message);
