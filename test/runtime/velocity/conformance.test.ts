// Apache Velocity's own template/expected-output pairs (test/conformance/data/velocity,
// origins in its SOURCES.md): rendered with the context Apache's TemplateTestCase gives them, in stock Velocity's
// lenient reference mode (Apache's test configuration), compared exactly after normalizing
// newlines only, as Apache's BaseTestCase.isMatch does.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformancePath } from '../../conformance/data.js';
import { compileTemplate } from '../../../src/runtime/velocity/index.js';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';
import { TransformsError } from '../../../src/errors/index.js';

const dir = conformancePath('velocity');

/**
 * Vectors velocityjs's grammar cannot parse. Each is still reported (the test asserts the coded
 * TEMPLATE_SYNTAX), and the semantics they exercise are covered by test/runtime/velocity/index.test.ts.
 */
const PARSER_LIMITS: Record<string, string> = {};

/** The context objects of TemplateTestCase.java that these templates touch. */
const context = {
  name: 'jason',
  hashtable: new Map([
    ['Bar', 'this is from a hashtable!'],
    ['Foo', 'this is from a hashtable too!'],
  ]),
  intarr: [10, 20, 30, 40, 50],
};

const normalize = (s: string) => s.replace(/\r\n?/g, '\n');

const names = readdirSync(join(dir, 'templates'))
  .filter((f) => f.endsWith('.vm'))
  .map((f) => f.slice(0, -3))
  .sort();

describe('Apache Velocity conformance templates', () => {
  it('finds the vectors', () => {
    expect(names.length).toBeGreaterThan(0);
  });

  it.each(names.filter((n) => !(n in PARSER_LIMITS)))('%s.vm renders exactly %s.cmp', (name) => {
    const source = readFileSync(join(dir, 'templates', `${name}.vm`), 'utf8');
    const expected = readFileSync(join(dir, 'compare', `${name}.cmp`), 'utf8');
    const template = compileTemplate(source, { maxLength: 1_000_000, regex: compileJavaRegex, references: 'lenient' });
    expect(normalize(template.render(context, { identity: null }))).toBe(normalize(expected));
  });

  it.each(Object.entries(PARSER_LIMITS).filter(([n]) => names.includes(n)))('%s.vm is a coded TEMPLATE_SYNTAX (skip reason: %s)', (name) => {
    const source = readFileSync(join(dir, 'templates', `${name}.vm`), 'utf8');
    let error: unknown;
    try {
      compileTemplate(source, { maxLength: 1_000_000, regex: compileJavaRegex, references: 'lenient' });
    } catch (e) {
      error = e;
    }
    // If velocityjs learns the construct, this fails and the vector moves to the exact list.
    expect(error).toBeInstanceOf(TransformsError);
    expect((error as TransformsError).code).toBe('TEMPLATE_SYNTAX');
  });
});
