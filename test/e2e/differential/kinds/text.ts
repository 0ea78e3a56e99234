// Inputs for every kind: text with diacritics (precomposed and combining), case pairs whose
// folding is not ASCII (ß, İ, ſ, K), emoji (surrogate pairs: Java counts UTF-16 units), blanks and
// line terminators Java treats specially, punctuation, digits; sometimes empty.

import fc from 'fast-check';
import { arbitraryAwkwardText, arbitraryFirstName, arbitraryLastName } from '../../../../src/testing/index.js';

const UNITS = [
  'a', 'b', 'c', 'x', 'A', 'B', 'Z', 'k', 'K', 's', 'S', 'i', 'I', '0', '1', '7', '9',
  'é', 'ë', 'Ü', 'ü', 'ß', 'Ø', 'ł', 'İ', 'ı', 'ſ', '\u212a', 'Σ', 'ς', 'σ', 'ǅ', '\u00b5',
  'e\u0301', '\u0301', 'Å', '😀', '𝔸', '中',
  ' ', ' ', '\t', '\n', '\r', '\u000b', '\u00a0', '\u2028', '\u0085', '\u3000',
  '-', '_', '.', ',', "'", '"', '$', '\\', '/', '@', '(', ')', '[', '+', '*', '?',
];

export const unit = fc.constantFrom(...UNITS);

export const text: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit, maxLength: 14 }) },
  { weight: 2, arbitrary: fc.tuple(arbitraryFirstName, arbitraryLastName).map(([f, l]) => `${f} ${l}`) },
  { weight: 1, arbitrary: arbitraryAwkwardText },
  { weight: 1, arbitrary: fc.constant('') },
);

/** A short needle, often taken from the haystack. */
export function needle(hay: string): fc.Arbitrary<string> {
  const taken =
    hay.length === 0
      ? fc.constant('')
      : fc.tuple(fc.nat(hay.length), fc.nat(3)).map(([start, len]) => hay.slice(start, start + len));
  return fc.oneof({ weight: 3, arbitrary: taken }, { weight: 1, arbitrary: fc.string({ unit, maxLength: 3 }) });
}
