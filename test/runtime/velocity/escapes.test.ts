// What Velocity 1.7 (strict references) renders for text right after a reference that
// velocityjs would read as more of it (src/runtime/velocity/escapes.ts); every row was checked
// against the real library (Debian's velocity.jar, the differential suite's oracle).

import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../../src/runtime/velocity/index.js';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';

const options = { maxLength: 10_000, regex: compileJavaRegex };
const vars = { a: 'Ann', l: ['p', 'q'], m: { k: 'v' } };

function render(template: string): string {
  return compileTemplate(template, options).render(vars, { identity: null });
}

describe('a ( right after a call or an index is text', () => {
  it.each([
    ['$a.charAt(0)(x)', 'A(x)'],
    ['$a.charAt(0)( x)', 'A( x)'],
    ['$a.charAt(0)(x', 'A(x'],
    ['$a.charAt(0)()', 'A()'],
    ['$a.charAt(0)($a)', 'A(Ann)'],
    ['$a.charAt(0)($a.charAt(0))', 'A(A)'],
    ['$a.length()(x)(y)', '3(x)(y)'],
    ['$l[0](x)', 'p(x)'],
    ['$l[0](x', 'p(x'],
    ['$l.get(0)(x)[0]', 'p(x)[0]'],
    ['$a.charAt(0)(x)#if(true)y#end', 'A(x)y'],
    ['#if(true)$a.charAt(0)(x)#end', 'A(x)'],
    ['#if(false)$a.charAt(0)(x)#end', ''],
    ['#foreach($i in [1])$m.get("k")(x)#end', 'v(x)'],
    // `.` and `[` after the text are text too.
    ['$a.charAt(0)(x).y', 'A(x).y'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it('is text in an interpolated string too, after a call or a plain reference', () => {
    expect(render('#set($z = "$a.charAt(0)(x)")$z')).toBe('A(x)');
    expect(render('#set($z = "$l[0]( x")$z')).toBe('p( x');
    expect(render('#set($z = "$a(x)")$z')).toBe('Ann(x)');
    expect(render('#set($z = "$!a($a")$z')).toBe('Ann(Ann');
    expect(render('#macro(f $p)$p#end#f("$m.get(\'k\')(1)(2)")')).toBe('v(1)(2)');
    expect(render('$a.concat("$a(x)")')).toBe('AnnAnn(x)');
    // Nor is a word right after a raw block a directive whose `(` opens arguments.
    expect(render('#1x($a($a) \nx')).toBe('#1x(Ann(Ann) \nx');
    expect(render('#[[r]]#x($a(1))')).toBe('rx(Ann(1))');
    // A call's `(` that the string ends before does not parse there (at the top level it is text).
    for (const template of ['#set($t = "$m.k(")$t', '#set($t = "x $m.k( ")$t', '#if(false)#set($t = "$m.k(")#end', '$a.concat("$m.k(")']) {
      expect(() => render(template)).toThrow(expect.objectContaining({ code: 'TEMPLATE_SYNTAX' }));
    }
    expect(render('$m.k(')).toBe('v(');
    // Not in a single-quoted one, which is not interpolated.
    expect(render("#set($z = '$a(x)')$z")).toBe('$a(x)');
  });
});

describe("a ( after a property and a plain reference reads on as arguments", () => {
  // `$m.k$a(` then a `#`: 1.7 reads on in the call's arguments, where blanks are no text.
  it.each([['#if(true)$m.k$a(#end x'], ['$m.k$a(#if(true)#end x'], ['#foreach($i in $m)$m.k$i(#end \n #']])('%j does not parse: TEMPLATE_SYNTAX', (template) => {
    expect(() => render(template)).toThrow(expect.objectContaining({ code: 'TEMPLATE_SYNTAX' }));
  });
  it.each([['#if(true)$m.k$a(#end', 'vAnn('], ['$m.k$a(#if(true)#end', 'vAnn('], ['#if(true)$a(#end x', 'Ann( x']])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});

describe("a $ that vanishes into a directive right after a property's (", () => {
  // 1.7 reads `$m.k($#end` as `$m.k(#end`: the call's arguments read on to the #end.
  it.each([
    ['#if(true)$m.k($#end', 'v('],
    ['#if(false)$m.k($#end', ''],
    ['#if(true)$m.k($!#end', 'v('],
    ['#if(true)$m.k($$#end', 'v('],
    ['$m.k($#set($x = 1)', 'v('],
    ['$m.k($#if(true)x#end', 'v(x'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it.each([['$m.k($#end'], ['#if(true)$m.k($#end x'], ['$m.k($#set($x = 1))']])('%j does not parse: TEMPLATE_SYNTAX', (template) => {
    expect(() => render(template)).toThrow(expect.objectContaining({ code: 'TEMPLATE_SYNTAX' }));
  });
});

describe('text that starts like a directive in an interpolated string', () => {
  // As at the top level: `#1`, `#@` name no directive and stay text, after a reference too.
  it.each([
    ['#set($t = "$a#1 ")$t', 'Ann#1 '],
    ['#set($t = "$a#1$ ")$t', 'Ann#1$ '],
    ['#set($t = "$a.toUpperCase()#1a b")$t', 'ANN#1a b'],
    ['#set($t = "$a#@x")$t', 'Ann#@x'],
    ['#set($t = "$a#")$t', 'Ann#'],
    ['#set($t = "${a}#1")$t', 'Ann#1'],
    ['#set($t = "$a.length()#")$t', '3#'],
    ['#set($t = "$a#if(true)y#end")$t', 'Anny'],
    // After a word right after a call or an index as well.
    ['#set($t = "$a.length()x#1")$t', '3x#1'],
    ['#set($t = "$l[0]ab#@")$t', 'pab#@'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it('fails when it runs, not when it is compiled, when the reference is not set', () => {
    expect(() => render('#set($t = "$u#1 ")$t')).toThrow(expect.objectContaining({ code: 'TEMPLATE_RENDER' }));
  });
});

describe('a comma before an argument of #macro or #foreach', () => {
  it.each([
    ['#macro(test2 $p, $q,$r)[$p$q$r]#end#test2(1 2 3)', '[123]'],
    ['#macro(,bar $p)[$p]#end#bar(1)', '[1]'],
    ['#macro(bar,$p)[$p]#end#bar(1)', '[1]'],
    ['#macro( , bar $p , $q)[$p$q]#end#bar(1 2)', '[12]'],
    ['#foreach(, $i in [1])$i#end', '1'],
    ['#foreach($i, in, [1, 2])$i#end', '12'],
    ['#foreach($i in ["a,b", "c"])$i#end', 'a,bc'],
    ['#if(false)#macro(bar,$p)[$p]#end#end', ''],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it.each([['#macro(bar $p,)[$p]#end'], ['#macro(bar $p,,$q)[$p]#end'], ['#foreach($i in [1, 2],)$i#end']])('%j does not parse: TEMPLATE_SYNTAX', (template) => {
    expect(() => render(template)).toThrow(expect.objectContaining({ code: 'TEMPLATE_SYNTAX' }));
  });
});

describe('an escaped reference is its text, never evaluated (known difference V18)', () => {
  // 1.7 in strict mode evaluates it and fails where the reference would; we render the text.
  it.each([
    ['\\$a.charAt(0)[0]', '$a.charAt(0)[0]'],
    ['\\$a.x', '$a.x'],
    ['#set($t = "\\$a.x")$t', '$a.x'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});

describe('a block comment after a property, and a $ right before one', () => {
  const props = { a: 'Ann', m: { k: 'v' } };
  const renderWith = (template: string) => compileTemplate(template, options).render(props, { identity: null });
  // A block comment is no `$`: after a property it leaves #else( and #end( the directive, then text.
  it.each([
    ['#if(true)$m.k#* c *##else(  #foreach($i in [1]).$i#end#end', 'v'],
    ['#if(true)$m.k#* c *##else(x)#end', 'v'],
    ['#if(true)$m.k#* c *##end(x)', 'v(x)'],
    // A `$` (`$!`, `$$`, `\$`) right before a block comment that is not empty vanishes.
    ['a$#* c *#x', 'ax'],
    ['a$!#* c *#x', 'ax'],
    ['a\\$#* c *#x', 'ax'],
    ['a$#*\nc\n*#x', 'ax'],
    ['$a$#* c *#x', 'Annx'],
    ['#if(true)$m.k$#* c *##end x', 'v x'],
    ['a$#**#x', 'a$x'],
  ])('%j renders %j', (template, expected) => {
    expect(renderWith(template)).toBe(expected);
  });

  it.each([['#if(true)$m.k$#* c *##end(x)'], ['#if(true)$m.k$#* c *##else(x)#end']])('%j does not parse: TEMPLATE_SYNTAX', (template) => {
    expect(() => renderWith(template)).toThrow(expect.objectContaining({ code: 'TEMPLATE_SYNTAX' }));
  });
});

describe('a $! that starts no reference renders $', () => {
  // 1.7's lexer drops the `!` (but keeps a `$!` before a reference, or one that ends the template).
  it.each([
    ['a$!)', 'a$)'],
    ['a$! b', 'a$ b'],
    ['a$!1', 'a$1'],
    ['a$!!', 'a$!'],
    ['a$$!)', 'a$$)'],
    ['US$! ', 'US$ '],
    ['a$!$a', 'a$!Ann'],
    ['a$!{}', 'a$!{}'],
    // Before a `#` that starts no token, and a backslash that escapes nothing.
    ['a$!# x', 'a$# x'],
    ['a$!#x', 'a$!#x'],
    ['a$!\\x', 'a$\\x'],
    ['a\\$!)', 'a\\$)'],
    ['US$!', 'US$!'],
    // In an interpolated string as in text (its end counts as a blank there), not in a single-quoted one.
    ['#set($x = "a$!)")$x', 'a$)'],
    ['#set($x = "a$!")$x', 'a$'],
    ['#set($x = "a$$!)")$x', 'a$$)'],
    ['#set($x = "a$!$a")$x', 'a$!Ann'],
    ['#set($x = "a\\$!)")$x', 'a\\$)'],
    ["#set($x = 'a$!)')$x", 'a$!)'],
    ['$a.concat("$!)")', 'Ann$)'],
    ['#macro(f $p)$p#end#f("$!)")', '$)'],
    ['#if("a$!)" == "a$)")T#{else}F#end', 'T'],
    // So is a `${` or `$!{` that opens no reference.
    ['#set($x = "$!{)")$x', '$!{)'],
    ['#set($x = "a${")$x', 'a${'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});

describe('a number right after #$ is one token with them', () => {
  // As `#1` is: a #set after it eats the blanks before it.
  it.each([
    ['#$1  #set($x = 1)y', '#$1y'],
    ['#$-1.5 #set($x = 1)y', '#$-1.5y'],
    ['#$1x  #set($x = 1)y', '#$1x  y'],
    ['#$1  x', '#$1  x'],
    // Backslashes between them belong to 1.7's `$` token.
    ['#\\$1  #set($x = 1)y', '#\\$1y'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});

describe('backslashes between a # and a reference leave the state #$a leaves', () => {
  // The CI seed's one divergence in 100,000 cases: 1.7's `$` token takes the backslashes before
  // it, so `#\$a` is `#` right before a reference.
  it.each([
    [' \n#set($e = $n) \n#if(true)#break #\\$a#elseif(true >= 1)#else \n#set($b = [])\r\n#end \n\n#set($l = $n) \n'],
    ['#if(true)#\\$a#else\n#set($b = 1)\n#end'],
    ['#if(true)#\\$a#end\n#set($b = 1)'],
    ['#\\${a}#set($b = 1)x'],
    ['#\\\\${a}#set($b = 1)x'],
  ])('%j does not parse (TEMPLATE_SYNTAX)', (template) => {
    expect(() => compileTemplate(template, options)).toThrow(expect.objectContaining({ code: 'TEMPLATE_SYNTAX' }));
  });

  it.each([
    ['#\\$a#set($b = 1)x', '#\\Annx'],
    ['x#\\$a y', 'x#\\Ann y'],
    ['x#\\\\$a y', 'x#\\\\Ann y'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});

describe('prefixes glued to a raw block are part of its token', () => {
  // 1.7's lexer reads `$`s (`$!`, backslashes before them) and `#`s right before `#[[` into the
  // raw block's token, and ASTTextblock cuts the token's first three characters, not the `#[[`.
  it.each([
    ['a$#[[x]]#b', 'a[xb'],
    ['a$!#[[x]]#b', 'a[[xb'],
    ['a$$#[[x]]#b', 'a[[xb'],
    ['a#$#[[xy]]#b', 'a[[xyb'],
    ['a$$$#[[xyz]]#b', 'a#[[xyzb'],
    ['a\\$#[[x]]#b', 'a[[xb'],
    ['a\\\\$#[[x]]#b', 'a#[[xb'],
    ['a$\\!#[[xyz]]#b', 'a#[[xyzb'],
    ['a$#[[]]#b', 'a[b'],
    ['a$#[[x\ny]]#b', 'a[x\nyb'],
    ['#if(true)$#[[xyz]]##end', '[xyz'],
    ['$m.k$#[[xyz]]#b', 'v[xyzb'],
    ['a$#[[x]]# #set($y = 1)b', 'a[xb'],
    ['#set($x = "$#[[xyz]]#")$x', '[xyz'],
    // Not a `$` with a blank after it, nor a reference.
    ['a$ #[[xyz]]#b', 'a$ xyzb'],
    ['a$a#[[xy]]#b', 'aAnnxyb'],
    // An empty raw block alone renders nothing.
    ['a#[[]]#b', 'ab'],
    ['#if(true)#[[]]#\nb#end', '\nb'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it('positions after a multi-line prefixed block still map to the source', () => {
    expect(() => render('a$#[[x\ny]]#$u')).toThrow(expect.objectContaining({ code: 'TEMPLATE_RENDER', details: expect.objectContaining({ line: 2, column: 5 }) }));
    expect(() => render('a$#[[x]]#$u')).toThrow(expect.objectContaining({ code: 'TEMPLATE_RENDER', details: expect.objectContaining({ line: 1, column: 10 }) }));
  });
});

describe('a raw block in an interpolated string', () => {
  it.each([
    ['#set($x = "#[[r]]#b")$x', 'rb'],
    ['$a.concat("#[[r]]#b")', 'Annrb'],
    ['#set($x = "a#[[r]]# b$a")$x', 'ar bAnn'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});

describe('lexer corners the widened generator found', () => {
  it.each([
    // A `$!` before a `.` and a letter vanishes whole; before `#$` it stays.
    ['a$!.a b', 'a.a b'],
    ['#set($x = "a$!.b")$x', 'a.b'],
    ['a$!. b', 'a$. b'],
    ['a$!#$a', 'a$!#Ann'],
    // A `$!#` before a #set's blanks vanishes into it.
    ['x$!# #set($e = 1)y', 'xy'],
    // A `$` before an escaped directive vanishes, and so does a lone `#`.
    ['a$\\#end', 'a#end'],
    ['a$!\\#end', 'a#end'],
    ['#\\#set($a = 1)x', '#set(Ann = 1)x'],
    ['#\\#end x', '#end x'],
    ['#\\#foo x', '\\#foo x'],
    // An escaped directive is one token: the blanks after it start a #set's.
    ['$a\n\\#end\t#set($m = 1)\n', 'Ann\n#end'],
    // A raw block or an escape right after a reference in an interpolated string.
    ['#set($x = "$a.length()\\#é")$x', '3\\#é'],
    ['#set($x = "$a#[[r]]#")$x', 'Annr'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it('an escaped #end after a lone # leaves its block open', () => {
    expect(() => render('#foreach($i in $l)x#\\#end')).toThrow(expect.objectContaining({ code: 'TEMPLATE_SYNTAX' }));
  });
});

describe('more prefix corners the widened generator found', () => {
  it.each([
    // `$!` before `$`s that start no reference loses its `!` too.
    ['a$!$!"', 'a$$"'],
    ['a$!$ ', 'a$$ '],
    // `$#break` is one token of text: it breaks nothing.
    ['#foreach($i in $l)$#break$a#end', '$#breakAnn$#breakAnn'],
    ['#foreach($i in $l)$!#break x#end', '$!#break x$!#break x'],
    // Prefixes before a non-empty block comment vanish, whatever they start with.
    ['$#$#* c *#x', 'x'],
    ['#$#* c *#x', 'x'],
    // Before an escaped directive they vanish too, and a `#` before a #set's blanks after a backslash.
    ['$#\\#if(true)#set($a = 2.5)  ', '#if(true)  '],
    ['\\#  #set($b = 1)x', '\\x'],
    // A word with `@` is no directive: a `$!` before it stays.
    ['a$!#else@', 'a$!#else@'],
    // `(` right after a call whose arguments hold a call is text.
    ['$a.replace($a.charAt(0), $a.charAt(1))(x)', 'nnn(x)'],
    ['$a.concat($a.concat("y"))(x)', 'AnnAnny(x)'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });

  it('$true and $false name no reference (TEMPLATE_SYNTAX), in a branch that never runs too', () => {
    for (const template of ['x$true y', 'x$!false', '#if(false)${true}#end', '#set($x = "$true")']) {
      expect(() => compileTemplate(template, options)).toThrow(expect.objectContaining({ code: 'TEMPLATE_SYNTAX' }));
    }
  });
});

describe('an escaped reference or word is one token', () => {
  it.each([
    // With its path: a reference among its call's arguments is text too.
    ['\\$a.charAt(0).compareTo($a.charAt(0))', '$a.charAt(0).compareTo($a.charAt(0))'],
    ['\\$a.concat($a) x', '$a.concat($a) x'],
    ['\\$a.length() #set($x = 1)y', '$a.length()y'],
    // A word that names no directive keeps its backslash (`#end1` is no #end).
    ['\\#end1  x', '\\#end1  x'],
    ['x\\#endHi y', 'x\\#endHi y'],
    // Right after a `$` or `$!`, backslashes belong to the reference's `$` token: all stay.
    ['x$\\$a', 'x$\\Ann'],
    ['$$\\\\$a', '$$\\\\Ann'],
    ['x$!\\$a', 'x$!\\Ann'],
    ['#set($x = "$\\$a")$x', '$\\Ann'],
  ])('%j renders %j', (template, expected) => {
    expect(render(template)).toBe(expected);
  });
});
