// References as Velocity 1.7 (strict references) evaluates them (src/runtime/velocity/references.ts);
// every row was checked against the real library (the differential suite's oracle).

import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../../src/runtime/velocity/index.js';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';

const options = { maxLength: 10_000, regex: compileJavaRegex };
const vars = { a: 'Ann', x: 'X', l: ['p', 'q'], m: { k: 'v' } };

function render(template: string): string {
  return compileTemplate(template, options).render(vars, { identity: null });
}

describe("a bare word among a call's arguments is null", () => {
  // 1.7 reads it as a reference without its `$` whose value is always null (a variable of that
  // name, set or not, is not read).
  it.each([
    ['$a.equals(x)', 'false'],
    ['$a.equals( x )', 'false'],
    ['$!a.equals(_x)', 'false'],
    ['$m.containsKey(x)', 'false'],
    ['$l.contains(x)', 'false'],
    ['$l.indexOf(x)', '-1'],
    ['#set($z = $a.equals(x))$z', 'false'],
    ['#if($a.equals(x))y#else n#end', ' n'],
    ['#if(false)$a.concat(x)#end', ''],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it.each([['$a.concat(x)'], ['$a.concat(x-y)'], ['$m.k(x)'], ['$m.get(x)']])('%j fails when it runs (null where Java wants a value): TEMPLATE_RENDER', (template) => {
    expect(() => render(template)).toThrow(expect.objectContaining({ code: 'TEMPLATE_RENDER' }));
  });
});

describe('a call of a reference in an expression does not parse', () => {
  it.each([['#set($z = $a(1))'], ['#if($a())y#end'], ['#if(false)#if($a(1))y#end#end'], ['#macro(f $p)$p#end#f($a(x))'], ['$a.concat($a(1))'], ['#foreach($i in $l(1))#end']])(
    '%j: TEMPLATE_SYNTAX, as 1.7 fails to parse it',
    (template) => {
      expect(() => render(template)).toThrow(expect.objectContaining({ code: 'TEMPLATE_SYNTAX' }));
    },
  );
});
