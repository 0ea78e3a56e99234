// Number literals of Velocity 1.7's grammar that velocityjs's cannot read, rewritten to the same
// Double (src/runtime/velocity/number-literals.ts); every row was checked against the real
// library (the differential suite's oracle).

import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../../src/runtime/velocity/index.js';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';

const options = { maxLength: 10_000, regex: compileJavaRegex };

function render(template: string): string {
  return compileTemplate(template, options).render({ a: 'Ann' }, { identity: null });
}

describe('floating-point literals without digits on one side of the point', () => {
  it.each([
    ['#set($x = .5)$x', '0.5'],
    ['#set($x = -.5)$x', '-0.5'],
    ['#set($x = 5.)$x', '5.0'],
    ['#set($x = [.5])$x', '[0.5]'],
    ['#set($x = 1.)$x #set($y = [5.])$y', '1.0[5.0]'],
    ['#if(.5 == 0.5)T#{else}F#end', 'T'],
    ['#set($x = {"k": $.5})$x', '{k=0.5}'],
    ['#macro(foo $p)[$p]#end#foo(.5)', '[0.5]'],
    ['#macro(foo $p)[$p]#end#foo(-.5)', '[-0.5]'],
    ['#macro(foo $p)[$p]#end#foo($.5)', '[0.5]'],
    ['#macro(foo $p)[$p]#end#foo($-.5)', '[-0.5]'],
    ['#macro(foo $p)[$p]#end#foo($.5e1)', '[5.0]'],
    ['#macro(foo $p)[$p]#end#foo(1.)', '[1.0]'],
    // In text a point is text.
    ['x.5 $a.5 #set($x = 1)$x.5', 'x.5 Ann.5 1.5'],
    ['#set($x = "$.5")$x', '$.5'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it.each([['#set($x = [1..3.])$x'], ['#macro(foo $p)[$p]#end#foo($.x)']])('%j does not parse (TEMPLATE_SYNTAX)', (template) => {
    expect(() => render(template)).toThrow(expect.objectContaining({ code: 'TEMPLATE_SYNTAX' }));
  });
});
