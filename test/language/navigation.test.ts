// Definition, references and rename of a transform across documents and profiles.

import { describe, expect, it } from 'vitest';
import { doRename, findDefinition, findReferences, parseDocument } from '../../src/language/index.js';
import { caret, workspace } from './workspace.js';

const BASE = '{"name":"Base","type":"upper"}';
const PROFILE = '{"name":"p","identityAttributeConfig":{"attributeTransforms":[{"identityAttributeName":"a","transformDefinition":{"type":"reference","attributes":{"id":"Base"}}}]}}';
const texts = { 'file:///base.json': BASE, 'file:///profile.json': PROFILE };
const at = (text: string, piece: string, uri: string) => ({ uri, offset: text.indexOf(piece), length: piece.length });

describe('navigation', () => {
  it('goes from a reference id to the document that declares the name', () => {
    const { text, offset } = caret('{"name":"x","type":"reference","attributes":{"id":"Ba|se"}}');
    expect(findDefinition(parseDocument('file:///x.json', text), offset, workspace(texts))).toEqual([at(BASE, '"Base"', 'file:///base.json')]);
  });

  it('finds every use of a name, in transforms and profiles, from its declaration', () => {
    const { text, offset } = caret('{"name":"Ba|se","type":"upper"}');
    const doc = parseDocument('file:///base.json', text);
    const uses = findReferences(doc, offset, workspace(texts));
    expect(uses).toEqual([at(BASE, '"Base"', 'file:///base.json'), at(PROFILE, '"Base"', 'file:///profile.json')]);
  });

  it('renames the declaration and every use', () => {
    const { text, offset } = caret('{"name":"Ba|se","type":"upper"}');
    const edits = doRename(parseDocument('file:///base.json', text), offset, 'Renamed', workspace(texts));
    expect(edits.map((e) => [e.uri, e.newText])).toEqual([
      ['file:///base.json', '"Renamed"'],
      ['file:///profile.json', '"Renamed"'],
    ]);
  });

  it('answers nothing away from a name', () => {
    const { text, offset } = caret('{"name":"Base","ty|pe":"upper"}');
    expect(findDefinition(parseDocument('file:///base.json', text), offset, workspace(texts))).toEqual([]);
  });
});
