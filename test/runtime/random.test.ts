// Random values from an injected source (randomAlphaNumeric, randomNumeric, uuid,
// generateRandomString; https://developer.sailpoint.com/docs/extensibility/transforms/operations/).
import { describe, expect, it } from 'vitest';
import {
  DIGITS, LETTERS, SPECIAL_CHARACTERS, generateRandomString, randomAlphaNumeric, randomNumeric, randomString, uuidV4,
} from '../../src/runtime/random.js';
import { TransformsError } from '../../src/errors/index.js';

/** A deterministic source (mulberry32) so that every expectation is reproducible. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('random strings', () => {
  it('match the documented patterns', () => {
    const r = seeded(1);
    expect(randomAlphaNumeric(32, r)).toMatch(/^[A-Za-z0-9]{32}$/); // random-alphanumeric#2
    expect(randomAlphaNumeric(10, r)).toMatch(/^[A-Za-z0-9]{10}$/); // random-alphanumeric#3
    expect(randomNumeric(10, r)).toMatch(/^[0-9]{10}$/); // random-numeric#2
    expect(randomNumeric(6, r)).toMatch(/^[0-9]{6}$/); // random-numeric#3
    expect(randomAlphaNumeric(0, r)).toBe('');
  });

  it('are reproducible from the same source', () => {
    expect(randomAlphaNumeric(20, seeded(42))).toBe(randomAlphaNumeric(20, seeded(42)));
    expect(randomAlphaNumeric(20, seeded(42))).not.toBe(randomAlphaNumeric(20, seeded(43)));
  });

  it('map the source onto the character set in order', () => {
    expect(randomString(3, 'abc', () => 0)).toBe('aaa');
    expect(randomString(3, 'abc', () => 0.999999)).toBe('ccc');
    expect(randomNumeric(4, () => 0.55)).toBe('5555');
  });

  it('generateRandomString uses letters, then digits and the special set when asked', () => {
    const r = seeded(7);
    const special = generateRandomString(400, { includeNumbers: true, includeSpecialChars: true }, r);
    expect(special).toHaveLength(400);
    expect(special).toMatch(/^[A-Za-z0-9!@#$%&*()+<>?]+$/); // generate-random-string#2
    expect(special).toMatch(/[!@#$%&*()+<>?]/);
    expect(generateRandomString(8, { includeNumbers: true, includeSpecialChars: false }, r)).toMatch(/^[A-Za-z0-9]{8}$/); // #3
    expect(generateRandomString(50, { includeNumbers: false, includeSpecialChars: false }, r)).toMatch(/^[A-Za-z]{50}$/);
    expect(SPECIAL_CHARACTERS).toBe('!@#$%&*()+<>?');
    expect(LETTERS + DIGITS).toHaveLength(62);
  });

  it.each([-1, 1.5, Number.NaN])('length %s is a coded illegal argument', (length) => {
    expect(() => randomNumeric(length, Math.random)).toThrowError(TransformsError);
    expect(() => randomNumeric(length, Math.random)).toThrowError(expect.objectContaining({ code: 'EVAL_ILLEGAL_ARGUMENT', details: { length } }));
  });

  it.each([1, -0.1, Number.NaN])('a source returning %s is a coded illegal argument', (value) => {
    expect(() => randomNumeric(1, () => value)).toThrowError(TransformsError);
    expect(() => randomNumeric(1, () => value)).toThrowError(expect.objectContaining({ code: 'EVAL_ILLEGAL_ARGUMENT' }));
  });
});

describe('uuidV4', () => {
  it('has the documented 36-character shape with version 4 and the IETF variant', () => {
    const id = uuidV4(seeded(3));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/); // uuid-generator#2
  });

  it('is fully determined by the source', () => {
    expect(uuidV4(() => 0)).toBe('00000000-0000-4000-8000-000000000000');
    expect(uuidV4(seeded(9))).toBe(uuidV4(seeded(9)));
  });
});
