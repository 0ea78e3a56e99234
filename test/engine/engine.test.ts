import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { isCodedFailure, reported, TransformsError } from '../../src/index.js';
import { defineOperation, attributesSchema } from '../../src/operations/spec.js';
import { IDENTITIES, codedErrorOf, rejectionOf, tenantEngine } from '../helpers.js';

const john = IDENTITIES[0]!;

/** The test tenant behind providers that answer with promises. */
function asyncTenantEngine() {
  const sync = tenantEngine().providers;
  return createEngine({
    providers: {
      sources: { resolveSource: async (r) => sync.sources!.resolveSource(r) },
      accounts: { listAccounts: async (q) => sync.accounts!.listAccounts(q) },
      identities: { getIdentity: async (id) => sync.identities!.getIdentity(id) },
    },
  });
}

describe('createEngine options', () => {
  it.each([
    [{ nope: 1 }, 'ENGINE_OPTION_UNKNOWN'],
    [{ limits: { maxDepth: 0 } }, 'ENGINE_OPTION_INVALID'],
    [{ limits: { depth: 3 } }, 'ENGINE_OPTION_UNKNOWN'],
    [{ clock: 'now' }, 'ENGINE_OPTION_INVALID'],
    [{ providers: { accountz: {} } }, 'ENGINE_OPTION_UNKNOWN'],
    [{ rules: { x: 3 } }, 'ENGINE_OPTION_INVALID'],
  ])('rejects %j with %s', (options, code) => {
    expect(codedErrorOf(() => createEngine(options as never)).code).toBe(code);
  });

  // lru-cache allocates a cache's slots up front at its first value: a size of 2^32 threw a
  // RangeError at the first evaluation, one of 10^8 allocated gigabytes there.
  it.each([2 ** 32, 2 ** 60, 100_000_000])('refuses a cache size of %d before any evaluation, with its bound', (size) => {
    const error = codedErrorOf(() => createEngine({ cacheSizes: { transforms: size } }));
    expect([error.code, error.message]).toEqual(['ENGINE_OPTION_INVALID', 'cacheSizes.transforms must be a positive integer of at most 1000000']);
  });

  // Keys an object inherits are not limits: `toString: 5` was taken as a limit, and a JSON
  // `__proto__` member was checked against Object.prototype as its maximum.
  it.each(['toString', 'constructor', 'hasOwnProperty', '__proto__'])('refuses %s as a limit or cache size, as any unknown key', (key) => {
    for (const option of ['limits', 'cacheSizes']) {
      const error = codedErrorOf(() => createEngine(JSON.parse(`{"${option}":{"${key}":5}}`) as never));
      expect([error.code, error.message]).toEqual(['ENGINE_OPTION_UNKNOWN', `unknown ${option} key "${key}"`]);
    }
    const perCall = codedErrorOf(() => createEngine().evaluateSync({ name: 'x', type: 'static', attributes: { value: 'v' } }, { limits: JSON.parse(`{"${key}":5}`) as never }));
    expect([perCall.code, perCall.message]).toEqual(['ENGINE_OPTION_UNKNOWN', `unknown limits key "${key}"`]);
  });

  it('rejects an operation type registered twice', () => {
    const dup = defineOperation({ type: 'lower', doc: 'dup', attributesRequired: false, attributesSchema: attributesSchema({}) });
    expect(codedErrorOf(() => createEngine({ operations: [dup] })).code).toBe('ENGINE_DUPLICATE_OPERATION');
  });

  it('registers all 35 platform types plus join', () => {
    expect(createEngine().registry.size).toBe(36);
  });
});

describe('compile', () => {
  it('compiles once per canonical JSON (key order does not matter)', () => {
    const engine = createEngine();
    const a = engine.compile({ name: 'x', type: 'static', attributes: { value: 'v', other: 'o' } });
    const b = engine.compile({ attributes: { other: 'o', value: 'v' }, type: 'static', name: 'x' });
    expect(a).toBe(b);
    expect(engine.cacheStats().transforms).toMatchObject({ hits: 1, misses: 1 });
  });

  it('throws the first schema issue as a coded error with its pointer', () => {
    const error = codedErrorOf(() => createEngine().compile({ name: 'x', type: 'lookup', attributes: { table: {}, tabel: {} } }));
    expect(error.code).toBe('SCHEMA_UNKNOWN_PROPERTY');
    expect(error.path).toBe('/attributes/tabel');
  });

  it('fails evaluation of an operation without evaluator with a coded error', () => {
    const op = defineOperation({ type: 'custom', doc: 'no evaluator', attributesRequired: false, attributesSchema: attributesSchema({}) });
    const engine = createEngine({ operations: [op] });
    const error = codedErrorOf(() => engine.evaluateSync({ name: 'c', type: 'custom', attributes: {} }));
    expect(error.code).toBe('EVAL_NOT_EVALUABLE');
    expect(error.path).toBe('');
  });
});

describe('an operation defined outside the engine', () => {
  // `orElse`: its child's value, or "caught CODE@path" when the child fails with a coded
  // failure; `rethrow: true` passes the failure on, built into its error with `reported`.
  const orElse = defineOperation({
    type: 'orElse',
    doc: 'the child value or what failed',
    attributesRequired: true,
    attributesSchema: attributesSchema({ properties: { value: { type: 'object' }, rethrow: { type: 'boolean' } }, required: ['value'] }),
    compile(ctx) {
      const child = ctx.value('value')!;
      const rethrow = ctx.attributes.rethrow === true;
      return (input, ev) => {
        try {
          return child(input, ev);
        } catch (error) {
          if (!isCodedFailure(error)) throw error;
          if (rethrow) throw reported(error);
          return `caught ${error.code}@${error.path}`;
        }
      };
    },
  });
  const failing = { type: 'lookup', attributes: { table: { a: 'A' } } };

  it("sees a child's failure with its code and path through isCodedFailure", () => {
    const engine = createEngine({ operations: [orElse] });
    expect(engine.evaluateSync({ name: 'o', type: 'orElse', attributes: { value: failing } }, { input: 'zzz' })).toBe(
      'caught EVAL_LOOKUP_NO_MATCH@/attributes/value/attributes/table',
    );
  });

  it('passes a failure on as the TransformsError the caller sees', () => {
    const engine = createEngine({ operations: [orElse] });
    const error = codedErrorOf(() => engine.evaluateSync({ name: 'o', type: 'orElse', attributes: { value: failing, rethrow: true } }, { input: 'zzz' }));
    expect(error).toBeInstanceOf(TransformsError);
    expect(error.code).toBe('EVAL_LOOKUP_NO_MATCH');
    expect(error.path).toBe('/attributes/value/attributes/table');
  });
});

describe('input rules', () => {
  const engine = createEngine();
  it('feeds the implicit input to a transform without input', () => {
    expect(engine.evaluateSync({ name: 'x', type: 'lookup', attributes: { table: { a: 'A', default: 'D' } } }, { input: 'a' })).toBe('A');
  });
  it('lets an explicit input win over the implicit one', () => {
    const t = { name: 'x', type: 'lookup', attributes: { input: 'a', table: { a: 'A', b: 'B' } } };
    expect(engine.evaluateSync(t, { input: 'b' })).toBe('A');
  });
  it('gives a nested transform without input the input of the transform that contains it', () => {
    const t = {
      name: 'x',
      type: 'lookup',
      attributes: { input: { type: 'lookup', attributes: { table: { b: 'a' } } }, table: { a: 'nested saw b' } },
    };
    expect(engine.evaluateSync(t, { input: 'b' })).toBe('nested saw b');
  });
});

describe('evaluation limits and errors', () => {
  it('stops at maxSteps with EVAL_STEP_LIMIT', () => {
    const engine = createEngine({ limits: { maxSteps: 3 } });
    const values = Array.from({ length: 5 }, () => ({ type: 'trim' }));
    const t = { name: 'x', type: 'firstValid', attributes: { values: [...values, 'end'] } };
    expect(codedErrorOf(() => engine.evaluateSync(t)).code).toBe('EVAL_STEP_LIMIT');
  });

  it('rejects deeper nesting than maxDepth at compile time', () => {
    let t: Record<string, unknown> = { type: 'static', attributes: { value: 'x' } };
    for (let i = 0; i < 10; i++) t = { type: 'firstValid', attributes: { values: [t] } };
    const engine = createEngine({ limits: { maxDepth: 5 } });
    expect(codedErrorOf(() => engine.compile({ name: 'deep', ...t })).code).toBe('COMPILE_TOO_DEEP');
  });

  it('locates an evaluation error at the innermost transform', () => {
    const engine = createEngine();
    const t = { name: 'x', type: 'firstValid', attributes: { values: [{ type: 'lookup', attributes: { table: { a: 'A' } } }] } };
    const error = codedErrorOf(() => engine.evaluateSync(t, { input: 'zzz' }));
    expect(error.code).toBe('EVAL_LOOKUP_NO_MATCH');
    expect(error.path).toBe('/attributes/values/0/attributes/table');
  });
});

describe('providers', () => {
  const t = { name: 'x', type: 'accountAttribute', attributes: { sourceName: 'HR Source', attributeName: 'empType' } };

  it('keeps a synchronous path when every provider is synchronous', () => {
    expect(tenantEngine().evaluateSync(t, { identity: john })).toBe('Employee');
  });

  it('accepts asynchronous providers through evaluate()', async () => {
    const engine = asyncTenantEngine();
    await expect(engine.evaluate(t, { identity: 'id-1' })).resolves.toBe('Employee');
    expect(codedErrorOf(() => engine.evaluateSync(t, { identity: john })).code).toBe('ENGINE_ASYNC_PROVIDER');
  });

  it('wraps a failing provider in EVAL_PROVIDER_FAILED with the cause chained', async () => {
    const engine = createEngine({
      providers: {
        sources: { resolveSource: () => ({ id: 's', name: 'HR Source' }) },
        accounts: { listAccounts: async () => { throw new Error('database down'); } },
      },
    });
    const error = await rejectionOf(engine.evaluate(t, { identity: john }));
    expect(error.code).toBe('EVAL_PROVIDER_FAILED');
    expect((error.cause as Error).message).toBe('database down');
  });

  it('resolves an identity id through the identity provider', async () => {
    await expect(tenantEngine().evaluate(t, { identity: 'id-1' })).resolves.toBe('Employee');
    const error = await rejectionOf(tenantEngine().evaluate(t, { identity: 'nobody' }));
    expect(error.code).toBe('EVAL_NO_IDENTITY');
    expect(error.message).toBe('no identity with id or name "nobody"');
  });

  it('resolves an identity name as the CLI\'s --identity does: the id first, then the name', async () => {
    await expect(tenantEngine().evaluate(t, { identity: john.name })).resolves.toBe('Employee');
    expect(tenantEngine().explain(t, { identity: john.name }).value).toBe('Employee');
  });

  it('suggests the provider key an unknown one is a typo of', () => {
    expect(codedErrorOf(() => createEngine({ providers: { acounts: {} } as never })).message).toBe('unknown provider "acounts"; did you mean "accounts"?');
  });
});

describe('per-evaluation state', () => {
  it('reads the clock at most once per evaluation, and not at all when nothing asks for "now"', () => {
    let reads = 0;
    const engine = createEngine({ clock: () => new Date(Date.UTC(2020, 0, 1, 0, 0, reads++)) });
    const now = { type: 'dateMath', attributes: { expression: 'now' } };
    const t = { name: 'x', type: 'concat', attributes: { values: [now, '|', now] } };
    expect(engine.evaluateSync(t)).toBe('2020-01-01T00:00Z|2020-01-01T00:00Z');
    expect(reads).toBe(1);
    expect(engine.evaluateSync({ name: 's', type: 'static', attributes: { value: 'plain' } })).toBe('plain');
    expect(reads).toBe(1);
    engine.evaluateSync(t);
    expect(reads).toBe(2);
  });

  it('counts steps per evaluation: a transform that fits maxSteps fits it every time', () => {
    const engine = createEngine({ limits: { maxSteps: 3 } });
    const t = { name: 'x', type: 'upper', attributes: { input: { type: 'trim', attributes: { input: { type: 'lower' } } } } };
    for (let i = 0; i < 3; i++) expect(engine.evaluateSync(t, { input: ' Ab ' })).toBe('AB');
  });

  it('shares the step counter with referenced transforms', () => {
    const saved = [{ name: 'Inner', type: 'upper', attributes: { input: { type: 'trim' } } }];
    const t = { name: 'x', type: 'reference', attributes: { id: 'Inner' } };
    expect(tenantEngine({ limits: { maxSteps: 3 } }, saved).evaluateSync(t, { input: ' a ' })).toBe('A');
    expect(codedErrorOf(() => tenantEngine({ limits: { maxSteps: 2 } }, saved).evaluateSync(t, { input: ' a ' })).code).toBe('EVAL_STEP_LIMIT');
  });

  it('renders a template whose dynamic variables and $identity come from asynchronous providers', async () => {
    const engine = asyncTenantEngine();
    const empType = { type: 'accountAttribute', attributes: { sourceName: 'HR Source', attributeName: 'empType' } };
    const t = { name: 's', type: 'static', attributes: { a: empType, b: 'fixed', value: '$a/$b/$identity.getName()' } };
    await expect(engine.evaluate(t, { identity: john })).resolves.toBe('Employee/fixed/john.doe');
    expect(codedErrorOf(() => engine.evaluateSync(t, { identity: john })).code).toBe('ENGINE_ASYNC_PROVIDER');
    const failing = { name: 's', type: 'static', attributes: { a: { ...empType, attributes: { ...empType.attributes, sourceName: 'Nope' } }, value: '$a' } };
    const error = await rejectionOf(engine.evaluate(failing, { identity: john }));
    expect(error.code).toBe('EVAL_UNKNOWN_SOURCE');
    expect(error.path).toBe('/attributes/a');
  });
});
