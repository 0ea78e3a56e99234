// The streaming JSON array reader (src/refresh/json-array-reader.ts): element boundaries over a
// byte stream read in chunks, whatever the chunk size; malformed files are located errors.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonArrayReader, parseObjectElement } from '../../src/refresh/fixture-stream/json-array-reader.js';
import { TransformsError } from '../../src/errors/index.js';

const dir = mkdtempSync(join(tmpdir(), 'idt-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

function file(text: string): string {
  const path = join(dir, `f${n++}.json`);
  writeFileSync(path, text);
  return path;
}

function elements(text: string, chunkSize = 64): string[] {
  return [...new JsonArrayReader(file(text), chunkSize)].map((e) => e.text);
}

function failure(text: string): TransformsError {
  try {
    elements(text);
  } catch (error) {
    return error as TransformsError;
  }
  throw new Error('expected the reader to fail');
}

describe('JsonArrayReader', () => {
  it.each([
    ['an empty array', '[]', []],
    ['an empty array with whitespace', ' \n[ \n ]\n', []],
    ['objects one per line', '[\n{"a":1},\n{"b":[1,2,{"c":"}"}]}\n]\n', ['{"a":1}', '{"b":[1,2,{"c":"}"}]}']],
    ['scalars', '[1, "two", null, true, -3.5e2]', ['1', '"two"', 'null', 'true', '-3.5e2']],
    ['escaped quotes and backslashes', String.raw`[{"q":"a\"b\\"},"\\\\",{"r":"\\\"]"}]`, [String.raw`{"q":"a\"b\\"}`, String.raw`"\\\\"`, String.raw`{"r":"\\\"]"}`]],
    ['nested arrays', '[[1,[2]],[]]', ['[1,[2]]', '[]']],
    ['multi-byte UTF-8', '[{"name":"Zoë Åsa 東京 😀"}]', ['{"name":"Zoë Åsa 東京 😀"}']],
  ])('reads %s', (_label, text, expected) => {
    expect(elements(text)).toEqual(expected);
  });

  it('gives byte offsets and lengths of each element', () => {
    const text = '[ {"a":"é"} ,\n 42 ]';
    const found = [...new JsonArrayReader(file(text), 64)];
    expect(found.map((e) => [e.offset, e.length])).toEqual([
      [2, Buffer.byteLength('{"a":"é"}')],
      [16, 2],
    ]);
    const bytes = Buffer.from(text);
    for (const e of found) expect(bytes.subarray(e.offset, e.offset + e.length).toString()).toBe(e.text);
  });

  it('reads elements much larger than the buffer (the buffer grows)', () => {
    const big = { s: 'x'.repeat(10_000), escaped: '\\"'.repeat(500), list: Array.from({ length: 300 }, (_, i) => i) };
    expect(elements(JSON.stringify([big, big]), 64).map((t) => JSON.parse(t))).toEqual([big, big]);
  });

  it('decodes only the first headBytes bytes when asked, and the whole element on demand', () => {
    const long = { id: 'a', note: 'é'.repeat(100) };
    const reader = new JsonArrayReader(file(JSON.stringify([long, { id: 'b' }])), 64, 16);
    const first = reader.next()!;
    expect(first.text).toBe(JSON.stringify(long).slice(0, 16));
    expect(first.length).toBe(Buffer.byteLength(JSON.stringify(long)));
    expect(JSON.parse(reader.fullText())).toEqual(long);
    expect(reader.next()!.text).toBe('{"id":"b"}');
    expect(reader.next()).toBeNull();
  });

  it('reads part of a file from a state between two elements, stopping between two elements at its end', () => {
    const text = '[\n{"a":1},\n{"b":2}\n,{"c":3}\n]\n';
    const path = file(text);
    const read = (start: number, end: number, state: 'start' | 'after-element' | 'before-element') => {
      const reader = new JsonArrayReader(path, 64, Infinity, { start, end, state });
      const texts: string[] = [];
      for (let e = reader.next(); e !== null; e = reader.next()) texts.push(e.text);
      return { texts, stoppedIn: reader.stoppedIn };
    };
    const afterFirst = text.indexOf('{"b"');
    const afterSecond = text.indexOf(',{"c"');
    expect(read(0, afterFirst, 'start')).toEqual({ texts: ['{"a":1}'], stoppedIn: 'before-element' });
    expect(read(afterFirst, afterSecond, 'before-element')).toEqual({ texts: ['{"b":2}'], stoppedIn: 'after-element' });
    expect(read(afterSecond, text.length, 'after-element')).toEqual({ texts: ['{"c":3}'], stoppedIn: 'done' });
    // An element that runs past the end of the range is malformed, as in a file cut there.
    expect(() => read(0, afterFirst - 3, 'start')).toThrow(expect.objectContaining({ code: 'CLI_FIXTURES' }));
  });

  it('reads the first and last bytes of the current element as latin1, without decoding the rest', () => {
    const reader = new JsonArrayReader(file('[{"id":"é","x":"abc"}]'), 64);
    expect(reader.advance()).toBe(true);
    expect(reader.latin1(0, 7)).toBe('{"id":"');
    expect(reader.latin1(7, 9)).toBe('\u00c3\u00a9');
    expect(reader.latin1(reader.length - 6, 1000)).toBe('"abc"}');
    expect(reader.advance()).toBe(false);
  });

  it('splits any JSON array into its elements, whatever the chunk size (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 20 }), fc.integer({ min: 64, max: 300 }), fc.boolean(), (values, chunk, pretty) => {
        const text = pretty ? JSON.stringify(values, null, 2) : JSON.stringify(values);
        const got = elements(text, chunk).map((t) => JSON.parse(t));
        expect(got).toEqual(JSON.parse(text));
      }),
      { numRuns: 150 },
    );
  });

  it.each([
    ['an empty file', '', '1:1', 'the file is empty'],
    ['an object instead of an array', '{"a":1}', '1:1', 'expected "["'],
    ['a missing comma', '[{"a":1} {"b":2}]', '1:10', 'expected "," or "]"'],
    ['a truncated element', '[{"a":1},{"b":', '1:15', 'element 1 of the array is not valid JSON: unexpected end of the text: a value is missing'],
    ['a truncated string', '[{"a":"abc', '1:7', 'element 0 of the array is not valid JSON: a string is not closed with a double quote'],
    ['a missing closing bracket', '[1,2', '1:5', 'unexpected end of file inside the array'],
    ['content after the array', '[1] [2]', '1:5', 'unexpected content after'],
    ['a leading comma', '[,1]', '1:2', 'expected an element'],
  ])('rejects %s with CLI_FIXTURES at file:line:column and a plain sentence', (_label, text, position, message) => {
    const error = failure(text);
    expect(error).toBeInstanceOf(TransformsError);
    expect(error.code).toBe('CLI_FIXTURES');
    expect(error.message).toMatch(/^\/.*\.json:\d+:\d+: /);
    expect(error.message).toContain(`.json:${position}: ${message}`);
    expect(typeof error.details?.offset).toBe('number');
    expect(error.message).not.toMatch(/byte \d/);
  });

  it('locates a lost quote deep in a large file at the line and column of the broken element, not at the end of the file', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: `a${i}`, identityId: `i${i}`, name: 'Zoë Ångström' }));
    lines[1234] = lines[1234]!.replace('"identityId"', 'identityId"');
    const error = failure(`[\n${lines.join(',\n')}\n]\n`);
    expect(error.code).toBe('CLI_FIXTURES');
    expect(error.message).toMatch(/\.json:1236:\d+: element 1234 of the array is not valid JSON: unexpected character "i" where a property name in double quotes was expected$/);
    expect(error.details).toMatchObject({ line: 1236, column: lines[1234]!.indexOf('identityId') + 1 });
  });

  it('accepts a UTF-8 byte-order mark before the array', () => {
    expect(elements('\uFEFF[1, {"a":"é"}]')).toEqual(['1', '{"a":"é"}']);
  });

  it('never shows the JSON parser\'s internal codes', () => {
    const cases: [string, string][] = [
      ['[\n{"a":1,}]', '2:8: element 0 of the array is not valid JSON: a trailing comma is not allowed before "}"'],
      ['[{a:1}]', '1:3: element 0 of the array is not valid JSON: unexpected character "a" where a property name in double quotes was expected'],
      ["[{'a':1}]", '1:3: element 0 of the array is not valid JSON: strings must be in double quotes'],
      ['[{"a" 1}]', '1:7: element 0 of the array is not valid JSON: expected ":" after the property name'],
    ];
    for (const [text, message] of cases) {
      const path = file(text);
      const reader = new JsonArrayReader(path);
      const error = (() => {
        try {
          parseObjectElement(path, reader.next()!, 0);
        } catch (e) {
          return e as TransformsError;
        } finally {
          reader.close();
        }
        throw new Error('expected a failure');
      })();
      expect(error.code).toBe('CLI_FIXTURES');
      expect(error.message).toBe(`${path}:${message}`);
      expect(error.message).not.toMatch(/PropertyNameExpected|ValueExpected|InvalidSymbol|ColonExpected|CommaExpected|position \d/);
    }
  });

  it('reports a missing file as CLI_READ', () => {
    expect(() => new JsonArrayReader(join(dir, 'missing.json'))).toThrow(expect.objectContaining({ code: 'CLI_READ' }));
  });
});
