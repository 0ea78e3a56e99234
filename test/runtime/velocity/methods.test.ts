// Methods of the values templates hold, as Java answers them (src/runtime/velocity/methods.ts);
// every row was checked against Velocity 1.7 on JDK 17 (the differential suite's oracle).

import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../../src/runtime/velocity/index.js';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';

const options = { maxLength: 10_000, regex: compileJavaRegex };

function render(template: string): string {
  return compileTemplate(template, options).render({ a: 'Ann', l: ['p', 'q'], m: { k: 'v' } }, { identity: null });
}

describe('List.equals and Map.equals', () => {
  it.each([
    ['#set($r = [1..3])$r.equals(x)', 'false'],
    ['#set($r = [1..3])$r.equals([1, 2, 3])', 'true'],
    ['$l.equals(["p", "q"]) $l.equals($l)', 'true true'],
    ['#set($e = {})$e.equals(x)', 'false'],
    ['#set($m2 = {"k": "v"})$m.equals($m2) $m2.equals($m)', 'true true'],
    ['#set($m2 = {"k": "w"})$m.equals($m2) $m.equals("k")', 'false false'],
    // AbstractMap.equals is what List.contains asks too.
    ['#set($m2 = {"k": "v"})#set($ll = [$m])$ll.contains($m2)', 'true'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});

describe('a Character (charAt, toCharArray) is no String', () => {
  it.each([
    ['$a.charAt(0)', 'A'],
    ['$a.charAt(0).toString().length()', '1'],
    ['$a.charAt(0).charValue()', 'A'],
    ['$a.charAt(0).hashCode()', '65'],
    ['$a.charAt(0).compareTo($a.charAt(1))', '-45'],
    ['$a.charAt(0).equals($a.charAt(0)) $a.charAt(0).equals("A")', 'true false'],
    ['#set($l2 = [$a.charAt(0)])$l2.contains("A") $l2', 'false [A]'],
    ['$l.contains($a.charAt(0))', 'false'],
    // replace(char, char) takes two Characters.
    ['$a.replace($a.charAt(0), $a.charAt(1))', 'nnn'],
    // `+` neither adds nor concatenates a Character and a number (null), but a String concatenates.
    ['#set($x = $a.charAt(0) + 1)$!x|', '|'],
    ['#set($x = $a.charAt(0) + "x")$x', 'Ax'],
    // `==` compares it with a String by toString(), as any two classes.
    ['#if($a.charAt(0) == "A")T#{else}F#end #if($a.charAt(0) == $a.charAt(0))T#{else}F#end #if($a.charAt(0))T#end', 'T T T'],
    ['#set($x = "$a.charAt(0)")$x.length()', '1'],
    ['#foreach($c in $a.toCharArray())$c.hashCode()#end', '65110110'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it.each([
    // None of String's methods, and no String or int argument.
    ['$a.charAt(0).length()'],
    ['$a.charAt(0).toUpperCase()'],
    ['$a.charAt(0).empty'],
    ['#foreach($c in $a.toCharArray())$c.length()#end'],
    ['$a.concat($a.charAt(0))'],
    ['$a.indexOf($a.charAt(1))'],
    ['$a.replace($a.charAt(0), "x")'],
    ['$a.startsWith($a.charAt(0))'],
    ['$a.contains($a.charAt(0))'],
    ['$a.substring($a.charAt(0))'],
    // Comparable<Character> casts its argument.
    ['$a.charAt(0).compareTo("A")'],
  ])('%j fails when rendered (TEMPLATE_RENDER)', (template) => {
    expect(() => render(template)).toThrow(expect.objectContaining({ code: 'TEMPLATE_RENDER' }));
  });
});
