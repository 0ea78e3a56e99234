// Document symbols: the transform tree, and profiles' mappings above their transforms.

import { describe, expect, it } from 'vitest';
import { findDocumentSymbols, parseDocument } from '../../src/language/index.js';

type Outline = { name: string; detail: string; children: Outline[] };
const outline = (s: Outline): Outline => ({ name: s.name, detail: s.detail, children: s.children.map(outline) });

describe('findDocumentSymbols', () => {
  it('outlines a transform as its tree of operations', () => {
    const text = '{"name":"Full","type":"concat","attributes":{"values":[{"type":"upper","attributes":{"input":{"type":"trim"}}},"-",{"type":"lower"}]}}';
    expect(findDocumentSymbols(parseDocument('u', text)).map(outline)).toEqual([
      { name: 'Full', detail: 'concat', children: [{ name: 'upper', detail: 'upper', children: [{ name: 'trim', detail: 'trim', children: [] }] }, { name: 'lower', detail: 'lower', children: [] }] },
    ]);
  });

  it('outlines an identity profile by the attributes its mappings compute', () => {
    const text = '{"name":"p","identityAttributeConfig":{"attributeTransforms":[{"identityAttributeName":"uid","transformDefinition":{"type":"reference","attributes":{"id":"X"}}}]}}';
    const [mapping] = findDocumentSymbols(parseDocument('u', text));
    expect(outline(mapping!)).toEqual({ name: 'uid', detail: 'mapping', children: [{ name: 'reference', detail: 'reference', children: [] }] });
    expect(text.slice(mapping!.selection.offset, mapping!.selection.offset + mapping!.selection.length)).toBe('"uid"');
  });

  it('outlines half-typed JSON as far as it goes', () => {
    expect(findDocumentSymbols(parseDocument('u', '{"name":"x","type":"upper","attributes":{"input":{"type":"tr')).map(outline)).toEqual([{ name: 'x', detail: 'upper', children: [{ name: 'tr', detail: 'tr', children: [] }] }]);
  });
});
