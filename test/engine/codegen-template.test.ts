// The JavaScript statements generated for `static` templates of the commonest shape
// (engine/codegen/template.ts) give what the general Velocity renderer gives: the same value or
// the same coded error, for the bundled profile's templates and for random templates of text,
// references and #if blocks (with the constructs around them that must stay with the general
// renderer), over present, empty, null and non-string variables.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { simpleTemplate } from '../../src/engine/codegen/template.js';

const generated = createEngine({ codegen: true, limits: { maxStringLength: 40 } });
const closures = createEngine({ codegen: false, limits: { maxStringLength: 40 } });

function outcome(engine: typeof generated, transform: unknown): unknown {
  try {
    return { value: engine.evaluateSync(transform, { identity: { id: 'i1', name: 'jdoe', attributes: { department: 'IT' } } }) };
  } catch (e) {
    const error = e as { code?: string; message?: string; path?: string };
    return { code: error.code, message: error.message, path: error.path };
  }
}

/** A variable's definition: a string, a number, a boolean, or a transform giving null, "" or a list. */
const variables = fc.constantFrom<unknown>(
  'none',
  'active',
  'x',
  '$a',
  '#end',
  'é😀',
  'a\nb',
  'a'.repeat(30),
  '',
  7,
  true,
  { type: 'identityAttribute', attributes: { name: 'missing' } },
  { type: 'identityAttribute', attributes: { name: 'department' } },
  { type: 'split', attributes: { delimiter: ',', index: 0, input: 'x,y' } },
);

function transform(template: string, a: unknown, b: unknown): unknown {
  return { name: 'T', type: 'static', attributes: { value: template, a, b } };
}

describe('compiled templates', () => {
  it.each([
    ["#if($a != 'none')$a#{else}$b#end $a", true],
    ["#if($a == 'active')active#elseif($a == 'leave')inactive#{else}contractor#end", true],
    ["#if($a=='Employee')Full-Time#elseif($a=='none')Unknown#{else}Contingent#end", true],
    ['${a}.${b}@example.com', true],
    ['\\$a costs $b', true],
    ['$a.length()', false],
    ['$!a', false],
    ['#set($c = $a)$c', false],
    ['#if($a == "x$b")y#end', false],
    ['$a\n$b', false],
    ['#if($a)y#end', false],
    ['$identity.name', false],
    ['$oldValue', false],
  ])('%j is compiled: %s', (template, compiled) => {
    expect(simpleTemplate(template, ['a', 'b'], ['s0', 's1'], 'o') !== undefined).toBe(compiled);
  });

  it.each(['none', 'x', '', 7, { type: 'identityAttribute', attributes: { name: 'missing' } }])('the bundled templates give the general renderer’s outcome with %j', (a) => {
    for (const template of [
      "#if($a != 'none')$a#{else}$b#end $a",
      "#if($a == 'active')active#elseif($a == 'leave')inactive#elseif($a == 'terminated')terminated#elseif($a == 'pre-hire')prehire#{else}contractor#end",
      "#if($a=='Employee')Full-Time#elseif($a=='none')Unknown#{else}Contingent#end",
    ]) {
      expect(outcome(generated, transform(template, a, 'last'))).toEqual(outcome(closures, transform(template, a, 'last')));
    }
  });

  it.each(['x${} $a', '$a$!{', '${ a} $b', '\\\\#b $a', '$a\\## c', '#if($a == \'x\')\\##c#end$b', '$a#* c', '$b#*', '$a#[[x', '$a#if'])(
    '%j (text as Velocity 1.7 lexes it) gives the general renderer’s outcome',
    (template) => {
      for (const a of ['x', 'none', '']) expect(outcome(generated, transform(template, a, 'b'))).toEqual(outcome(closures, transform(template, a, 'b')));
    },
  );

  it('a longer output than maxStringLength is the general renderer’s limit error', () => {
    const t = transform('$a$a', 'a'.repeat(30), 'b');
    expect(outcome(generated, t)).toEqual(outcome(closures, t));
    expect((outcome(generated, t) as { code: string }).code).toBe('EVAL_LIMIT_STRING');
  });

  const reference = fc.constantFrom('$a', '$b', '${a}', '${b}', '$!a', '$c', '$a.length()', '\\$a');
  const literal = fc.constantFrom("'none'", "'x'", "''", "'$a'", '"x"', '"$b"', '7');
  const condition = fc
    .tuple(fc.constantFrom('$a', '$b', '$c'), fc.constantFrom('==', '!=', ' == ', '>'), literal, fc.boolean())
    .map(([r, op, l, swap]) => (swap ? `${l}${op}${r}` : `${r}${op}${l}`));
  const text = fc.array(fc.constantFrom('a', ' ', '-', '.', '@', '$', '#', '\\', 'é', '\n', '##c'), { maxLength: 3 }).map((xs) => xs.join(''));
  const templates = fc.letrec<{ template: string; piece: string }>((tie) => ({
    piece: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      text,
      reference,
      fc
        .tuple(condition, tie('template'), fc.array(fc.tuple(condition, tie('template')), { maxLength: 2 }), fc.option(tie('template'), { nil: undefined }))
        .map(([c, body, elseifs, otherwise]) => `#if(${c})${body}${elseifs.map(([ec, eb]) => `#elseif(${ec})${eb}`).join('')}${otherwise === undefined ? '' : `#{else}${otherwise}`}#end`),
    ),
    template: fc.array(tie('piece'), { maxLength: 4 }).map((xs) => xs.join('')),
  })).template;

  it('random templates over random variables give the general renderer’s outcome', () => {
    let compiled = 0;
    fc.assert(
      fc.property(templates, variables, variables, (template, a, b) => {
        if (simpleTemplate(template, ['a', 'b'], ['s0', 's1'], 'o') !== undefined) compiled++;
        expect(outcome(generated, transform(template, a, b))).toEqual(outcome(closures, transform(template, a, b)));
      }),
      { numRuns: 3000 },
    );
    // The property must exercise the compiled path, not only the general one.
    expect(compiled).toBeGreaterThan(300);
  });
});
