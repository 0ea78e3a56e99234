import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { createMemoryProviders } from '../../src/providers/memory.js';
import type { Identity } from '../../src/providers/types.js';
import { codedErrorOf, rejectionOf } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const john: Identity = { id: 'john', name: 'john', attributes: { firstname: 'John', lastname: 'Doe' } };
const adam: Identity = { id: 'adam', name: 'adam', attributes: { firstname: 'Adam', lastname: 'Smith' } };

function engineWith(taken: Iterable<string>, options: { async?: boolean } = {}) {
  const used = new Set(taken);
  const checks: string[] = [];
  const memory = createMemoryProviders({ sources: [], identities: [john, adam], accounts: [] });
  const engine = createEngine({
    providers: {
      ...memory,
      uniqueness: {
        isUnique: (candidate) => {
          checks.push(candidate);
          return options.async ? Promise.resolve(!used.has(candidate)) : !used.has(candidate);
        },
      },
    },
  });
  return { engine, checks };
}

const ia = (name: string) => ({ type: 'identityAttribute', attributes: { name } });
const lowerOf = (input: unknown) => ({ type: 'lower', attributes: { input } });
const firstInitial = lowerOf({ type: 'substring', attributes: { input: ia('firstname'), begin: 0, end: 1 } });
const gen = (attributes: Record<string, unknown>) => ({ name: 'userId', type: 'usernameGenerator', attributes });

// username-generator#2, with lower transforms so that John Doe gives "jdoe" as the doc shows
// (decision: the generator does not lower-case by itself).
const jdoe = (extra: Record<string, unknown> = {}) =>
  gen({ sourceCheck: true, patterns: ['$fi$ln${uniqueCounter}'], ln: lowerOf(ia('lastname')), fi: firstInitial, cloudMaxUniqueChecks: '25', ...extra });

describe('usernameGenerator', () => {
  it('username-generator#2: jdoe first, then jdoe1, jdoe2 …', () => {
    expect(engineWith([]).engine.evaluateSync(jdoe(), { identity: john })).toBe('jdoe');
    expect(engineWith(['jdoe']).engine.evaluateSync(jdoe(), { identity: john })).toBe('jdoe1');
    expect(engineWith(['jdoe', 'jdoe1', 'jdoe2']).engine.evaluateSync(jdoe(), { identity: john })).toBe('jdoe3');
  });

  it('username-generator#2: exhausting cloudMaxUniqueChecks (25 checks: jdoe … jdoe24) is IllegalStateException', () => {
    const taken = ['jdoe', ...Array.from({ length: 24 }, (_, i) => `jdoe${i + 1}`)];
    const { engine, checks } = engineWith(taken);
    const error = codedErrorOf(() => engine.evaluateSync(jdoe(), { identity: john }));
    expect(error.code).toBe('EVAL_ILLEGAL_STATE');
    expect(checks).toHaveLength(25);
    expect(engineWith(taken.slice(0, 24)).engine.evaluateSync(jdoe(), { identity: john })).toBe('jdoe24');
  });

  it('username-generator#3: adam.smith, then adam.smith1 … within 10 checks', () => {
    const t = gen({ sourceCheck: true, patterns: ['$fn.$ln${uniqueCounter}'], fn: lowerOf(ia('firstname')), ln: lowerOf(ia('lastname')), cloudMaxUniqueChecks: 10 });
    expect(engineWith([]).engine.evaluateSync(t, { identity: adam })).toBe('adam.smith');
    expect(engineWith(['adam.smith']).engine.evaluateSync(t, { identity: adam })).toBe('adam.smith1');
    const all = ['adam.smith', ...Array.from({ length: 9 }, (_, i) => `adam.smith${i + 1}`)];
    expect(codedErrorOf(() => engineWith(all).engine.evaluateSync(t, { identity: adam })).code).toBe('EVAL_ILLEGAL_STATE');
  });

  it('tries the patterns in order before the counter pattern', () => {
    const t = gen({ patterns: ['$fn', '$fn.$ln', '$fn.$ln${uniqueCounter}'], fn: lowerOf(ia('firstname')), ln: lowerOf(ia('lastname')) });
    expect(engineWith([]).engine.evaluateSync(t, { identity: john })).toBe('john');
    expect(engineWith(['john']).engine.evaluateSync(t, { identity: john })).toBe('john.doe');
    expect(engineWith(['john', 'john.doe']).engine.evaluateSync(t, { identity: john })).toBe('john.doe1');
  });

  it('skips a pattern whose variable is null', () => {
    const t = gen({ patterns: ['$mn.$ln', '$fn.$ln'], mn: ia('middlename'), fn: lowerOf(ia('firstname')), ln: lowerOf(ia('lastname')) });
    expect(engineWith([]).engine.evaluateSync(t, { identity: john })).toBe('john.doe');
  });

  it('without a counter pattern, no unique value is IllegalStateException', () => {
    const t = gen({ patterns: ['$fn'], fn: lowerOf(ia('firstname')) });
    expect(codedErrorOf(() => engineWith(['john']).engine.evaluateSync(t, { identity: john })).code).toBe('EVAL_ILLEGAL_STATE');
  });

  it('cloudMaxSize truncates the name but keeps the counter', () => {
    const t = jdoe({ cloudMaxSize: 3 });
    expect(engineWith([]).engine.evaluateSync(t, { identity: john })).toBe('jdo');
    expect(engineWith(['jdo']).engine.evaluateSync(t, { identity: john })).toBe('jd1');
  });

  it('passes sourceCheck and the identity to the uniqueness provider, and works asynchronously', async () => {
    const seen: unknown[] = [];
    const engine = createEngine({
      providers: { uniqueness: { isUnique: async (c, context) => (seen.push(context), c !== 'jdoe') } },
    });
    expect(await engine.evaluate(jdoe(), { identity: john })).toBe('jdoe1');
    expect(seen[0]).toMatchObject({ sourceCheck: true, identityId: 'john' });
    expect(await engineWith(['jdoe'], { async: true }).engine.evaluate(jdoe(), { identity: john })).toBe('jdoe1');
    expect((await rejectionOf(engineWith(['jdoe', 'jdoe1'], { async: true }).engine.evaluate(jdoe({ cloudMaxUniqueChecks: 2 }), { identity: john }))).code).toBe(
      'EVAL_ILLEGAL_STATE',
    );
  });

  it('needs a uniqueness provider', () => {
    expect(codedErrorOf(() => createEngine().evaluateSync(jdoe(), { identity: john })).code).toBe('EVAL_PROVIDER_MISSING');
  });

  it.each([
    [{ patterns: ['$a${uniqueCounter}', '$a'] }, '/attributes/patterns/0'], // the counter pattern must be last
    [{ patterns: ['$a'], cloudMaxUniqueChecks: 51 }, '/attributes/cloudMaxUniqueChecks'], // documented maximum 50
  ])('%j is rejected at compile time', (attributes, path) => {
    const error = codedErrorOf(() => engineWith([]).engine.compile(gen({ a: 'x', ...attributes })));
    expect(error.code).toBe('COMPILE_INVALID_ATTRIBUTE');
    expect(error.path).toBe(path);
  });

  returnsValueOrCodedError('usernameGenerator', ['patterns', 'sourceCheck', 'cloudMaxSize', 'cloudMaxUniqueChecks', 'fn']);
});
