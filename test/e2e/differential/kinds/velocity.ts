// Velocity templates from a VTL grammar, rendered by Apache Velocity 1.7 (strict references)
// and by our renderer with the same variables: references (`$a`, `${a}`, quiet `$!a`, undefined
// ones), method calls with literal and variable arguments, index and property access, #set
// (strings, interpolated strings, numbers, lists, maps, ranges), #if/#elseif/#else with
// comparisons of mixed types, #foreach with $foreach.count/index/hasNext and $velocityCount,
// #macro, comments, escapes, and whitespace and newlines around directives; and the shapes the
// hand-found divergences showed it blind to: `$` and `$!` before punctuation, calls chained on a
// call's result (a Character from charAt), backslashes next to directives, raw blocks and
// comments right after `$`, prefixes before a reference or a literal among arguments (`$$a`,
// `$1`, `$true`) and number literals without digits on one side of the point (`.5`, `5.`).

import fc from 'fast-check';
import { compileJavaRegex } from '../../../../src/runtime/regex/index.js';
import { compileTemplate } from '../../../../src/runtime/velocity/index.js';
import { capture, type Kind, type OurOutcome } from '../harness.js';
import type { JavaOutcome } from '../oracle.js';
import { text as awkward } from './text.js';

const name = fc.constantFrom('a', 'b', 'n', 'l', 'm', 't', 'e');
const ws = fc.constantFrom('', '', '', ' ', '  ', '\n', ' \n', '\n  ', '\t', '\r\n');
const literalText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('Hi ', ' ', '-', ',', '.', 'x', '\n', '@', 'é', 'a b', ')', '(', '1', '"', "'", ' #', '$ ', '$1', '#1') },
  // `$`, `$!` and `\` before punctuation, and a lone `#` or `\` (text, or prefixes of what follows).
  { weight: 1, arbitrary: fc.constantFrom('$)', '$!)', '$!', '$.', '$,', '$!.', '$$', '$!!', '$#', '$!#', '\\', '#\\', '\\#', '$(', '$!"') },
);

const reference = fc.oneof(
  fc.constantFrom('$a', '${a}', '$!a', '$!{b}', '$b', '$n', '$t', '$e', '$l', '$m', '$u', '$!u', '${u}'),
  fc.constantFrom('$a.length()', '$a.toUpperCase()', '$a.substring(1)', '$a.charAt(0)', '$b.isEmpty()', '$a.replace("a", "o")'),
  fc.constantFrom('$l[0]', '$l.size()', '$l.get(1)', '$m.k', '$m.get("k")', '$m.size()', '$l.contains("p")', '$a.split(",")', '$n.length()'),
  fc.constantFrom('\\$a', '\\\\$a', '$a-$b', '$a$b', '$a.$b', '${a}-${b}', '$a.hashCode()', '$l.isEmpty()', '$m.keySet()', '$t.class'),
  // A bare word among a call's arguments (1.7 reads it as a reference whose value is null).
  fc.constantFrom('$a.equals(x)', '$m.get(x)', '$l.contains(x)', '$a.concat(x)', '$a.equals( x )'),
  // Calls chained on a call's result, a Character's among them.
  fc.constantFrom('$a.charAt(0).length()', '$a.charAt(0).toString()', '$a.charAt(0).equals("A")', '$a.charAt(0).hashCode()', '$a.substring(1).length()', '$a.trim().isEmpty()', '$l.get(0).length()', '$m.get("k").toUpperCase()', '$a.toUpperCase().charAt(0)', '$a.charAt(0).compareTo($a.charAt(0))', '$a.replace($a.charAt(0), "o")'),
  // Prefixes before a reference, a literal or a number among a call's arguments.
  fc.constantFrom('$a.concat($$a)', '$a.concat(\\$b)', '$a.substring($1)', '$a.concat($"x")', '$a.equals($!$b)', '$a.concat($ $a)', '$a.substring(1$)'),
);

const value = fc.oneof(
  fc.constantFrom('"str"', "'single'", '"$a-x"', '"${a}y"', '1', '-3', '2.5', '0', '1e3', 'true', 'false'),
  fc.constantFrom('[1, 2]', '["p", "q"]', '[]', '[1..3]', '{"k": "v"}', '{}', '$a', '$n', '$l', '$u', '$a.length()'),
  fc.constantFrom('1 + 2', '7 / 2', '7 % 3', '2 * 2.5', '$l.size() + 1', '"a" + "b"', '$a + 1', '10 - 20'),
  // Prefixes glued to a value, number literals 1.7 reads, a Character in arithmetic.
  fc.constantFrom('$$a', '\\$n', '$1', '$"s"', '$-1', '.5', '-.5', '5.', '$.5', '[1$, 2]', '[.5, $1]', '$a.charAt(0) + 1', '$a.charAt(0) + "x"'),
  // Interpolated strings: a reference and text right after it (`"$a.charAt(0)(x"`, `"$a("`).
  fc.tuple(reference, literalText, literalText).map(([r, t, u]) => `"${r}${t}${u}"`.replace(/(?<=.)"(?=.)/g, "'")),
);
const operand = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('$a', '$b', '$n', '$t', '$u', '"x"', '"Ann"', '1', '0', '2.0', '$l.size()', 'true', '$e', '$m') },
  // Prefixes glued to an operand (`$$a`, `\$a`, `$ $a`, `$true`), `.5`, a Character.
  { weight: 1, arbitrary: fc.constantFrom('$$a', '$!$b', '\\$a', '$ $n', '$$u', '$true', '$1', '.5', '$a.charAt(0)', '"A"') },
);
const comparison = fc
  .tuple(operand, fc.constantFrom(' == ', ' != ', ' < ', ' > ', ' <= ', ' >= '), operand)
  .map(([x, op, y]) => x + op + y);
const condition: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: comparison },
  { weight: 2, arbitrary: operand },
  { weight: 1, arbitrary: operand.map((o) => `!${o}`) },
  { weight: 1, arbitrary: fc.tuple(comparison, fc.constantFrom(' && ', ' || ', ' and ', ' or '), operand).map(([a, op, b]) => a + op + b) },
);

const macroArguments = fc
  .array(fc.constantFrom('$ ', '$', '$!', ' ', ',', ', ', '$a', '"w"', "'s'", '1', '-2', '\n', ' .5 ', '$true', '$$a'), { minLength: 1, maxLength: 5 })
  .map((parts) => parts.join(''));

const template: fc.Arbitrary<string> = fc.letrec<{ body: string; piece: string }>((tie) => ({
  piece: fc.oneof(
    { depthSize: 'small' },
    { weight: 4, arbitrary: literalText },
    { weight: 5, arbitrary: reference },
    { weight: 3, arbitrary: fc.tuple(ws, name, value, ws).map(([w1, v, x, w2]) => `${w1}#set($${v} = ${x})${w2}`) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(ws, condition, tie('body'), fc.option(fc.tuple(condition, tie('body'))), fc.option(tie('body')), ws)
        .map(([w1, c, b, elif, els, w2]) =>
          `${w1}#if(${c})${b}${elif ? `#elseif(${elif[0]})${elif[1]}` : ''}${els !== null ? `#else${els}` : ''}#end${w2}`),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(ws, fc.constantFrom('$l', '[1..3]', '["p", "q"]', '$m', '[]', '[3..1]'), tie('body'), ws)
        .map(([w1, src, b, w2]) => `${w1}#foreach($i in ${src})${b}#end${w2}`),
    },
    { weight: 2, arbitrary: fc.constantFrom('$i', '$foreach.count', '$foreach.index', '$foreach.hasNext', '$velocityCount', '#if($foreach.hasNext), #end', '#break') },
    { weight: 1, arbitrary: fc.constantFrom('#macro(mac $p)[$p]#end#mac("z")', '#macro(two $p $q)$p$q#end#two($a "w")', '## note\n', '#* block *#', '#*\nmulti\n*#\n', '#[[raw $a]]#') },
    // Raw blocks and comments right after `$`s and `#`, an empty raw block; backslashes next to
    // directives and before a reference after `#`.
    { weight: 1, arbitrary: fc.constantFrom('$#[[x]]#', '$!#[[raw]]#', '#$#[[xy]]#', '\\$#[[z]]#', '#[[]]#', '$#* c *#', '$!#**#', '\\#if(true)', '\\#end', '#\\$a', '\\\\#else', '#\\\\$b') },
    // A macro call's arguments: lone `$`s, commas (one may come first), blanks.
    { weight: 1, arbitrary: macroArguments.map((args) => `#macro(two $p $q)$p$q#end#two(${args})`) },
  ),
  body: fc.array(tie('piece'), { maxLength: 4 }).map((p) => p.join('')),
})).body;

const variables = fc.record({
  a: fc.oneof(fc.constantFrom('Ann', 'x', 'a,b', 'Zoë'), awkward),
  b: fc.constantFrom('', 'B', 'false', 'Ann', ' '),
  n: fc.constantFrom('3', '0', '-1', '2.5', '1'),
  l: fc.constantFrom<unknown[]>([], ['p'], ['p', 'q'], [1, 2, 3]),
  m: fc.constantFrom<Record<string, unknown>>({ k: 'v' }, { k: 'v', j: 2 }, {}),
});

export interface VelocityCase {
  template: string;
  vars: Record<string, unknown>;
}

const options = { maxLength: 10_000, regex: compileJavaRegex, maxIterations: 10_000 };

/**
 * Known platform differences (docs/decisions.md): V3 — an undefined reference tested in #if, or
 * set by a #set inside an #if, throws on the platform (1.7 strict mode lets it be false or null); V12 — a String[] renders as a list (Java prints an identity hash);
 * V14 — the sandbox refuses getClass/class at compile time; V18 — an escaped reference renders its
 * text whether its variable is set or not (1.7 strict mode fails when it is not); V19 — a hyphen ends a reference name
 * (1.7 reads `$a-` as one name);
 * V25 — `#foreach` without its `(` is TEMPLATE_SYNTAX (1.7 fails on every render); V17 — a doubled quote
 * inside a string literal is TEMPLATE_SYNTAX; V13 — a `$` or `$!` that ends the template is text.
 */
function knownVelocity(c: VelocityCase, java: JavaOutcome, ours: OurOutcome): string | undefined {
  // (The only forbidden name the generator writes is `class`.)
  if ('error' in ours && ours.error === 'TEMPLATE_FORBIDDEN' && /\.class\b/.test(c.template)) return 'V14';
  // A doubled quote inside a string literal (`'s''s'`): one quote in 1.7, outside velocityjs's
  // grammar; a coded rejection when the template is compiled (V17).
  if ('error' in ours && ours.error === 'TEMPLATE_SYNTAX' && !('error' in java && /ParseErrorException/.test(java.error)) && /'[^'\n]*''|"[^"\n]*""/.test(c.template)) return 'V17';
  // `#foreach` without its `(`: 1.7 fails initialising the template (a NullPointerException on
  // every render, in any branch); we refuse it when it is compiled (V25).
  if ('error' in java && /NullPointerException/.test(java.error) && 'error' in ours && ours.error === 'TEMPLATE_SYNTAX' && /#\{?foreach\}?(?![ \t]*\()/.test(c.template)) return 'V25';
  // Both reject the template, 1.7 when parsing and we when rendering (V22).
  if ('error' in java && /ParseErrorException/.test(java.error) && 'error' in ours && ours.error === 'TEMPLATE_RENDER') return 'V22';
  if ('ok' in java && /\[Ljava\.lang\.String;@/i.test(java.ok)) return 'V12';
  // A `$` or `$!` that ends the template stays text; 1.7's lexer fails on it (V13).
  if ('error' in java && /ParseErrorException/.test(java.error) && 'ok' in ours && /\$!?$/.test(c.template)) return 'V13';
  // (A String[] interpolated into a string carries its identity hash into that string's hashCode.)
  if ('ok' in java && 'ok' in ours && /"[^"]*\.split\(/.test(c.template) && /\.hashCode\(\)/.test(c.template)) return 'V12';
  // 1.7 lets a bare undefined reference be null not only in an #if condition but in any #set
  // inside an #if's body (ASTReference.init looks for an enclosing #if): `#if(true)#set($x = $u)`
  // stores null there; we fail on the undefined reference wherever it stands (V3).
  const undefinedName = 'error' in ours ? /\$(\w+) is not defined/.exec(ours.message ?? '')?.[1] : undefined;
  if (undefinedName !== undefined && !(undefinedName in c.vars)) {
    const firstIf = c.template.indexOf('#if(');
    const sets = [...c.template.matchAll(/#set\(\$\w+ = !?\$!?\{?(\w+)\}?\)/g)];
    if (firstIf >= 0 && sets.some((m) => m[1] === undefinedName && m.index > firstIf)) return 'V3';
  }
  // An escaped reference whose variable is not set, or whose property or call fails: 1.7 strict
  // mode evaluates it and fails ("Variable $x has not been set"); we render its text (V18).
  const escaped = [...c.template.matchAll(/(?<!\\)(?:\\\\)*\\\$!?\{?([A-Za-z_]\w*)([.[])?/g)];
  if ('error' in java && /MethodInvocationException/.test(java.error) && 'ok' in ours && escaped.some((m) => !(m[1]! in c.vars) || m[2] !== undefined)) return 'V18';
  // An escaped reference whose value is null: 1.7 keeps its backslash (`\$m.get(x)` → `\$m.get(x)`); we render its text (V18).
  if ('ok' in java && 'ok' in ours && escaped.length > 0 && java.ok !== ours.ok && java.ok.replace(/\\(?=\$)/g, '') === ours.ok.replace(/\\(?=\$)/g, '')) return 'V18';
  if (/\$!?\{?[A-Za-z]\w*(?:\.[A-Za-z]\w*)*-/.test(c.template)) return 'V19';
  // (`$`s glued before it, `#if($$u)`, `#if(\$u)`, are the same reference: argument-prefixes.ts.)
  const bare = [...c.template.matchAll(/(?:#(?:else)?if\(|!|&& |\|\| |and |or )(?:\\*\$!?\s?)*\\*\$(\w+)(?=[\s)]|$)/g)].map((m) => m[1]!);
  const set = new Set([...c.template.matchAll(/#set\(\$(\w+)/g)].map((m) => m[1]!));
  // (A name #set later in the template is still undefined where the condition reads it.)
  if (bare.some((v) => !(v in c.vars) && (!set.has(v) || v === undefinedName)) && 'error' in ours && ours.error === 'TEMPLATE_RENDER') return 'V3';
  return undefined;
}

export const velocityKind: Kind<VelocityCase> = {
  name: 'velocity',
  arbitrary: fc.record({ template, vars: variables }),
  java: (oracle, c) => oracle.ask('velocity', { template: c.template, vars: c.vars }),
  ours: (c) => capture(() => compileTemplate(c.template, options).render(c.vars, { identity: null })),
  sameError: (javaClass, _cause, ours) =>
    /ParseErrorException|TemplateInitException/.test(javaClass) ? ours.error === 'TEMPLATE_SYNTAX' : ours.error === 'TEMPLATE_RENDER',
  known: knownVelocity,
  unitTest: (c, java) =>
    'ok' in java
      ? `expect(render(${JSON.stringify(c.template)}, ${JSON.stringify(c.vars)})).toBe(${JSON.stringify(java.ok)});`
      : `// Java: ${JSON.stringify(java)}\nexpect(() => render(${JSON.stringify(c.template)}, ${JSON.stringify(c.vars)})).toThrow();`,
};
