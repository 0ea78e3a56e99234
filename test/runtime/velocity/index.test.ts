// VTL as the platform renders it (https://developer.sailpoint.com/docs/extensibility/transforms/;
// https://developer.sailpoint.com/docs/extensibility/transforms/operations/static): directives, Java String methods,
// Velocity/Java arithmetic, strict references, and what compileTemplate reports.

import { describe, expect, it } from 'vitest';
import { compileTemplate, needsTemplate, type TemplateGlobals } from '../../../src/runtime/velocity/index.js';
import { compileJavaRegex } from '../../../src/runtime/regex/index.js';
import { TransformsError } from '../../../src/errors/index.js';

const options = { maxLength: 10_000, regex: compileJavaRegex };
const noIdentity: TemplateGlobals = { identity: null };

function render(template: string, variables: Record<string, unknown> = {}, globals: TemplateGlobals = noIdentity): string {
  return compileTemplate(template, options).render(variables, globals);
}

function failure(f: () => unknown): TransformsError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TransformsError);
    return e as TransformsError;
  }
  throw new Error('expected a TransformsError');
}

describe('needsTemplate: every string containing $ or # goes through Velocity (the transforms overview)', () => {
  it.each([
    ['plain', false],
    ['$a', true],
    ['a#b', true],
    ['cost: 5$', true],
    ['', false],
  ])('%j → %s', (text, expected) => expect(needsTemplate(text)).toBe(expected));
});

describe('documented static templates (the static operation page)', () => {
  it.each([
    ['$firstName.$lastName', { firstName: 'John', lastName: 'Doe' }, 'John.Doe'],
    ['$workerType', { workerType: 'Employee' }, 'Employee'],
    ["#if($workerType=='Employee')Full-Time#{else}Contingent#end", { workerType: 'Employee' }, 'Full-Time'],
    ["#if($workerType=='Employee')Full-Time#{else}Contingent#end", { workerType: 'Contractor' }, 'Contingent'],
    [
      '$firstInitialLowercase$lastInitialUppercase$endOfLastName$hireDateMonth$staticString',
      { firstInitialLowercase: 'l', lastInitialUppercase: 'H', endOfLastName: 'amilton', hireDateMonth: '12', staticString: 'RstP*!7' },
      'lHamilton12RstP*!7',
    ],
    [
      '$firstInitialLowercase$lastInitialUppercase$endOfLastName$hireDateMonth$staticString',
      { firstInitialLowercase: 'p', lastInitialUppercase: 'L', endOfLastName: 'owe', hireDateMonth: '09', staticString: 'RstP*!7' },
      'pLowe09RstP*!7',
    ],
    ['$displayName@yourdomain.com', { displayName: 'john.doe' }, 'john.doe@yourdomain.com'],
  ])('%s with %j → %j', (template, variables, expected) => {
    expect(render(template, variables)).toBe(expected);
  });

  const lifecycle =
    "#if($inPast=='false' && $Within7Days == 'true')inactivePendingTermination#elseif($inPast == 'false' && $Within25Days == 'true')activePendingTermination#elseif($inPast == 'false')active#{else}terminated#end";
  it.each([
    ['2023-11-01', 'true', 'true', 'true', 'terminated'],
    ['2023-11-09', 'false', 'true', 'true', 'inactivePendingTermination'],
    ['2023-11-25', 'false', 'false', 'true', 'activePendingTermination'],
    ['2023-12-25', 'false', 'false', 'false', 'active'],
  ])('lifecycle guide, end date %s (now 2023-11-07) → %s', (_end, inPast, Within7Days, Within25Days, expected) => {
    expect(render(lifecycle, { inPast, Within7Days, Within25Days })).toBe(expected);
  });
});

describe('directives', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['#if($a == "x")1#elseif($a == "y")2#else\n3#end', { a: 'y' }, '2'],
    ['#if($a == "x")\n1\n#else\n3\n#end\n!', { a: 'y' }, '3\n!'], // a directive eats the newline ending its line
    ['#if($a == "x")1#elseif($a == "y")2#{else}3#{end}', { a: 'z' }, '3'],
    ['#if($a != "x" && $a != "y")n#end', { a: 'z' }, 'n'],
    ['#if($a == "x" || !($a == "z"))y#{else}n#end', { a: 'z' }, 'n'],
    ['#foreach($p in $s.split(","))[$foreach.index:$foreach.count:$foreach.hasNext:$p]#end', { s: 'a,b' }, '[0:1:true:a][1:2:false:b]'],
    ['#foreach($i in [1..3])$i#if($foreach.hasNext),#end#end', {}, '1,2,3'],
    ['#foreach($i in [3..1])$i#end', {}, '321'],
    ['#foreach($i in [1..9])#if($i == 3)#break#end$i#end', {}, '12'],
    ['#foreach($i in ["a", "b"])$velocityCount#end', {}, '12'],
    ['#foreach($x in ["a","b"])#foreach($y in [1..2])$foreach.parent.index$foreach.index #end#end', {}, '00 01 10 11 '],
    ['#set($a = "v")$a', {}, 'v'],
    ['#set($a = $s.toUpperCase())${a}!', { s: 'x' }, 'X!'],
    ['#set($m = {"k": "v"})$m.k $m.get("k") $m["k"]', {}, 'v v v'],
    ['#set($m = {})#set($m.k = 1)$m', {}, '{k=1}'],
    ['#set($l = ["a", 1, true])$l $l.size() $l[0] $l.get(1) $l[-1]', {}, '[a, 1, true] 3 a 1 true'],
    ['#set($l = [])#set($ok = $l.add("x"))$l', {}, '[x]'],
    ['#macro(greet $who)Hello $who!#end#greet("Ann")', {}, 'Hello Ann!'],
    ['a ## line comment\nb #* block *#c', {}, 'a b c'],
    ['#[[$not #parsed]]#', {}, '$not #parsed'],
    ['"x$s" and \'y$s\'', { s: '1' }, '"x1" and \'y1\''],
    ['#set($q = "interp $s.length()")$q', { s: 'abc' }, 'interp 3'],
    ['#set($q = \'raw $s\')$q', { s: 'abc' }, 'raw $s'],
    ['price: 5$ # off', {}, 'price: 5$ # off'], // a `#` that ends the template is a syntax error (velocity-java.test.ts)
  ])('%j with %j → %j', (template, variables, expected) => {
    expect(render(template, variables)).toBe(expected);
  });

  it('#set with a null right-hand side stores the null (Velocity 1.7, strict references)', () => {
    const id = { identity: { id: '1', name: 'a', attributes: {} }, accounts: [], sources: new Map(), manager: null };
    expect(render('#set($m = "before")#set($m = $identity.getManager())[$!m]', {}, { identity: id })).toBe('[]');
    expect(failure(() => render('#set($m = "before")#set($m = $identity.getManager())$m', {}, { identity: id })).code).toBe('TEMPLATE_RENDER');
    expect(render('#set($m = "before")#set($m = $identity.getManager())#if($m)y#{else}n#end', {}, { identity: id })).toBe('n');
  });

  it('#set with a null right-hand side leaves the variable as it was with lenient references (Velocity 1.7)', () => {
    const t = compileTemplate('#set($m = "before")#set($m = $x.absent)$m', { ...options, references: 'lenient' });
    expect(t.render({ x: {} }, noIdentity)).toBe('before');
  });
});

describe('a hyphen ends a reference name (Velocity 2)', () => {
  it.each([
    ['$first-$last', 'Ann-Lee'],
    ['$first-', 'Ann-'],
    ['$first-x', 'Ann-x'],
    ['$m.k-x.y', 'K-x.y'],
    ['${first}-${last}', 'Ann-Lee'],
    ['#set($x = $n-1)$x', '4'],
    ['#if($n-1 > 3)yes#end', 'yes'],
  ])('%s → %s', (template, expected) => {
    expect(render(template, { first: 'Ann', last: 'Lee', n: 5, m: { k: 'K' } })).toBe(expected);
  });

  it('a hyphenated name inside an expression is a syntax error', () => {
    expect(failure(() => compileTemplate('#if($a-b)x#end', options)).code).toBe('TEMPLATE_SYNTAX');
  });
});

describe('backslash escapes: Velocity keeps a backslash unless it escapes a reference or directive', () => {
  it.each<[string, string, boolean]>([
    ['\\$5', '\\$5', true], // a Java replacement's literal dollar reaches Java intact
    ['\\$\\{name\\}', '\\$\\{name\\}', true], // a regex for the literal text ${name}
    ['price \\$ only', 'price \\$ only', true],
    ['\\#1', '\\#1', true],
    // Before a word that names no directive, every backslash of the run stays (as in 1.7).
    ['\\\\#b', '\\\\#b', true],
    ['\\\\\\#b c', '\\\\\\#b c', true],
    ['x\\\\#{b}', 'x\\\\#{b}', true],
    ['C:\\dir\\file', 'C:\\dir\\file', true],
    ['\\$name', '$name', false],
    ['\\${group}', '${group}', false], // how a Java named-group replacement survives Velocity
    ['\\\\$name', '\\N', false],
    ['\\\\\\$name', '\\$name', false],
    ['\\#if(true)', '#if(true)', false],
    ['#set($r = "\\$")$r', '\\$', false],
    ["#set($r = '\\$')$r", '\\$', false],
    ['$s.replaceAll("\\$", "")', 'a.b', false],
    ['$s.replaceAll("\\.", "\\$")', 'a$$b', false],
  ])('%s → %s (constant: %s)', (template, expected, constant) => {
    const t = compileTemplate(template, options);
    expect(t.isConstant).toBe(constant);
    expect(t.render({ name: 'N', s: 'a.$b' }, noIdentity)).toBe(expected);
  });
});

describe('Java String methods', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['$s.length()', { s: 'héllo' }, '5'],
    ['$s.length()', { s: '😀' }, '2'], // UTF-16 units, as Java
    ['$s.equals("ab") $s.equals("AB")', { s: 'ab' }, 'true false'],
    ['$s.equalsIgnoreCase("AB")', { s: 'ab' }, 'true'],
    ['$s.isEmpty() $e.isEmpty()', { s: 'a', e: ' ' }, 'false false'],
    ['$s.contains("ll")', { s: 'hello' }, 'true'],
    ['$s.matches("[a-z]+") $s.matches("l+")', { s: 'hello' }, 'true false'],
    ['$s.replaceAll("l+", "L")', { s: 'hello world' }, 'heLo worLd'],
    ['$s.replaceAll("(\\w+)@(\\w+)", "$2:$1")', { s: 'joe@corp' }, 'corp:joe'],
    ['$s.replaceFirst("o", "0")', { s: 'foo' }, 'f0o'],
    ['$s.replace(".", "-")', { s: 'a.b.c' }, 'a-b-c'],
    ['$s.split("\\.").size() $s.split("\\.")[2]', { s: 'a.b.c' }, '3 c'],
    ['$s.split(",", -1).size()', { s: 'a,,' }, '3'],
    ['$s.substring(1) $s.substring(1, 3)', { s: 'hello' }, 'ello el'],
    ['$s.indexOf("l") $s.indexOf("l", 3) $s.indexOf("z") $s.lastIndexOf("l")', { s: 'hello' }, '2 3 -1 3'],
    ['$s.toUpperCase() $s.toLowerCase()', { s: 'Straße' }, 'STRASSE straße'],
    ['[$s.trim()]', { s: '\t a b \n' }, '[a b]'],
    ['[$s.trim()]', { s: '\u00A0a\u00A0' }, '[\u00A0a\u00A0]'], // Java trim keeps NBSP
    ['$s.charAt(1)', { s: 'abc' }, 'b'],
    ['#if($s.charAt(0) == "a")yes#end', { s: 'abc' }, 'yes'],
    ['$s.startsWith("ab") $s.endsWith("bc") $s.startsWith("c", 2)', { s: 'abc' }, 'true true true'],
    ['$s.concat("d")', { s: 'abc' }, 'abcd'],
    ['$s.compareTo("b")', { s: 'a' }, '-1'],
    ['$s.hashCode()', { s: 'hello world' }, '1794106052'],
    ['$s.substring(0, $n)', { s: 'hello', n: '2' }, 'he'], // numeric strings convert to int (Velocity 2)
    ['$s.empty', { s: '' }, 'true'], // property style resolves isEmpty()
  ])('%s with %j → %j', (template, variables, expected) => {
    expect(render(template, variables)).toBe(expected);
  });

  it.each<[string, Record<string, unknown>]>([
    ['$s.substring(4)', { s: 'abc' }],
    ['$s.substring(2, 1)', { s: 'abc' }],
    ['$s.charAt(3)', { s: 'abc' }],
    ['$s.concat($nothing)', { s: 'abc' }],
    ['$s.split("(")', { s: 'abc' }],
    ['$s.replaceAll("a", "$")', { s: 'abc' }],
    ['$s.replaceAll("(a)", "$2")', { s: 'abc' }],
    ['$s.matches("(?=a)")', { s: 'abc' }],
    ['$s.noSuchMethod()', { s: 'abc' }],
    ['$s.length(1)', { s: 'abc' }],
  ])('%s fails with TEMPLATE_RENDER ("Error rendering template")', (template, variables) => {
    const e = failure(() => render(template, variables));
    expect(e.code).toBe('TEMPLATE_RENDER');
    expect(e.message).toMatch(/^Error rendering template/);
  });

  it('a regex or replacement error inside a branch that does not run is no error (Java compiles on call)', () => {
    expect(render('#if(false)$s.matches("(")#end ok', { s: 'x' })).toBe(' ok');
    expect(render('#if(false)$s.replaceAll("a", "$")#end ok', { s: 'x' })).toBe(' ok');
  });

  it('regexes can come from variables (compiled on first use, then cached)', () => {
    const t = compileTemplate('$s.replaceAll($re, "")', options);
    expect(t.render({ s: 'a1b22', re: '\\d+' }, noIdentity)).toBe('ab');
    expect(t.render({ s: 'a1b22', re: '[ab]' }, noIdentity)).toBe('122');
    expect(failure(() => t.render({ s: 'x', re: '(' }, noIdentity)).cause).toMatchObject({ code: 'REGEX_SYNTAX' });
  });
});

describe('arithmetic follows Velocity MathUtils over Java numbers', () => {
  it.each([
    ['#set($a = 5 / 2)$a', '2'],
    ['#set($a = -7 / 2)$a', '-3'],
    ['#set($a = -7 % 3)$a', '-1'],
    ['#set($a = 4.5)#set($a = $a + 1)$a', '5.5'],
    ['#set($a = 5.5 * 2)$a', '11.0'],
    ['#set($a = 1.0 / 4)$a', '0.25'],
    ['#set($a = 0.0001 * 1)$a', '1.0E-4'],
    ['#set($a = 10000000.0 * 1)$a', '1.0E7'],
    ['#set($a = 2147483647 + 1)$a', '2147483648'],
    ['#set($a = 100000000000)#set($a = $a + 1)$a', '100000000001'],
    ['#set($a = 9223372036854775807 + 1)$a', '9223372036854775808'],
    ['#set($a = "n=" + 2)$a', 'n=2'],
    ['#set($a = 2 + "px")$a', '2px'],
    ['#if(1 == 1.0)eq#end', 'eq'],
    ['#if("1" == 1)eq#end', 'eq'],
    ['#if(2 > 1 && 1 <= 1 && 1 >= 1 && 0 < 1)ok#end', 'ok'],
    ['#if($x.length() + 1 != 4)ne#end', 'ne'],
  ])('%s → %j', (template, expected) => {
    expect(render(template, { x: 'abcd' })).toBe(expected);
  });

  it('division by zero is null (Velocity 1.7 logs it): rendering it is an error', () => {
    expect(failure(() => render('#set($a = 1 / 0)$a')).code).toBe('TEMPLATE_RENDER');
    expect(render('#set($a = 1 / 0)[$!a]')).toBe('[]');
    expect(render('#set($a = 1.5 % 0)[$!a]')).toBe('[]');
  });
});

describe('#if as Velocity 1.7 evaluates a condition (decision V8; checked against Velocity 1.7)', () => {
  // A reference is false only when null or false; literals and arithmetic are false, unevaluated.
  it.each([
    ['#set($e = "")#if($e)T#{else}F#end', 'T'], // observed on a tenant
    ['#if($e)T#{else}F#end', 'T'],
    ['#if($zero)T#{else}F#end', 'T'],
    ['#if($list)T#{else}F#end', 'T'],
    ['#if($f)T#{else}F#end', 'F'],
    ['#if($e.isEmpty())T#{else}F#end', 'T'],
    ['#if(!$e)T#{else}F#end', 'F'],
    ['#if(($e))T#{else}F#end', 'T'],
    ['#if("x")T#{else}F#end', 'F'],
    ['#if("")T#{else}F#end', 'F'],
    ['#if(1)T#{else}F#end', 'F'],
    ['#if([1])T#{else}F#end', 'F'],
    ['#if(1 + 1)T#{else}F#end', 'F'],
    ['#if($nope + 1)T#{else}F#end', 'F'], // not evaluated: no undefined-reference error
    ['#if(!"x")T#{else}F#end', 'T'],
    ['#if($e || "x")T#{else}F#end', 'T'],
    ['#if(false)A#elseif("y")B#elseif($e)C#end', 'C'],
    ['#set($b = !"x")$b', 'true'],
    ['#set($b = "x" && true)$b', 'false'],
    ['#if("1" == 1)T#{else}F#end', 'T'], // observed on a tenant
  ])('%j → %j', (template, expected) => {
    expect(render(template, { e: '', zero: 0, list: [], f: false })).toBe(expected);
  });
});

describe('null is no VTL literal (decision V5; Velocity 1.7 does not parse it)', () => {
  it.each(['#set($x = null)a$!x b', '#set($x = null)$x', '#if($a == null)x#end', '#set($l = [null])', '#set($m = {"k": null})', '#if(null)x#end'])(
    '%j is TEMPLATE_SYNTAX',
    (template) => {
      expect(failure(() => compileTemplate(template, options)).code).toBe('TEMPLATE_SYNTAX');
    },
  );

  it('except as a method argument, where it is Java\'s null', () => {
    expect(failure(() => render('$s.concat(null)', { s: 'a' })).code).toBe('TEMPLATE_RENDER');
  });
});

describe('strict references: "Error rendering template" (community reports of the platform)', () => {
  it.each([
    ['$missing', 'an undefined variable'],
    ['${missing}', 'an undefined wrapped variable'],
    ['$!missing', 'an undefined quiet reference'],
    ['#if($missing)a#end', 'an undefined variable in #if (community report: it throws)'],
    ['#if(true)#set($x = $missing)#end', 'an undefined variable set inside an #if (1.7 stores null there)'],
    ['#if($missing == "x")a#end', 'an undefined variable in a comparison'],
    ['#foreach($x in $missing)#end', 'an undefined #foreach list'],
    ['$s.foo', 'a property that does not exist'],
    ['#set($m = {})$m.absent', 'a null value rendered'],
    ['#set($m = {})$m.absent.length()', 'a method on null'],
    ['$identity.getName()', '$identity when no identity is loaded'],
  ])('%s (%s)', (template) => {
    const e = failure(() => render(template, { s: 'abc' }));
    expect(e.code).toBe('TEMPLATE_RENDER');
    expect(e.message).toMatch(/^Error rendering template/);
    expect(e.details).toMatchObject({ line: 1 });
  });

  it('$!ref renders nothing for a null value (but not for an undefined reference)', () => {
    expect(render('#set($m = {})[$!m.absent]')).toBe('[]');
  });

  it('the error names the position', () => {
    const e = failure(() => render('ab\n  $nope'));
    expect(e.code).toBe('TEMPLATE_RENDER');
    expect(e.details).toEqual({ line: 2, column: 3 });
  });

  it('a null variable is absent; "" is a value (decision V4, observed on a tenant)', () => {
    expect(failure(() => render('a$!x b', { x: null })).code).toBe('TEMPLATE_RENDER');
    expect(render('a$!x b', { x: '' })).toBe('a b');
  });

  it('lenient references (stock Velocity) render the reference text instead', () => {
    const t = compileTemplate('$missing #if($missing)a#{else}b#end $!missing', { ...options, references: 'lenient' });
    expect(t.render({}, noIdentity)).toBe('$missing b ');
  });
});

describe('compileTemplate', () => {
  it('parses once and reports what the template uses', () => {
    const t = compileTemplate('#if($a)$b.length()#end$identity.getName()', options);
    expect(t.isConstant).toBe(false);
    expect(t.usesIdentity).toBe(true);
    expect([...t.references].sort()).toEqual(['a', 'b', 'identity']);
  });

  it('loop variables and $foreach are not references of the template', () => {
    const t = compileTemplate('#foreach($x in $list)$x$foreach.index#end', options);
    expect([...t.references]).toEqual(['list']);
    expect(t.usesIdentity).toBe(false);
  });

  it('…but the same names outside the loop or macro are', () => {
    const t = compileTemplate('#foreach($x in $list)$x#end$x#macro(m $p)$p#end#m("a")$p', options);
    expect([...t.references].sort()).toEqual(['list', 'p', 'x']);
  });

  it.each(['$1 and $) and a$', 'plain text', '100% #1'])('%j is constant: render returns it unchanged', (source) => {
    const t = compileTemplate(source, options);
    expect(t.isConstant).toBe(true);
    expect(t.render({}, noIdentity)).toBe(source);
  });

  it('a template over maxLength is COMPILE_TEMPLATE_TOO_LARGE', () => {
    const e = failure(() => compileTemplate('$a'.repeat(10), { ...options, maxLength: 19 }));
    expect(e.code).toBe('COMPILE_TEMPLATE_TOO_LARGE');
    expect(e.details).toEqual({ length: 20, maxLength: 19 });
  });

  it.each(['#if($a)x', '#end', 'a#end b', '#if($a)#foreach($x in $y)z#end', '#else', '#foreach($x in $y)#elseif($x)#end', '#set($a = )', '#foreach($a $b)'])('%j is TEMPLATE_SYNTAX with a position', (source) => {
    const e = failure(() => compileTemplate(source, options));
    expect(e.code).toBe('TEMPLATE_SYNTAX');
    expect(e.details).toHaveProperty('line');
    expect(e.details).toHaveProperty('column');
  });

  it('a literal regex is compiled once, at compile time', () => {
    const seen: string[] = [];
    const t = compileTemplate('$s.replaceAll("a+", "b")$s.split(",")', {
      ...options,
      regex: (src) => {
        seen.push(src);
        return compileJavaRegex(src);
      },
    });
    expect(seen).toEqual(['a+', ',']);
    t.render({ s: 'aa' }, noIdentity);
    t.render({ s: 'aaa' }, noIdentity);
    expect(seen).toEqual(['a+', ',']);
  });

  it('a runaway loop stops at maxIterations', () => {
    const t = compileTemplate('#foreach($i in [1..1000000])x#end', { ...options, maxIterations: 1000 });
    expect(failure(() => t.render({}, noIdentity)).code).toBe('EVAL_LIMIT_ITERATIONS');
  });

  it('renders are independent: #set in one render is not seen by the next', () => {
    const t = compileTemplate('#if($flag == "1")#set($x = "set")#end$!x.', options);
    expect(() => t.render({ flag: '1' }, noIdentity)).not.toThrow();
    expect(t.render({ flag: '1' }, noIdentity)).toBe('set.');
    expect(failure(() => t.render({ flag: '0' }, noIdentity)).code).toBe('TEMPLATE_RENDER');
  });
});

describe('positions are those of the source, also after a rewritten escape', () => {
  it.each([
    ['\\$5 $nope', { line: 1, column: 5 }],
    ['\\$a \\$b $nope', { line: 1, column: 9 }],
    ['\\$5\n  \\$6 $nope', { line: 2, column: 7 }],
  ])('%j', (template, details) => {
    let error: unknown;
    try {
      compileTemplate(template, options).render({}, noIdentity);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TransformsError);
    expect((error as TransformsError).code).toBe('TEMPLATE_RENDER');
    expect((error as TransformsError).details).toMatchObject(details);
  });
});
