// The resource budget of an evaluation (docs/limits.md): every limit, exceeded, is the coded
// error that names it — never a crash, a stack overflow or an internal error. The hostile
// templates are the ones that took the process down or blocked it for seconds before the limits
// existed; those that exhausted the heap or the stack of the CLI run in a child process
// (limits.process.test.ts).

import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { jsonNestingLimit } from '../../src/engine/canonical.js';
import { validateTransform } from '../../src/engine/validate.js';
import { DEFAULT_LIMITS, MAX_DEPTH_LIMIT } from '../../src/engine/options.js';
import { MAX_JSON_DEPTH } from '../../src/json/depth.js';
import type { TransformDocument } from '../../src/providers/types.js';
import { codedErrorOf, rejectionOf, tenantEngine } from '../helpers.js';

const staticT = (value: string) => ({ name: 't', type: 'static', attributes: { value } });
const neverUnique = { uniqueness: { isUnique: () => false } };

function nested(levels: number): Record<string, unknown> {
  let t: Record<string, unknown> = { type: 'static', attributes: { value: 'x' } };
  for (let i = 0; i < levels; i++) t = { type: 'upper', attributes: { input: t } };
  return t;
}

describe('limits: defaults and options', () => {
  it('documents a default for every limit, and the engine exposes them frozen', () => {
    const engine = createEngine();
    expect(engine.limits).toEqual(DEFAULT_LIMITS);
    expect(Object.isFrozen(engine.limits)).toBe(true);
    expect(Object.keys(DEFAULT_LIMITS).sort()).toEqual([
      'maxAllocation', 'maxCollectionSize', 'maxDepth', 'maxFilterLength', 'maxIterations', 'maxNumberDigits',
      'maxOutputLength', 'maxSteps', 'maxStringLength', 'maxTemplateLength', 'maxTemplateTokens', 'maxTime', 'maxUsernameCandidates',
    ]);
  });

  it('takes limits per engine and per call; an unknown or invalid limit is refused', async () => {
    const engine = createEngine({ limits: { maxStringLength: 10 } });
    expect(engine.limits.maxStringLength).toBe(10);
    expect(codedErrorOf(() => engine.evaluateSync(staticT('#set($x = "ab")$x.repeat(6)'))).code).toBe('EVAL_LIMIT_STRING');
    // Per call, over the engine's.
    expect(engine.evaluateSync(staticT('#set($x = "ab")$x.repeat(6)'), { limits: { maxStringLength: 12 } })).toBe('abababababab');
    expect(codedErrorOf(() => createEngine({ limits: { maxBananas: 1 } as never })).code).toBe('ENGINE_OPTION_UNKNOWN');
    expect(codedErrorOf(() => createEngine({ limits: { maxTime: -1 } })).code).toBe('ENGINE_OPTION_INVALID');
    expect((await rejectionOf(createEngine().evaluate(staticT('x'), { limits: { maxTime: 0 } }))).code).toBe('ENGINE_OPTION_INVALID');
  });

  it('bounds maxDepth where the JSON it allows still nests within MAX_JSON_DEPTH: deeper would exhaust the stack of the schema validator and compile', () => {
    expect(jsonNestingLimit(MAX_DEPTH_LIMIT)).toBeLessThanOrEqual(MAX_JSON_DEPTH);
    expect(createEngine({ limits: { maxDepth: MAX_DEPTH_LIMIT } }).limits.maxDepth).toBe(MAX_DEPTH_LIMIT);
    const error = codedErrorOf(() => createEngine({ limits: { maxDepth: 1e20 } }));
    expect(error.code).toBe('ENGINE_OPTION_INVALID');
    expect(error.message).toBe(`limits.maxDepth must be a positive integer of at most ${MAX_DEPTH_LIMIT}`);
  });

  it('validates a transform nested 1,500 deep under the largest maxDepth as VALIDATE_TOO_DEEP, not a stack overflow', () => {
    const engine = createEngine({ limits: { maxDepth: MAX_DEPTH_LIMIT } });
    const result = validateTransform({ name: 'deep', ...nested(1500) }, { engine });
    expect(result.valid).toBe(false);
    expect(result.issues.map((i) => i.code)).toContain('VALIDATE_TOO_DEEP');
  });

  it('names the limit in the error details', () => {
    const error = codedErrorOf(() => createEngine().evaluateSync(staticT('#set($x = "x")$x.repeat(500000000)')));
    expect(error.code).toBe('EVAL_LIMIT_STRING');
    expect(error.details).toEqual({ limit: 'maxStringLength', max: DEFAULT_LIMITS.maxStringLength });
    expect(error.path).toBe('');
  });
});

describe('limits: out of memory', () => {
  it('$s.repeat(500000000) is refused before the string is built', () => {
    expect(codedErrorOf(() => createEngine().evaluateSync(staticT('#set($s = "ab")$s.repeat(500000000)'))).code).toBe('EVAL_LIMIT_STRING');
  });

  it('strings made by +, interpolation and output are bounded', () => {
    const engine = createEngine({ limits: { maxStringLength: 100 } });
    expect(codedErrorOf(() => engine.evaluateSync(staticT('#set($s = "x")#foreach($i in [1..200])#set($s = $s + "x")#end$s'))).code).toBe('EVAL_LIMIT_STRING');
    expect(codedErrorOf(() => engine.evaluateSync(staticT('#set($s = "x")#foreach($i in [1..200])#set($s = "$s$i")#end$s'))).code).toBe('EVAL_LIMIT_STRING');
    expect(codedErrorOf(() => engine.evaluateSync(staticT('#foreach($i in [1..200])xx#end'))).code).toBe('EVAL_LIMIT_STRING');
  });

  it('lists and maps are bounded where they grow: add, put, #set, range, split', () => {
    const engine = createEngine({ limits: { maxCollectionSize: 50 } });
    const cases = [
      '#set($l = [])#foreach($i in [1..60])#set($ok = $l.add($i))#end',
      '#set($m = {})#foreach($i in [1..60])#set($ok = $m.put("k$i", $i))#end',
      '#set($m = {})#foreach($i in [1..60])#set($m["k$i"] = $i)#end',
      '#set($r = [1..60])',
      '#set($s = "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z")$s.split(",").size()',
    ];
    for (const template of cases) expect(codedErrorOf(() => engine.evaluateSync(staticT(template))).code, template).toBe('EVAL_LIMIT_COLLECTION');
    expect(engine.evaluateSync(staticT('#set($r = [1..50])$r.size()'))).toBe('50');
  });

  it('a list that holds itself renders as Java renders it; lists nested by doubling stop at maxStringLength', () => {
    const engine = createEngine();
    expect(engine.evaluateSync(staticT('#set($l = ["a"])#set($ok = $l.add($l))$l'))).toBe('[a, (this Collection)]');
    expect(codedErrorOf(() => engine.evaluateSync(staticT('#set($a = ["x"])#foreach($i in [1..60])#set($a = [$a, $a])#end$a'))).code).toBe('EVAL_LIMIT_STRING');
  });

  it('concat and join stop at maxStringLength; the value at maxOutputLength', () => {
    const engine = tenantEngine({ limits: { maxStringLength: 6, maxOutputLength: 4 } });
    expect(codedErrorOf(() => engine.evaluateSync({ name: 'c', type: 'concat', attributes: { values: ['abcd', 'efg'] } })).code).toBe('EVAL_LIMIT_STRING');
    expect(codedErrorOf(() => engine.evaluateSync({ name: 'j', type: 'join', attributes: { values: ['ab', 'cd', 'ef'] } })).code).toBe('EVAL_LIMIT_STRING');
    const output = codedErrorOf(() => engine.evaluateSync({ name: 'c', type: 'concat', attributes: { values: ['abc', 'de'] } }));
    expect(output.code).toBe('EVAL_LIMIT_OUTPUT');
    expect(output.details).toEqual({ limit: 'maxOutputLength', max: 4 });
  });
});

describe('limits: time and work', () => {
  it('the attributes of one profile evaluation share one budget; another evaluation starts afresh', async () => {
    const engine = createEngine({ limits: { maxIterations: 1_000 } });
    const loop = (n: number) => ({ type: 'static', attributes: { value: `#foreach($i in [1..${n}])#{end}${n}` } });
    const profile = { identityAttributeConfig: { attributeTransforms: [
      { identityAttributeName: 'a', transformDefinition: loop(600) },
      { identityAttributeName: 'b', transformDefinition: loop(600) },
    ] } };
    const identity = { id: '1', name: 'n', attributes: {} };
    const result = await engine.evaluateProfile(profile, identity);
    expect(result.attributes.a).toBe('600');
    expect(result.errors.map((e) => [e.attribute, e.code])).toEqual([['b', 'EVAL_LIMIT_ITERATIONS']]);
    expect((await engine.evaluateProfile(profile, identity, { limits: { maxIterations: 2_000 } })).errors).toEqual([]);
    expect(engine.evaluateSync({ name: 'x', ...loop(600) })).toBe('600');
  });

  it('a BigInt squaring loop stops at maxNumberDigits at once', () => {
    const engine = createEngine();
    const error = codedErrorOf(() => engine.evaluateSync(staticT('#set($n = 3)#foreach($i in [1..1000])#set($n = $n * $n)#end$n')));
    expect(error.code).toBe('EVAL_LIMIT_NUMBER');
    expect(engine.evaluateSync(staticT('#set($n = 3)#foreach($i in [1..5])#set($n = $n * $n)#end$n'))).toBe(String(3n ** 32n));
  });

  it('loop iterations are counted per evaluation, across the renders of every pattern of a usernameGenerator', () => {
    const engine = createEngine({ providers: neverUnique, limits: { maxIterations: 10_000 } });
    const patterns = Array.from({ length: 2_000 }, (_, i) => `#foreach($i in [1..99999])#end\${first}${i}`);
    const error = codedErrorOf(() => engine.evaluateSync({ name: 'u', type: 'usernameGenerator', attributes: { patterns, first: 'a' } }));
    expect(error.code).toBe('EVAL_LIMIT_ITERATIONS');
    expect(error.path).toBe('');
  });

  it('20,000 colliding patterns: EVAL_LIMIT_USERNAME, and with the limit raised the documented IllegalStateException (no stack overflow)', () => {
    // Parsing 20,000 templates is compile work that maxTime bounds too (docs/decisions.md V24):
    // time enough for it on a loaded machine, so that what stops is the candidates.
    const engine = createEngine({ providers: neverUnique, limits: { maxTime: 120_000 } });
    const patterns = Array.from({ length: 20_000 }, (_, i) => `\${first}x${i}`);
    const t = { name: 'u', type: 'usernameGenerator', attributes: { patterns, first: 'a' } };
    expect(codedErrorOf(() => engine.evaluateSync(t)).code).toBe('EVAL_LIMIT_USERNAME');
    expect(codedErrorOf(() => engine.evaluateSync(t, { limits: { maxUsernameCandidates: 30_000 } })).code).toBe('EVAL_ILLEGAL_STATE');
  });

  it('macros that call themselves twice stop at maxIterations', () => {
    const template = '#macro(f $d)#if($d.length() < 40)#f("${d}x")#f("${d}x")#end#end#f("")done';
    expect(codedErrorOf(() => createEngine({ limits: { maxIterations: 5_000 } }).evaluateSync(staticT(template))).code).toBe('EVAL_LIMIT_ITERATIONS');
  });

  it('wall time: a loop stops with EVAL_LIMIT_TIME within the budget (generous slack; a property of the limit, not a benchmark)', () => {
    const engine = createEngine({ limits: { maxTime: 50, maxIterations: 1_000_000_000 } });
    const t = staticT('#foreach($i in [1..1000000000])#set($x = $i)#end');
    engine.compile(t);
    const started = performance.now();
    expect(codedErrorOf(() => engine.evaluateSync(t)).code).toBe('EVAL_LIMIT_TIME');
    expect(performance.now() - started).toBeLessThan(50 + 1_000);
  });

  it('wall time is checked between steps too: references that fan out stop at maxTime', () => {
    // t0 … t39 each concatenate the next one twice: 2^40 steps and no template loop.
    const transforms = Array.from({ length: 41 }, (_, i) =>
      i === 40
        ? { name: `t${i}`, type: 'static', attributes: { value: '' } }
        : { name: `t${i}`, type: 'concat', attributes: { values: [0, 1].map(() => ({ type: 'reference', attributes: { id: `t${i + 1}` } })) } },
    ) as TransformDocument[];
    const engine = tenantEngine({ limits: { maxTime: 30, maxSteps: 1_000_000_000 } }, transforms);
    const t = { name: 'x', type: 'reference', attributes: { id: 't0' } };
    const started = performance.now();
    expect(codedErrorOf(() => engine.evaluateSync(t)).code).toBe('EVAL_LIMIT_TIME');
    expect(performance.now() - started).toBeLessThan(30 + 2_000);
  });
});

describe('limits: nesting', () => {
  it('a transform nested 10,000 levels is COMPILE_TOO_DEEP at a pointer, in evaluate, compileDefinition and a profile', async () => {
    const engine = createEngine();
    const deep = nested(10_000);
    const error = codedErrorOf(() => engine.evaluateSync({ name: 'deep', ...deep }));
    expect(error.code).toBe('COMPILE_TOO_DEEP');
    // The pointer of the first object nested deeper than the JSON nesting limit (4 × maxDepth + 16
    // levels; each `upper` adds two: the transform and its attributes).
    expect(error.path).toBe('/attributes/input'.repeat(jsonNestingLimit(DEFAULT_LIMITS.maxDepth) / 2));
    expect(codedErrorOf(() => engine.compileDefinition(deep)).code).toBe('COMPILE_TOO_DEEP');
    expect(codedErrorOf(() => engine.compile({ name: 'deep', ...deep }, { cache: false })).code).toBe('COMPILE_TOO_DEEP');
    const result = await engine.evaluateProfile({ identityAttributeConfig: { attributeTransforms: [{ identityAttributeName: 'a', transformDefinition: deep }] } }, { id: '1', name: 'n', attributes: {} });
    expect(result.errors.map((e) => e.code)).toEqual(['COMPILE_TOO_DEEP']);
    // Within the limit, nesting still works.
    expect(engine.evaluateSync({ name: 'ok', ...nested(60) })).toBe('X');
  });

  it('templates nesting brackets or blocks thousands deep are COMPILE_TOO_DEEP, at once', () => {
    const engine = createEngine();
    const parens = codedErrorOf(() => engine.evaluateSync(staticT(`#set($x = ${'('.repeat(8_000)}1${')'.repeat(8_000)})$x`)));
    expect(parens.code).toBe('COMPILE_TOO_DEEP');
    expect(parens.details).toMatchObject({ limit: 'maxDepth', line: 1, column: 266 });
    expect(codedErrorOf(() => engine.evaluateSync(staticT(`#set($x = ${'['.repeat(300)}1${']'.repeat(300)})$x`))).code).toBe('COMPILE_TOO_DEEP');
    expect(codedErrorOf(() => engine.evaluateSync(staticT(`${'#if(true)'.repeat(5_000)}x${'#end'.repeat(5_000)}`))).code).toBe('COMPILE_TOO_DEEP');
    expect(engine.evaluateSync(staticT(`${'#if(true)'.repeat(200)}x${'#end'.repeat(200)}`))).toBe('x');
    expect(engine.evaluateSync(staticT(`#set($x = ${'('.repeat(100)}1${')'.repeat(100)})$x`))).toBe('1');
  });

  it('a chain of references deeper than maxDepth is EVAL_TOO_DEEP', () => {
    const transforms = Array.from({ length: 100 }, (_, i) =>
      i === 99 ? { name: `r${i}`, type: 'static', attributes: { value: 'end' } } : { name: `r${i}`, type: 'reference', attributes: { id: `r${i + 1}` } },
    ) as TransformDocument[];
    const engine = tenantEngine({}, transforms);
    const error = codedErrorOf(() => engine.evaluateSync({ name: 'x', type: 'reference', attributes: { id: 'r0' } }));
    expect(error.code).toBe('EVAL_TOO_DEEP');
    expect(error.details).toMatchObject({ limit: 'maxDepth', max: 64 });
    expect(tenantEngine({ limits: { maxDepth: 128 } }, transforms).evaluateSync({ name: 'x', type: 'reference', attributes: { id: 'r0' } })).toBe('end');
  });
});
