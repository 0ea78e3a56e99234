// What Apache Velocity 1.7 (strict references) and JDK 17 answer for templates the differential
// suite (test/e2e/differential) found us answering differently; each row was checked against
// the real libraries.

import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../src/runtime/velocity/index.js';
import { compileJavaRegex } from '../../src/runtime/regex/index.js';

const options = { maxLength: 10_000, regex: compileJavaRegex };

function render(template: string, variables: Record<string, unknown> = {}): string {
  return compileTemplate(template, options).render(variables, { identity: null });
}

describe('java.lang.String methods', () => {
  it.each([
    // An empty target puts the replacement around every UTF-16 unit.
    ['$s.replace($a, $b)', { s: 'ab', a: '', b: '-' }, '-a-b-'],
    // compareToIgnoreCase: per character, not per case-mapped string (ß does not become SS)…
    ['$s.compareToIgnoreCase($a)', { s: 'Aßë', a: '' }, '3'],
    // …by UTF-16 unit when either string is Latin-1, by code point when both are not.
    ['$s.compareToIgnoreCase($a)', { s: '𝔸x', a: 'x' }, '55229'],
    ['$s.compareToIgnoreCase($a)', { s: '𝔸Ω', a: 'xΩ' }, '120000'],
    ['$s.equalsIgnoreCase($a)', { s: 'ǅ', a: 'ǆ' }, 'true'],
    // strip and isBlank use Character.isWhitespace: no-break spaces are not white space.
    ['[$s.strip()]', { s: ' x\u00a0' }, '[x\u00a0]'],
    ['$s.isBlank() $a.isBlank()', { s: '\u2002', a: '\u00a0' }, 'true false'],
  ])('%s with %j → %j', (template, vars, expected) => {
    expect(render(template, vars)).toBe(expected);
  });
});

describe('numbers (MathUtils over Integer, Long and BigInteger)', () => {
  it.each([
    // Literals with an exponent are Doubles.
    ['#set($e = 1e3)$e', '1000.0'],
    ['#set($e = 1.5E-3 * 2)$e', '0.003'],
    ['#set($e = -2.5e10)$e', '-2.5E10'],
    // Negative literals beyond 2^53 keep every digit.
    ['#set($r = -9223372036854775808 + 0)$r', '-9223372036854775808'],
    ['#set($r = -9223372036854775808 % 14)$r', '-8'],
    // lmul/ldiv: Long.MIN_VALUE times or over -1 wraps (MathUtils's overflow test misses it)…
    ['#set($r = -9223372036854775808 * -1)$r', '-9223372036854775808'],
    ['#set($r = -9223372036854775808 / -1)$r', '-9223372036854775808'],
    // …but not the other way round.
    ['#set($r = -1 * -9223372036854775808)$r', '9223372036854775808'],
    // BigInteger.mod: never negative.
    ['#set($r = -99999999999999999999 % 7)$r', '6'],
  ])('%s → %s', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it('a BigInteger modulo a negative number is an ArithmeticException', () => {
    expect(() => render('#set($r = 99999999999999999999 % -3)$r')).toThrow(/Error rendering template/);
  });
});

describe('whitespace as Velocity 1.7 gobbles it', () => {
  it.each([
    // A directive eats the blanks and the line break (\n, \r\n or \r) that end its line.
    ['#set($x = 1)\n\n#set($y = 2)\r\nq', '\nq'],
    ['#if(true)y#end\rq', 'yq'],
    ['#foreach($i in [1])$i#end  \nq', '1q'],
    // #set eats the blanks before it where they start a token…
    ['  #set($x = 1)x', 'x'],
    ['$a  #set($x = 1)q', 'Aq'],
    ['#if(true)#end  #set($x = 1)q', 'q'],
    ['## c\n  #set($x = 1)q', 'q'],
    ['  #set($x = 1)  #set($y = 2)\nq', 'q'],
    // …but not when they end a run of text.
    ['a  #set($x = 1)b', 'a  b'],
    ['a\n  #set($x = 1)\nb', 'a\n  b'],
    // Other directives keep the indentation before them.
    ['a\n  #if(true)\n  y\n  #end\n  b', 'a\n    y\n    b'],
    ['  #* c *#\nz', '  \nz'],
  ])('%j → %j', (template, expected) => {
    expect(render(template, { a: 'A' })).toBe(expected);
  });
});

describe('comments and a trailing #', () => {
  it.each([
    ['-$a.replace("a", "o")#*\nmulti\n*#\n\n#set($a = 1 + 2)', '-A\n\n'],
    ['$a#* c *#y', 'Ay'],
    ['a#**#b', 'ab'],
    ['#* c *#\n#set($x = 1)\nq', '\nq'],
    ['#[[ #* ]]# $a', ' #*  A'],
  ])('%j → %j', (template, expected) => {
    expect(render(template, { a: 'A' })).toBe(expected);
  });

  it('a `#` that ends the template is a syntax error, as Velocity 1.7 lexes it', () => {
    expect(() => render('price: 5$ #')).toThrow(/does not parse/);
  });

  it('<, >, <=, >= compare numbers only (1.7 fails on strings)', () => {
    expect(() => render('#if($a > "b")y#end', { a: 'c' })).toThrow(/Error rendering template/);
  });
});

describe('a # right after a reference', () => {
  it.each([
    ['$m#[[raw $a]]#', '{}raw $a'],
    ['$l.isEmpty()#1.', 'true#1.'],
    ['$a.length()#x', '1#x'],
  ])('%j → %j', (template, expected) => {
    expect(render(template, { a: 'A', m: {}, l: [] })).toBe(expected);
  });
});
