// Velocity syntax errors in VTL's words, at the line and column of the template as written:
// what is open and never closed is named where it opened; anything else says what was
// encountered and what Velocity expects there. Never the parser's bare "Parse error on line 1".

import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../../src/runtime/velocity/index.js';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';
import { TransformsError } from '../../../src/errors/index.js';

const options = { maxLength: 10_000, regex: compileJavaRegex };

function syntaxError(source: string): { message: string; details: unknown } {
  try {
    compileTemplate(source, options);
  } catch (error) {
    if (error instanceof TransformsError && error.code === 'TEMPLATE_SYNTAX') return { message: error.message, details: error.details };
    throw error;
  }
  throw new Error(`${JSON.stringify(source)} compiled`);
}

describe('TEMPLATE_SYNTAX messages', () => {
  it.each([
    // An unclosed ${ (Velocity 1.7: Encountered "<EOF>" … Was expecting one of: "[" … "}")
    ['Hello ${name', '${name has no closing }', 1, 7],
    ['line one\nline two $!{user.name', '$!{user.name has no closing }', 2, 10],
    ['#[[${]]# then ${b', '${b has no closing }', 1, 15],
    // A missing ) (Velocity 1.7: Encountered "}" … Was expecting one of: "," … ")")
    ['Hello ${name.substring(0, 1}', "the method call's ( has no closing )", 1, 23],
    ['#if($a == "x"', '#if( has no closing )', 1, 1],
    ['a\n#set($b = $a.trim()', '#set( has no closing )', 2, 1],
    // Blocks: #end with no block, #else outside #if, a block with no #end
    ['a\n#end', '#end without an open block', 2, 1],
    ['#else b', '#else outside #if', 1, 1],
    ['x #elseif($a) y', '#elseif outside #if', 1, 3],
    ['#foreach($x in $list)', '#foreach has no #end', 1, 1],
    // Anything else: what was encountered, and what was expected there
    ['#set($a = )', 'Encountered ")"; was expecting one of "(", a $reference, "{", true or false, "[", a number or a string', 1, 11],
    ['x $a.b(1 2)', 'Encountered "2"; was expecting one of ")", "," or an operator', 1, 10],
    ['#foreach($x in $y z)#end', 'Encountered "z"; was expecting ")"', 1, 19],
    ['a ${a.b  c}', 'Encountered a space; was expecting one of "}", "." or "["', 1, 8],
  ])('%j: %s at %i:%i', (source, message, line, column) => {
    const e = syntaxError(source);
    expect(e.message).toBe(`Template does not parse: ${message} (line ${line}, column ${column})`);
    expect(e.details).toEqual({ line, column });
  });

  it('never says only "Parse error on line"', () => {
    for (const source of ['$!{a.b', '#if(', '#foreach($x in $y', '${a.b(1,', '#set($a = [1, 2)', '#set($m = {"a": 1)', 'a ${b} ${c']) {
      expect(syntaxError(source).message).not.toMatch(/Parse error/);
    }
  });
});
