// `$` and `$!` among a directive's, a macro call's or a method call's arguments, as Velocity 1.7
// reads them (src/runtime/velocity/argument-prefixes.ts); every row was checked against the real
// library (the differential suite's oracle, test/e2e/differential/pinned/velocity.json).

import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../../src/runtime/velocity/index.js';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';

const options = { maxLength: 10_000, regex: compileJavaRegex };
const vars = { a: 'Ann', b: 'B', n: '3', l: ['p', 'q'], m: { k: 'v' } };

function render(template: string): string {
  return compileTemplate(template, options).render(vars, { identity: null });
}

describe('prefixes before a reference are the reference', () => {
  it.each([
    ['#if($$a)T#end', 'T'],
    ['#if($$a == 1)T#{else}F#end', 'F'],
    ['#if($$a == $a)T#{else}F#end', 'T'],
    ['#if($a==$$a)T#{else}F#end', 'T'],
    ['#if($!$a)T#{else}F#end', 'T'],
    ['#if($$!a)T#{else}F#end', 'T'],
    ['#if($$$a)T#{else}F#end', 'T'],
    ['#if($${a})T#{else}F#end', 'T'],
    ['#if($$!{a})T#{else}F#end', 'T'],
    ['#if($$a.length() == 3)T#{else}F#end', 'T'],
    ['#if($$m.k)T#{else}F#end', 'T'],
    ['#if(!$$a)T#{else}F#end', 'F'],
    ['#if($$a && $$b)T#{else}F#end', 'T'],
    // Backslashes before the `$` belong to its token: no escape in arguments.
    ['#if(\\$a)T#{else}F#end', 'T'],
    ['#if(\\\\$a)T#{else}F#end', 'T'],
    ['#if($\\$a)T#{else}F#end', 'T'],
    ['#set($x = \\$a)$x', 'Ann'],
    ['#set($x = $$a)$x', 'Ann'],
    ['#set($$x = 1)$x', '1'],
    ['#set($x = [$$a, 1])$x', '[Ann, 1]'],
    ['#foreach($i in $$l)$i#end', 'pq'],
    ['$a.concat($$a)', 'AnnAnn'],
    ['$a.concat(\\$a)', 'AnnAnn'],
    ['#macro(foo $$p)[$p]#end#foo(1)', '[1]'],
    // In a string it is text.
    ['#set($x = "$$a")$x', '$Ann'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});

describe('a lone $ in arguments vanishes', () => {
  it.each([
    ['#if($ true)T#{else}F#end', 'T'],
    ['#if($ $a)T#{else}F#end', 'T'],
    ['#if($! $a)T#{else}F#end', 'T'],
    ['#if($!!$a)T#{else}F#end', 'F'],
    ['#if($\n$a)T#{else}F#end', 'T'],
    ['#if(1 ==$ 1)T#{else}F#end', 'T'],
    ['#if(1 $== 1)T#{else}F#end', 'T'],
    ['#if(1 $< 2)T#{else}F#end', 'T'],
    ['#if(true $&& true)T#{else}F#end', 'T'],
    ['#if(true$)T#{else}F#end', 'T'],
    ['#if(true $)T#{else}F#end', 'T'],
    ['#if($(true))T#{else}F#end', 'T'],
    ['#set($x = $1)$x', '1'],
    ['#set($x = $$$1)$x', '1'],
    ['#set($x = $!1)$x', '1'],
    ['#set($x = $\\!1)$x', '1'],
    ['#set($x = $-1)$x', '-1'],
    ['#set($x = $"s")$x', 's'],
    ["#set($x = $'s')$x", 's'],
    ['#set($x = $1 + $2)$x', '3'],
    ['#set($x = $1+$2)$x', '3'],
    ['#set($x=$1)$x', '1'],
    ['#set($x $= 1)$x', '1'],
    ['#set($x = 1 $+ 2)$x', '3'],
    ['#set($x = 1$)$x', '1'],
    ['#set($x = [$1, $2])$x', '[1, 2]'],
    ['#set($x = [1$, 2])$x', '[1, 2]'],
    ['#set($x = [1$])$x', '[1]'],
    ['#set($x = [1..$3])$x', '[1, 2, 3]'],
    ['#set($x = [1$..3])$x', '[1, 2, 3]'],
    ['#set($x = {$"k": 1})$x', '{k=1}'],
    ['#set($x = {"k"$: 1})$x', '{k=1}'],
    ['#set($x = {"k": 1$})$x', '{k=1}'],
    ['#foreach($i in$ $l)$i#end', 'pq'],
    ['$a.concat($ $a)', 'AnnAnn'],
    ['$a.concat($"x")', 'Annx'],
    ['$a.concat("x"$)', 'Annx'],
    ['$a.substring($1)', 'nn'],
    ['$a.substring(1$, 2)', 'n'],
    ['$a.substring(1 $, 2)', 'n'],
    ['$a.substring(1 ,$ 2)', 'n'],
    // Between two macro arguments it still ends the one before it.
    ['#macro(two $p $q)[$p|$q]#end#two(-2$1)', '[-2|1]'],
    ['#macro(two $p $q)[$p|$q]#end#two("w"$"w")', '[w|w]'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it('before true or false it leaves the literal (a longer word is a reference)', () => {
    expect(render('#if($true)T#{else}F#end#if($!true)T#{else}F#end#if(!$true)T#{else}F#end#if($false)T#{else}F#end')).toBe('TTFF');
    expect(render('#macro(two $p $q)[$p|$q]#end#two($true $false)')).toBe('[true|false]');
    expect(() => render('#macro(foo $p)[$p]#end#foo($truex)')).toThrow(expect.objectContaining({ code: 'TEMPLATE_RENDER' }));
  });

  it.each([
    // A blank on both sides, or a `$` before `[`, `#` or `.` and a letter, does not parse.
    ['#if(\n$ $a)T#end'],
    ['#if($$ a)T#end'],
    ['#set($x = $ 1)$x'],
    ['#if(1 == $ 1)T#end'],
    ['#if(1 $ == 1)T#end'],
    ['$a.concat( $ "x")'],
    ['#foreach($i in $ $l)$i#end'],
    ['$a.substring(1 , $ 2)'],
    ['#set($x = $[1])$x'],
    ['#set($x = $#)$x'],
    ['#set($x = $.x)$x'],
    ['#if($)T#end'],
  ])('%j does not parse (TEMPLATE_SYNTAX)', (template) => {
    expect(() => compileTemplate(template, options)).toThrow(expect.objectContaining({ code: 'TEMPLATE_SYNTAX' }));
  });

  it('locates what follows by its column in the source', () => {
    expect(() => render('#set($x = $$$1)$u')).toThrow(expect.objectContaining({ details: expect.objectContaining({ line: 1, column: 16 }) }));
  });
});

describe('inside a method call of an interpolated string', () => {
  it.each([
    ['#set($x = "$a.concat($$a)")$x', 'AnnAnn'],
    ['#set($x = "$a.concat(\\$a)!")$x', 'AnnAnn!'],
    ['#set($x = "$a.substring(1$)")$x', 'nn'],
    ['#set($x = "$a.concat($\'x\')")$x', 'Annx'],
    ['#set($x = "$a.concat($ $a) $1")$x', 'AnnAnn $1'],
    // A single-quoted argument is not read, nor is text after the call.
    ["#set($x = \"$a.concat('$$a')$$\")$x", 'Ann$$a$$'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});

describe('a number right after a reference among macro arguments', () => {
  it.each([
    ['#macro(two $p $q)[$p|$q]#end#two($a.5)', '[Ann|0.5]'],
    ['#macro(two $p $q)[$p|$q]#end#two($true.5)', '[true|0.5]'],
    ['#macro(two $p $q)[$p|$q]#end#two(1.5-2)', '[1.5|-2]'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});
