// Properties of the template layer
// (https://developer.sailpoint.com/docs/extensibility/transforms/): any text either compiles or is
// a TEMPLATE_SYNTAX error, and every render either returns a string or raises TEMPLATE_RENDER —
// never a JavaScript exception; variables render as themselves; String methods are Java's.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../../src/runtime/velocity/index.js';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';
import { TransformsError } from '../../../src/errors/index.js';
import { javaTrim } from '../../../src/runtime/java-string.js';

const options = { maxLength: 10_000, regex: compileJavaRegex, maxIterations: 1_000 };
const globals = { identity: null };

/** Fragments of VTL, glued at random: mostly invalid, sometimes valid templates. */
const fragment = fc.constantFrom(
  '$', '#', '$a', '$b', '${a}', '$!a', '$a.length()', '$a.substring(1)', '$a.split(",")', '[0]', '.', '(', ')', '{', '}',
  '[', ']', '"', "'", '!', '=', '==', ' ', ',', '1', '-1', '2.5', '#if(', '#elseif(', '#else', '#{else}', '#end', '#set(',
  '#foreach(', ' in ', '[1..3]', '$foreach.index', '##', '#*', '*#', '#[[', ']]#', '+', '/', '%', '&&', '||', 'true', 'null',
  '$a.replaceAll("[a-z]", "$0")', '$a.matches(', '#break', '#macro(m $x)', '#m(', 'x', '\n',
);
const templateText = fc.array(fragment, { maxLength: 14 }).map((parts) => parts.join(''));

const safeText = fc.string({ maxLength: 20 });

describe('robustness', () => {
  it('compile and render never escape with a non-coded exception', () => {
    fc.assert(
      fc.property(templateText, safeText, safeText, (source, a, b) => {
        let template;
        try {
          template = compileTemplate(source, options);
        } catch (e) {
          expect(e).toBeInstanceOf(TransformsError);
          // Random text is refused for one of two reasons, and which depends on the text: it does
          // not parse (TEMPLATE_SYNTAX; a call of a variable, `$a(…)`, in an expression neither),
          // or it names a member the sandbox refuses at compile time (TEMPLATE_FORBIDDEN).
          expect(['TEMPLATE_SYNTAX', 'TEMPLATE_FORBIDDEN']).toContain((e as TransformsError).code);
          return;
        }
        for (const strict of [true, false]) {
          const t = strict ? template : compileTemplate(source, { ...options, references: 'lenient' });
          try {
            expect(typeof t.render({ a, b }, globals)).toBe('string');
          } catch (e) {
            expect(e).toBeInstanceOf(TransformsError);
            // What compiles fails to render only as "Error rendering template".
            expect((e as TransformsError).code).toBe('TEMPLATE_RENDER');
          }
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('templates of any size compile or stop with a coded limit, within their token and time budgets', () => {
    const sized = fc.tuple(fc.array(fragment, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 20_000 })).map(([parts, n]) => parts.join('').repeat(n).slice(0, 60_000));
    const budgeted = { ...options, maxLength: 100_000, maxTokens: 5_000 };
    fc.assert(
      fc.property(sized, (source) => {
        try {
          compileTemplate(source, { ...budgeted, parseTime: { maxTime: 2_000, spent: { ms: 0 } } });
        } catch (e) {
          expect(e).toBeInstanceOf(TransformsError);
          expect(['TEMPLATE_SYNTAX', 'TEMPLATE_FORBIDDEN', 'COMPILE_TEMPLATE_TOO_LARGE', 'COMPILE_LIMIT_TIME', 'COMPILE_TOO_DEEP']).toContain((e as TransformsError).code);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('values', () => {
  const name = fc.constantFrom('a', 'firstName', 'x1', 'Within7Days');

  it('$name and ${name} render the variable as it is', () => {
    fc.assert(
      fc.property(name, safeText, (n, v) => {
        expect(compileTemplate(`$${n}|\${${n}}`, options).render({ [n]: v }, globals)).toBe(`${v}|${v}`);
      }),
    );
  });

  it('String methods are Java’s: length() in UTF-16 units, trim() of chars <= U+0020, toUpperCase()', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 10 }), (v) => {
        const out = compileTemplate('$v.length()|$v.trim()|$v.toUpperCase()', options).render({ v }, globals);
        expect(out).toBe(`${v.length}|${javaTrim(v)}|${v.toUpperCase()}`);
      }),
    );
  });

  it('integer arithmetic truncates like Java long division', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: -1e3, max: 1e3 }).filter((d) => d !== 0), (x, y) => {
        const out = compileTemplate(`#set($q = ${x} / ${y})#set($r = ${x} % ${y})$q $r`, options).render({}, globals);
        expect(out).toBe(`${Math.trunc(x / y) || 0} ${x % y || 0}`);
      }),
    );
  });
});
