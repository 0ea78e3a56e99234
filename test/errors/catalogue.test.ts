// The error catalogue (src/errors/): one table of codes, each with a status and a meaning; a code
// outside it does not compile, and docs/errors.md files every code under a section of its own.

import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, TransformsError, codedError, isErrorCode, type ErrorCode } from '../../src/errors/index.js';
import { renderErrorsDoc } from '../../src/schema/artefacts.js';

describe('error catalogue', () => {
  it('admits catalogued codes only, at compile time and at run time', () => {
    const good: ErrorCode = 'PATCH_TEST_FAILED';
    expect(codedError(good, 'test failed').status).toBe(400);
    // @ts-expect-error a code that is not in the catalogue is a type error
    const wrong: ErrorCode = 'PATCH_TEST_FAILS';
    // JavaScript callers have no types: the constructor still refuses the code.
    expect(() => new TransformsError(wrong, 'x')).toThrow(/uncatalogued error code PATCH_TEST_FAILS/);
    expect(isErrorCode('PATCH_TEST_FAILS')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
  });

  it('gives every code an HTTP error status and a description', () => {
    for (const [code, def] of Object.entries(ERROR_CATALOGUE)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/);
      expect(def.status, code).toBeGreaterThanOrEqual(400);
      expect(def.status, code).toBeLessThan(600);
      expect(def.description.length, code).toBeGreaterThan(10);
    }
  });

  it('holds the sub-cases of a bad request as codes of their own', () => {
    for (const code of ['PATCH_PATH_MISSING', 'SEARCH_OFFSET_CAP', 'SORTER_FIELD', 'PARAM_UNSUPPORTED', 'JSON_TOO_DEEP', 'TRANSFORM_REFERENCE_CYCLE']) {
      expect(isErrorCode(code), code).toBe(true);
      expect(ERROR_CATALOGUE[code as ErrorCode].status).toBe(400);
    }
  });

  it('files every code of docs/errors.md under a named section', () => {
    const doc = renderErrorsDoc();
    expect(doc).not.toContain('## Other');
    for (const code of Object.keys(ERROR_CATALOGUE)) expect(doc.split(`| \`${code}\` |`)).toHaveLength(2);
  });
});
