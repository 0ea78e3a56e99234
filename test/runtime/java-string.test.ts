// Java String and Apache Commons StringUtils semantics of the string operations
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/).
import { describe, expect, it } from 'vitest';
import {
  base64Decode, base64Encode, decomposeDiacriticalMarks, javaIndexOf, javaLastIndexOf, javaLowerCase, javaSubstring,
  javaTrim, javaUpperCase, leftPad, rightPad,
} from '../../src/runtime/java-string.js';
import { TransformsError } from '../../src/errors/index.js';

describe('javaTrim strips code units <= U+0020 only', () => {
  it.each([
    [' Vice President', 'Vice President'], // trim#2
    ['Austin, Texas ', 'Austin, Texas'], // trim#3
    ['\t\n\r\u0000 x \u001f', 'x'],
    ['\u00a0x\u00a0', '\u00a0x\u00a0'], // NBSP is kept (JavaScript's trim would strip it)
    ['\u2003x\u3000', '\u2003x\u3000'],
    ['   ', ''],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(javaTrim(input)).toBe(expected);
  });
});

describe('javaSubstring', () => {
  it.each([
    ['abcdef', 2, 4, 'cd'], // substring#2
    ['abcdef', 2, 7 - 1, 'cdef'],
    ['abcdef', 1 + 1, 3 + 2, 'cde'], // substring#3 with its offsets applied
    ['abcdef', 4, undefined, 'ef'], // substring#0
    ['abcdef', 6, 6, ''],
    ['', 0, 0, ''],
  ])('%j.substring(%i, %s) = %j', (s, begin, end, expected) => {
    expect(javaSubstring(s, begin, end)).toBe(expected);
  });

  it.each([
    ['abc', -1, 2],
    ['abc', 0, 4],
    ['abc', 2, 1],
    ['abc', 4, undefined],
    ['abc', 0.5, 2],
  ])('%j.substring(%s, %s) throws StringIndexOutOfBoundsException', (s, begin, end) => {
    try {
      javaSubstring(s, begin, end);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(TransformsError);
      expect((e as TransformsError).code).toBe('EVAL_INDEX_OUT_OF_BOUNDS');
      expect((e as TransformsError).details).toMatchObject({ begin, length: s.length });
    }
  });
});

describe('indexOf / lastIndexOf', () => {
  it.each([
    ['admin_jsmith', 'admin_', 0, 0], // index-of#2, last-index-of#2
    ['abcabcabc', 'b', 1, 7], // index-of#3, last-index-of#3
    ['abc', 'z', -1, -1],
    ['abc', '', 0, 3],
    ['a😀b😀', '😀', 1, 4], // UTF-16 indexes, as in Java
  ])('%j in %j', (s, sub, first, last) => {
    expect(javaIndexOf(s, sub)).toBe(first);
    expect(javaLastIndexOf(s, sub)).toBe(last);
  });
});

describe('case mapping in the root locale', () => {
  it.each([
    ['inactive', 'INACTIVE'], ['Everyone', 'EVERYONE'], ['straße', 'STRASSE'], ['istanbul', 'ISTANBUL'],
  ])('upper %j = %j', (s, expected) => expect(javaUpperCase(s)).toBe(expected));
  it.each([
    ['ACTIVE', 'active'], ['All-Access', 'all-access'], ['Foo', 'foo'], ['İ', 'i\u0307'], ['ΟΔΟΣ', 'οδος'],
  ])('lower %j = %j', (s, expected) => expect(javaLowerCase(s)).toBe(expected));
  // Final sigma as JDK 17 decides it: within the word of its word BreakIterator.
  it.each([
    ["'iüł$ÅK0Σ", "'iüł$åk0ς"], // a digit between the cased letter and Σ
    ['łSS1Σ', 'łss1ς'],
    ['ü7Σ😀0ǅ', 'ü7ς😀0ǆ'], // the emoji ends the word
    ['i　　 ÜéΣ-ſ', 'i　　 üéσ-ſ'], // a dash between letters does not end it
    ['ëéSΣ_ÅÅ', 'ëésσ_åå'], // nor does `_`
    ['$Kéé0-Σ', '$kéé0-σ'], // a dash after a digit does: Σ starts a word of its own
    ['Σ', 'σ'], ['ΑΣ ', 'ας '],
  ])('lower %j = %j (final sigma)', (s, expected) => expect(javaLowerCase(s)).toBe(expected));
});

describe('Apache Commons leftPad / rightPad', () => {
  it.each([
    ['1234', 8, '0', '00001234', '12340000'], // left-pad#2, right-pad#2
    ['1234', 7, 'x', 'xxx1234', '1234xxx'], // left-pad#3, right-pad#3
    ['1234', 8, undefined, '    1234', '1234    '],
    ['1234', 8, '', '    1234', '1234    '],
    ['1234', 9, 'ab', 'ababa1234', '1234ababa'],
    ['1234', 6, 'xyz', 'xy1234', '1234xy'],
    ['12345678', 4, '0', '12345678', '12345678'],
    ['', 3, '-', '---', '---'],
    ['abc', -1, '0', 'abc', 'abc'],
  ])('%j to %i with %j', (s, size, pad, left, right) => {
    expect(leftPad(s, size, pad)).toBe(left);
    expect(rightPad(s, size, pad)).toBe(right);
  });

  it('keeps null as null', () => {
    expect(leftPad(null, 5, '0')).toBeNull();
    expect(rightPad(null, 5, '0')).toBeNull();
  });
});

describe('decomposeDiacriticalMarks', () => {
  it.each([
    ['Āric', 'Aric'], // decompose-diacritical-marks#2
    ['Dubçek', 'Dubcek'], // decompose-diacritical-marks#3
    ['José Müller-Łukasz', 'Jose Muller-Łukasz'], // Ł has no decomposition, as in Java
    ['ﬁ²', 'fi2'], // NFKD compatibility folding
  ])('%j → %j', (s, expected) => expect(decomposeDiacriticalMarks(s)).toBe(expected));
});

describe('base64', () => {
  it('round-trips the documented example', () => {
    expect(base64Encode('1234')).toBe('MTIzNA=='); // base64-encode#2
    expect(base64Decode('MTIzNA==')).toBe('1234'); // base64-decode#2
    expect(base64Decode('MTIzNA')).toBe('1234');
    expect(base64Encode('Dubçek')).toBe('RHViw6dlaw==');
    expect(base64Decode('RHViw6dlaw==')).toBe('Dubçek');
  });

  it.each(['MTIz NA==', 'MTIzNA=x', 'M', '@@@@', 'MTIzN==='])('rejects %j like java.util.Base64', (s) => {
    try {
      base64Decode(s);
      expect.unreachable();
    } catch (e) {
      expect((e as TransformsError).code).toBe('EVAL_ILLEGAL_ARGUMENT');
    }
  });
});
