// JSON nested deeper than MAX_JSON_DEPTH is JSON_TOO_DEEP wherever it is read, with what was
// read and the JSON Pointer of the first value too deep — never "Maximum call stack size
// exceeded" from a recursive walk after JSON.parse (which reads any depth).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, checkJsonDepth } from '../../src/json/depth.js';
import { readDirectoryVersion } from '../../src/impact/version.js';
import { loadFixtures } from '../../src/providers/fixtures.js';

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const deepTransform = (levels: number) => `{"name":"deep","type":"static","attributes":{"value":${nested(levels)}}}`;
const scratch = mkdtempSync(join(tmpdir(), 'json-depth-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function codeOf(fn: () => unknown): { code?: string; path?: string; message?: string } {
  try {
    fn();
  } catch (error) {
    return error as { code?: string; path?: string; message?: string };
  }
  throw new Error('expected an error');
}

describe('checkJsonDepth', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more at the pointer of the first value too deep`, () => {
    expect(() => checkJsonDepth(JSON.parse(nested(MAX_JSON_DEPTH)), MAX_JSON_DEPTH, 'x')).not.toThrow();
    const error = codeOf(() => checkJsonDepth({ a: JSON.parse(nested(MAX_JSON_DEPTH)) }, MAX_JSON_DEPTH, 'the value'));
    expect(error).toMatchObject({ code: 'JSON_TOO_DEEP', path: '/a' + '/0'.repeat(MAX_JSON_DEPTH - 1) });
    expect(error.message).toMatch(/^the value nests deeper than 1000 levels at \/a\/0/);
  });

  it('walks 100,000 levels without exhausting the stack', () => {
    expect(codeOf(() => checkJsonDepth(JSON.parse(nested(100_000)), MAX_JSON_DEPTH, 'x')).code).toBe('JSON_TOO_DEEP');
  });

  it('counts own keys only, as JSON has: an inherited deep value is not the value’s', () => {
    const value = Object.create({ inherited: JSON.parse(nested(10)) }) as Record<string, unknown>;
    value.own = [[1]];
    expect(() => checkJsonDepth(value, 5, 'v')).not.toThrow();
  });
});

describe('JSON read from files is depth checked', () => {
  it('an impact version holding a transform 10,000 levels deep: JSON_TOO_DEEP naming the file', () => {
    const dir = join(scratch, 'version');
    mkdirSync(dir);
    writeFileSync(join(dir, 'deep.json'), deepTransform(10_000));
    const error = codeOf(() => readDirectoryVersion(dir, scratch));
    expect(error.code).toBe('JSON_TOO_DEEP');
    expect(error.message).toContain('deep.json');
  });

  it('an impact version that is not JSON and too deep to locate the error in: IMPACT_VERSION', () => {
    const dir = join(scratch, 'broken');
    mkdirSync(dir);
    writeFileSync(join(dir, 'deep.json'), nested(10_000).slice(0, -1));
    expect(codeOf(() => readDirectoryVersion(dir, scratch)).code).toBe('IMPACT_VERSION');
  });

  it('a fixture transform 10,000 levels deep: JSON_TOO_DEEP', () => {
    const dir = join(scratch, 'fixtures');
    mkdirSync(join(dir, 'transforms'), { recursive: true });
    writeFileSync(join(dir, 'transforms', 'deep.json'), deepTransform(10_000));
    expect(codeOf(() => loadFixtures(dir)).code).toBe('JSON_TOO_DEEP');
  });

  it('a fixture file too deep: its file:line:column and the pointer with its middle elided, whole in the path', () => {
    const dir = join(scratch, 'located');
    mkdirSync(join(dir, 'transforms'), { recursive: true });
    const file = join(dir, 'transforms', 'deep.json');
    writeFileSync(file, '{\n "name": "deep",\n "type": "static",\n "attributes": {"value": "[{", "x": ' + nested(5_000) + '}}');
    const error = codeOf(() => loadFixtures(dir)) as { code?: string; path?: string; message?: string; details?: Record<string, unknown> };
    expect(error.code).toBe('JSON_TOO_DEEP');
    expect(error.path).toBe('/attributes/x' + '/0'.repeat(MAX_JSON_DEPTH - 2));
    // Line 4's first `[` is at column 37, at level 3: level 1,001 is 998 columns on.
    expect(error.message).toBe(`${file}:4:1035: the file nests deeper than 1000 levels at /attributes/x${'/0'.repeat(23)}/…${'/0'.repeat(30)}`);
    expect(error.details).toMatchObject({ file, line: 4, column: 1035, limit: MAX_JSON_DEPTH });
  });
});
