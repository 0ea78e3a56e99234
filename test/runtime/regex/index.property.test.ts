// Properties of the Java → RE2 translation: on the syntax subset where
// Java, JavaScript and RE2 agree (literals, classes, quantifiers, groups, alternation, anchors
// without line terminators in the input), replaceAll and split must give what JavaScript's
// RegExp gives under Java's rules; and \Q…\E quoting of any text matches it literally.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileJavaRegex, compileJavaReplacement } from '../../../src/runtime/regex/index.js';

/** A small regex grammar over the alphabet a, b, c, space. */
const atom: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('a', 'b', 'c', ' ', '.', '[ab]', '[^a]', '[a-c]', '\\w', '\\s', '\\d', '\\W'),
);

const pattern: fc.Arbitrary<string> = fc.letrec<{ re: string; seq: string; piece: string }>((tie) => ({
  piece: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(atom, fc.constantFrom('*', '+', '?', '*?', '+?', '??', '{1,2}', '{2}')).map(([a, q]) => a + q),
    tie('re').map((r) => `(${r})`),
    tie('re').map((r) => `(?:${r})`),
  ),
  seq: fc.array(tie('piece'), { minLength: 1, maxLength: 4 }).map((p) => p.join('')),
  re: fc.oneof(
    { depthSize: 'small' },
    tie('seq'),
    fc.tuple(tie('seq'), tie('seq')).map(([x, y]) => `${x}|${y}`),
    tie('seq').map((x) => `^${x}`),
    tie('seq').map((x) => `${x}$`),
  ),
})).re.filter(runnable);

/** `$` followed by more of the pattern (`^(a$)a`) is a coded rejection (docs/decisions.md X12): not part of the shared subset. */
function runnable(source: string): boolean {
  try {
    compileJavaRegex(source);
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === 'REGEX_UNSUPPORTED') return false;
    throw e;
  }
}

const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', '1'), maxLength: 12 });

/** Java String.split over JavaScript match positions: the reference the layer must equal. */
function javaSplit(regex: RegExp, input: string): string[] {
  const list: string[] = [];
  let index = 0;
  for (const m of input.matchAll(regex)) {
    const start = m.index;
    const end = start + m[0].length;
    if (index === 0 && start === 0 && end === 0) continue;
    list.push(input.slice(index, start));
    index = end;
  }
  if (index === 0 && list.length === 0) return [input];
  list.push(input.slice(index));
  while (list.length > 0 && list[list.length - 1] === '') list.pop();
  return list;
}

describe('translation agrees with JavaScript on the shared syntax', () => {
  it('replaceAll with a group reference', () => {
    fc.assert(
      fc.property(pattern, text, (source, input) => {
        const js = new RegExp(source, 'gu');
        const java = compileJavaRegex(source);
        const groups = java.groupCount;
        const replacement = groups > 0 ? '<$1>' : '<$0>';
        const expected = input.replace(js, groups > 0 ? (_m, g1: string | undefined) => `<${g1 ?? ''}>` : (m) => `<${m}>`);
        expect(java.replaceAll(input, compileJavaReplacement(replacement))).toBe(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('split with Java rules', () => {
    fc.assert(
      fc.property(pattern, text, (source, input) => {
        expect(compileJavaRegex(source).split(input)).toEqual(javaSplit(new RegExp(source, 'gu'), input));
      }),
      { numRuns: 400 },
    );
  });

  it('matches is a whole-string match', () => {
    fc.assert(
      fc.property(pattern, text, (source, input) => {
        expect(compileJavaRegex(source).matches(input)).toBe(new RegExp(`^(?:${source})$`, 'u').test(input));
      }),
      { numRuns: 400 },
    );
  });
});

describe('quoting', () => {
  it('\\Q…\\E matches any text literally', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }).filter((s) => !s.includes('\\E')), fc.string({ maxLength: 10 }), (quoted, around) => {
        const p = compileJavaRegex(`\\Q${quoted}\\E`);
        const input = around + quoted + around;
        if (quoted.length > 0) expect(p.find(input)).toBe(true);
        expect(p.matches(quoted)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('a literal replacement is inserted as is when its $ and \\ are escaped', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), (literal) => {
        const escaped = literal.replace(/[\\$]/g, (c) => '\\' + c);
        expect(compileJavaRegex('x').replaceAll('axb', compileJavaReplacement(escaped))).toBe(`a${literal}b`);
      }),
      { numRuns: 300 },
    );
  });
});
