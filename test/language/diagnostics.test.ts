// Diagnostics: validate's findings with exact spans, codes and did-you-mean; half-typed JSON.

import { describe, expect, it } from 'vitest';
import { doValidation, parseDocument } from '../../src/language/index.js';
import { bundled, workspace } from './workspace.js';

const ws = workspace({});
const check = (text: string, w = ws) => doValidation(parseDocument('file:///t.json', text), w);
/** The text a diagnostic covers. */
const covered = (text: string, d: { offset: number; length: number }) => text.slice(d.offset, d.offset + d.length);

describe('doValidation', () => {
  it.each([
    ['an unknown type, at its value, with the closest type', '{"name":"x","type":"uper"}', 'SCHEMA_ENUM', '"uper"', 'upper'],
    ['an unknown attribute, at its key, with the closest key', '{"name":"x","type":"accountAttribute","attributes":{"sourceName":"HR","atributeName":"a"}}', 'SCHEMA_UNKNOWN_PROPERTY', '"atributeName"', 'attributeName'],
    ['an enum value, with the closest value', '{"name":"x","type":"iso3166","attributes":{"format":"alpha22"}}', 'SCHEMA_ENUM', '"alpha22"', 'alpha2'],
    ['a missing required attribute, at the key of the object that lacks it', '{"name":"x","type":"lookup","attributes":{}}', 'SCHEMA_REQUIRED', '"attributes"', undefined],
    ['a compile error at its attribute', '{"name":"x","type":"replace","attributes":{"regex":"(","replacement":""}}', 'REGEX_SYNTAX', '"("', undefined],
  ])('%s', (_, text, code, span, suggestion) => {
    const found = check(text).find((d) => d.code === code);
    expect(found).toBeDefined();
    expect(covered(text, found!)).toBe(span);
    expect(found!.suggestion).toBe(suggestion);
    if (suggestion !== undefined) expect(found!.message).toContain(`did you mean "${suggestion}"`);
  });

  it('warns of a lookup without a default, at its table', () => {
    const text = '{"name":"x","type":"lookup","attributes":{"table":{"a":"b"}}}';
    const [d] = check(text);
    expect(d).toMatchObject({ severity: 'warning', code: 'VALIDATE_LOOKUP_NO_DEFAULT' });
    expect(covered(text, d!)).toBe('{"a":"b"}');
  });

  it.each([
    ['a half-typed string', '{"name":"x","type":"upp'],
    ['a missing value', '{"name":"x","type": }'],
    ['a trailing comma', '{"name":"x","type":"upper",}'],
    ['only a brace', '{'],
    ['ten thousand brackets', '['.repeat(10000)],
  ])('locates the syntax error of %s and never throws', (_, text) => {
    const found = check(text);
    const syntax = found.find((d) => d.code === 'VALIDATE_JSON_SYNTAX');
    expect(syntax).toBeDefined();
    expect(syntax!.offset).toBeGreaterThanOrEqual(0);
    expect(syntax!.offset).toBeLessThanOrEqual(text.length);
  });

  it('checks the tree recovered from half-typed JSON too', () => {
    const text = '{"name":"x","type":"uper",';
    expect(check(text).map((d) => d.code)).toEqual(['SCHEMA_ENUM', 'VALIDATE_JSON_SYNTAX']);
  });

  it.each([
    ['twelve megabytes of lookup table', JSON.stringify({ name: 'x', type: 'lookup', attributes: { table: Object.fromEntries(Array.from({ length: 600_000 }, (_, i) => [`k${i}`, `v${i}`])) } })],
    ['400 KB of UTF-8 in fewer UTF-16 code units', JSON.stringify({ name: 'x', type: 'static', attributes: { value: 'é'.repeat(210_000) } })],
  ])('refuses a document above the platform\'s 400 KB unparsed, as validate does: %s', (_, text) => {
    const doc = parseDocument('file:///t.json', text);
    expect(doc.tree).toBeUndefined();
    expect(doc.tooLarge).toBe(Buffer.byteLength(text, 'utf8'));
    expect(doValidation(doc, ws)).toEqual([
      { offset: 0, length: 1, severity: 'error', code: 'VALIDATE_TOO_LARGE', pointer: '', message: `the transform is ${Buffer.byteLength(text, 'utf8')} bytes; the platform rejects transforms above 409600 bytes (400 KB)` },
    ]);
  });

  it('says a valid document nested deeper than the parser follows is JSON_TOO_DEEP, at its first value too deep, not invalid JSON', () => {
    const text = `{"name":"x","type":"static","attributes":{"value":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    const [d, ...rest] = check(text);
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ code: 'JSON_TOO_DEEP', pointer: `/attributes/value${'/0'.repeat(998)}` });
    // The message quotes the pointer's two ends; the diagnostic's pointer holds it whole.
    expect(d!.message).toBe(`the document nests deeper than 1000 levels at /attributes/value${'/0'.repeat(21)}/…${'/0'.repeat(30)}`);
  });

  it('parses a document of exactly 400 KB', () => {
    const shell = JSON.stringify({ name: 'x', type: 'static', attributes: { value: '' } });
    const text = shell.replace('""', `"${'a'.repeat(400 * 1024 - shell.length)}"`);
    expect(text.length).toBe(400 * 1024);
    const doc = parseDocument('file:///t.json', text);
    expect(doc.tooLarge).toBeUndefined();
    expect(doc.tree).toBeDefined();
    expect(doValidation(doc, ws).map((d) => d.code)).not.toContain('VALIDATE_TOO_LARGE');
  });

  it('says an empty file is empty', () => {
    expect(check('  ').map((d) => d.code)).toEqual(['VALIDATE_EMPTY_FILE']);
  });

  it('points into an identity profile at the mapping that is wrong', () => {
    const text = '{"name":"p","identityAttributeConfig":{"attributeTransforms":[{"identityAttributeName":"a","transformDefinition":{"type":"lowr"}}]}}';
    const [d] = check(text);
    expect(d).toMatchObject({ code: 'SCHEMA_ENUM', suggestion: 'lower', pointer: '/identityAttributeConfig/attributeTransforms/0/transformDefinition/type' });
    expect(covered(text, d!)).toBe('"lowr"');
  });

  describe('across the workspace', () => {
    const other = { 'file:///b.json': '{"name":"Base Name","type":"reference","attributes":{"id":"Looping"}}' };

    it('reports a reference to an unknown transform, with the closest name', () => {
      const text = '{"name":"x","type":"reference","attributes":{"id":"Base Nme"}}';
      const [d] = check(text, workspace(other));
      expect(d).toMatchObject({ code: 'VALIDATE_UNKNOWN_REFERENCE', suggestion: 'Base Name' });
      expect(covered(text, d!)).toBe('"Base Nme"');
    });

    it('reports a name another document declares', () => {
      const [d] = check('{"name":"Base Name","type":"upper"}', workspace(other));
      expect(d).toMatchObject({ code: 'VALIDATE_DUPLICATE_NAME', pointer: '/name' });
    });

    it('reports a reference cycle through another document, with its way', () => {
      const text = '{"name":"Looping","type":"reference","attributes":{"id":"Base Name"}}';
      const [d] = check(text, workspace(other));
      expect(d).toMatchObject({ code: 'VALIDATE_REFERENCE_CYCLE', message: 'reference cycle: Looping → Base Name → Looping' });
      expect(covered(text, d!)).toBe('"Base Name"');
    });
  });

  describe('against the tenant model', () => {
    it('reports a source no source has (an error) and an attribute no account carries (a warning), each with the closest name', async () => {
      const { tenant } = await bundled();
      const text = '{"name":"x","type":"accountAttribute","attributes":{"sourceName":"Workdya","attributeName":"FIRST_NAME"}}';
      const [source] = check(text, workspace({}, { tenant }));
      expect(source).toMatchObject({ severity: 'error', code: 'VALIDATE_UNKNOWN_SOURCE', suggestion: 'Workday' });
      expect(covered(text, source!)).toBe('"Workdya"');
      const text2 = '{"name":"x","type":"accountAttribute","attributes":{"sourceName":"Workday","attributeName":"FIRST_NAM"}}';
      const [attribute] = check(text2, workspace({}, { tenant }));
      expect(attribute).toMatchObject({ severity: 'warning', code: 'VALIDATE_UNKNOWN_ACCOUNT_ATTRIBUTE', suggestion: 'FIRST_NAME' });
      expect(covered(text2, attribute!)).toBe('"FIRST_NAM"');
    });

    it('leaves a templated source name alone (known only when evaluated)', async () => {
      const { tenant } = await bundled();
      expect(check('{"name":"x","type":"accountAttribute","attributes":{"sourceName":"$src","attributeName":"A"}}', workspace({}, { tenant }))).toEqual([]);
    });
  });
});
