// velocityjs's parser, made linear and budgeted (docs/decisions.md V24): the same statements as
// the package's own parser, a token limit and a time limit that stop a parse with coded errors.

import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/engine/engine.js';
import { flatParse, parseBudget } from '../../../src/runtime/velocity/grammar.js';

const velocityRequire = createRequire(createRequire(import.meta.url).resolve('velocityjs'));
const packageParse = (velocityRequire('./parse/index.cjs') as { parse_1: (s: string) => unknown[] }).parse_1;
const unbounded = () => parseBudget(Infinity, Infinity);

function errorOf(fn: () => unknown): { code?: string; details?: Record<string, unknown> } {
  try {
    fn();
  } catch (error) {
    return error as { code?: string; details?: Record<string, unknown> };
  }
  throw new Error('expected an error');
}

describe('velocityjs grammar', () => {
  it.each([
    ['references and text', '$a $b.c ${d} $!e text'],
    ['directives', '#set($x = [1, 2, 3])#foreach($i in $x)$i,#end#if($x.size() > 2)big#elseif(true)no#{else}x#end'],
    ['calls with arguments and maps', '$a.b(1, "two", $c, [4, 5], {"k": "v"})#macro(m $p)[$p]#end#m("q")'],
  ])('gives the statements the package parser gives: %s', (_name, template) => {
    expect(flatParse(template, unbounded())).toEqual(packageParse(template));
  });

  it('parses 33,000 references (99 KB, quadratic in the package parser) into 66,000 statements', () => {
    const nodes = flatParse('$a '.repeat(33_000), unbounded());
    expect(nodes).toHaveLength(66_000);
    expect(nodes[0]).toMatchObject({ type: 'references', id: 'a' });
  });

  it('stops at maxTokens with COMPILE_TEMPLATE_TOO_LARGE naming maxTemplateTokens', () => {
    const error = errorOf(() => flatParse('$a '.repeat(1_000), parseBudget(500, Infinity)));
    expect(error).toMatchObject({ code: 'COMPILE_TEMPLATE_TOO_LARGE', details: { limit: 'maxTemplateTokens', max: 500 } });
  });

  it('stops once the compile has spent its parsing time, with COMPILE_LIMIT_TIME naming maxTime', () => {
    const error = errorOf(() => flatParse('$a '.repeat(1_000), parseBudget(Infinity, 100, { ms: 101 })));
    expect(error).toMatchObject({ code: 'COMPILE_LIMIT_TIME', details: { limit: 'maxTime', max: 100 } });
  });
});

describe('the engine budgets template parsing', () => {
  const transform = (value: string) => ({ name: 't', type: 'static', attributes: { value, a: 'x' } });

  it('refuses a template of more than maxTemplateTokens tokens when it compiles', async () => {
    const engine = createEngine({ limits: { maxTemplateTokens: 1_000 } });
    await expect(engine.evaluate(transform('$a '.repeat(1_000)))).rejects.toMatchObject({ code: 'COMPILE_TEMPLATE_TOO_LARGE', details: { limit: 'maxTemplateTokens' } });
    await expect(engine.evaluate(transform('$a '.repeat(100)))).resolves.toBe('x '.repeat(99) + 'x ');
  });

  it('stops parsing a 99 KB template after maxTime with COMPILE_LIMIT_TIME, and the engine keeps working', async () => {
    const engine = createEngine({ limits: { maxTime: 1 } });
    await expect(engine.evaluate(transform('$a '.repeat(33_000)))).rejects.toMatchObject({ code: 'COMPILE_LIMIT_TIME', details: { limit: 'maxTime', max: 1 } });
    // 1 ms is wall time: on a loaded machine a small template's compile can be preempted past it
    // too. A poisoned engine fails every time; a preempted one passes at the next attempt.
    const outcomes: string[] = [];
    for (let attempt = 0; attempt < 5 && outcomes.at(-1) !== 'x!'; attempt++) {
      outcomes.push(await engine.evaluate(transform('$a!')).then(String, (error: { code?: string }) => String(error.code)));
    }
    expect(outcomes.at(-1), outcomes.join(', ')).toBe('x!');
    expect(outcomes.filter((o) => o !== 'x!' && o !== 'COMPILE_LIMIT_TIME' && o !== 'EVAL_LIMIT_TIME')).toEqual([]);
  });
});
