// Methods of the values templates hold, as Java answers them (src/runtime/velocity/methods.ts);
// every row was checked against Velocity 1.7 on JDK 17 (the differential suite's oracle).

import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../../src/runtime/velocity/index.js';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';

const options = { maxLength: 10_000, regex: compileJavaRegex };

function render(template: string): string {
  return compileTemplate(template, options).render({ l: ['p', 'q'], m: { k: 'v' } }, { identity: null });
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
