// The language server's open documents under changes an editor should not send: each is refused
// with LSP_CHANGE_REFUSED and the document held at its last good version until it is opened
// again; what the protocol allows (a position past a line's or the document's end) is applied
// as the end, and the line table stays right.

import { describe, expect, it } from 'vitest';
import type { DidChangeTextDocumentParams } from 'vscode-languageserver/node';
import { MAX_CHANGE_WORK, MAX_DOCUMENT_CHARS, OpenDocuments } from '../../src/lsp/documents.js';

const URI = 'file:///w/transforms/a.json';
const change = (version: number, ...contentChanges: unknown[]) => ({ textDocument: { uri: URI, version }, contentChanges }) as DidChangeTextDocumentParams;
const at = (line: number, character: number) => ({ line, character });
const range = (a: [number, number], b: [number, number]) => ({ start: at(...a), end: at(...b) });

function opened(text = 'ab\ncd\nef'): OpenDocuments {
  const documents = new OpenDocuments();
  documents.open(URI, 'json', 1, text);
  return documents;
}

describe('the language server\'s open documents', () => {
  it('applies full and incremental changes in order, each range against the text the earlier left', () => {
    const documents = opened();
    expect(documents.change(change(2, { range: range([1, 0], [1, 2]), text: 'XY\nZ' }, { range: range([0, 0], [0, 1]), text: '' }, { text: 'whole' }, { range: range([0, 5], [0, 5]), text: '!' }))).toBeUndefined();
    expect(documents.get(URI)).toMatchObject({ version: 2 });
    expect(documents.get(URI)!.getText()).toBe('whole!');
  });

  it('takes a position past a line\'s or the document\'s end as that end, and keeps its line table right', () => {
    const documents = opened();
    expect(documents.change(change(2, { range: range([0, 1_000_000], [2_000_000_000, 5]), text: '-\n-' }))).toBeUndefined();
    const text = documents.get(URI)!;
    expect(text.getText()).toBe('ab-\n-');
    expect(text.lineCount).toBe(2);
    expect(text.offsetAt(at(1, 1))).toBe(5);
    expect(documents.change(change(3, { range: range([1, 1], [1, 1]), text: 'x' }))).toBeUndefined();
    expect(documents.get(URI)!.getText()).toBe('ab-\n-x');
  });

  it.each([
    ['a document that is not open', (d: OpenDocuments) => d.change({ textDocument: { uri: 'file:///w/other.json', version: 2 }, contentChanges: [{ text: 'x' }] }), 'a change to file:///w/other.json, which is not open'],
    ['a version that goes back', (d: OpenDocuments) => d.change(change(0, { text: 'x' })), 'as version 0 after version 1: versions only increase'],
    ['the same version again', (d: OpenDocuments) => d.change(change(1, { text: 'x' })), 'as version 1 after version 1'],
    ['no list of changes', (d: OpenDocuments) => d.change({ textDocument: { uri: URI, version: 2 } } as DidChangeTextDocumentParams), 'without a list of content changes'],
    ['a change without text', (d: OpenDocuments) => d.change(change(2, { range: range([0, 0], [0, 0]) })), 'content change 0 to file:///w/transforms/a.json has no text'],
    ['a negative line', (d: OpenDocuments) => d.change(change(2, { range: range([-1, 0], [0, 0]), text: '' })), 'a range that is not two positions of line and character numbers'],
    ['a character that is not a number', (d: OpenDocuments) => d.change(change(2, { range: { start: at(0, 0), end: { line: 0, character: '3' } }, text: '' })), 'a range that is not two positions'],
    ['a document past its bound', (d: OpenDocuments) => d.change(change(2, { text: 'x'.repeat(MAX_DOCUMENT_CHARS + 1) })), `above the limit of ${MAX_DOCUMENT_CHARS}`],
  ])('refuses %s with LSP_CHANGE_REFUSED, leaving the text as it was', (_name, act, message) => {
    const documents = opened();
    expect(act(documents)).toMatchObject({ code: 'LSP_CHANGE_REFUSED', message: expect.stringContaining(message) });
    expect(documents.get(URI)).toMatchObject({ version: 1 });
    expect(documents.get(URI)!.getText()).toBe('ab\ncd\nef');
  });

  it('refuses edits that would copy more than their bound, before copying them', () => {
    const documents = opened('x'.repeat(1_000_000));
    const edits = Array.from({ length: Math.ceil(MAX_CHANGE_WORK / 1_000_000) + 1 }, () => ({ range: range([0, 0], [0, 0]), text: '' }));
    expect(documents.change(change(2, ...edits))).toMatchObject({ code: 'LSP_CHANGE_REFUSED', message: expect.stringContaining('send the whole text') });
  });

  it('holds a refused document at its last good version, saying so once, until it is opened again', () => {
    const documents = opened();
    expect(documents.change(change(0, { text: 'x' }))).toMatchObject({ code: 'LSP_CHANGE_REFUSED' });
    expect(documents.change(change(5, { text: 'later' }))).toBeUndefined();
    expect(documents.get(URI)!.getText()).toBe('ab\ncd\nef');
    expect(documents.refusal(URI)).toMatchObject({ code: 'LSP_CHANGE_REFUSED' });
    documents.open(URI, 'json', 6, 'again');
    expect(documents.refusal(URI)).toBeUndefined();
    expect(documents.change(change(7, { text: 'on' }))).toBeUndefined();
    expect(documents.get(URI)!.getText()).toBe('on');
  });
});
