// Directives as Velocity 1.7 (strict references) runs them (src/runtime/velocity/directives.ts);
// every row was checked against the real library (the differential suite's oracle).

import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../../src/runtime/velocity/index.js';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';

const options = { maxLength: 10_000, regex: compileJavaRegex };

function render(template: string): string {
  return compileTemplate(template, options).render({ a: 'Ann' }, { identity: null });
}

describe("a macro's arguments are passed by name", () => {
  // 1.7 evaluates an argument only where the body reads its parameter: one the body never reads,
  // or one past the parameters, fails nothing.
  it.each([
    ['#macro(two $p $q)$p#end#two(1 $u)', '1'],
    ['#macro(two $p $q)$p#end#two(1 $a $u)', '1'],
    ['#macro(one $p)$p#end#one(1 $u.x)', '1'],
    ['#macro(two $p $q)$p#end#two(1 $a.concat(x))', '1'],
    // Read in an interpolated string, in braces, quietly or in a condition, it is read.
    ['#macro(two $p $q)#set($z = "$q")$p$z#end#two(1 $a)', '1Ann'],
    ['#macro(two $p $q)$p${q}$!q#end#two(1 $a)', '1AnnAnn'],
    ['#macro(two $p $q)$p#if($q)y#end#end#two(1 $a)', '1y'],
    ['#macro(two $p $qq)$p$qq#end#two(1 $a)', '1Ann'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it.each([['#macro(two $p $q)$p$q#end#two(1 $u)'], ['#macro(two $p $q)$p"$q"#end#two(1 $u)']])('%j fails where the body reads it: TEMPLATE_RENDER', (template) => {
    expect(() => render(template)).toThrow(expect.objectContaining({ code: 'TEMPLATE_RENDER' }));
  });
});
