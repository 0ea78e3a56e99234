// Failures that are not built until reported (src/errors/index.ts Failure): the generated code and
// the closures raise them where a transform fails, firstValid's ignoreErrors discards them without
// ever building an Error, and wherever one is reported — evaluate's error, a profile's errors (what
// refresh and the server's preview write), explain's trace — it is the coded error it always was.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { Failure, TransformsError } from '../../src/errors/index.js';
import { createMemoryProviders } from '../../src/providers/memory.js';
import type { Identity } from '../../src/providers/types.js';

const region = { name: 'Region', type: 'lookup', attributes: { table: { LON: 'uk' } } };
const providers = {
  ...createMemoryProviders({ sources: [], identities: [], accounts: [] }),
  transforms: { getTransform: (name: string) => (name === 'Region' ? region : null) },
};
const identity = { id: 'i1', name: 'jdoe', attributes: { location: 'PAR' } } as Identity;
const managerDn = { type: 'static', attributes: { value: '$identity.manager.attributes.networkDn' } };
const transforms = {
  reference: { name: 'b', type: 'reference', attributes: { id: 'Region', input: { type: 'identityAttribute', attributes: { name: 'location' } } } },
  manager: { name: 'c', ...managerDn },
  conditional: { name: 'e', type: 'conditional', attributes: { expression: '$a eq x', positiveCondition: 'p', negativeCondition: 'n', a: { type: 'identityAttribute', attributes: { name: 'nothing' } } } },
  ignoring: { name: 'g', type: 'firstValid', attributes: { ignoreErrors: true, values: [{ type: 'reference', attributes: { id: 'Region' } }, managerDn, 'x'] } },
  strict: { name: 'f', type: 'firstValid', attributes: { values: [{ type: 'reference', attributes: { id: 'Region' } }, 'x'] } },
};
const profile = {
  identityAttributeConfig: { attributeTransforms: Object.entries(transforms).map(([name, t]) => ({ identityAttributeName: name, transformDefinition: t })) },
};

/** Everything a caller can see of an error. */
function seen(error: unknown): unknown {
  const e = error as TransformsError;
  return { isCoded: e instanceof TransformsError, json: e.toJSON(), status: e.status };
}

const noMatch = (key: string) => `no table key matches ${key} and the table has no default`;
const reported = {
  reference: {
    isCoded: true,
    status: 400,
    json: {
      code: 'EVAL_LOOKUP_NO_MATCH',
      message: `in referenced transform "Region": ${noMatch('"PAR"')}`,
      path: '/attributes/id',
      details: { transform: 'Region', transformPath: '/attributes/table' },
      cause: { code: 'EVAL_LOOKUP_NO_MATCH', message: noMatch('"PAR"'), path: '/attributes/table' },
    },
  },
  manager: {
    isCoded: true,
    status: 400,
    json: {
      code: 'TEMPLATE_RENDER',
      message: 'Error rendering template: $identity.manager.attributes.networkDn: a method or property was called on null at line 1, column 1',
      path: '',
      details: { line: 1, column: 1 },
    },
  },
  conditional: { isCoded: true, status: 400, json: { code: 'EVAL_ILLEGAL_ARGUMENT', message: 'conditional operand $a is null', path: '/attributes/a' } },
};

afterEach(() => vi.restoreAllMocks());

describe.each([true, false])('failures with codegen: %s', (codegen) => {
  const engine = createEngine({ codegen, providers });

  it.each(Object.keys(reported) as (keyof typeof reported)[])('%s: evaluate reports the coded error, thrown and rejected', async (name) => {
    let thrown: unknown;
    try {
      engine.evaluateSync(transforms[name], { identity });
    } catch (error) {
      thrown = error;
    }
    expect(seen(thrown)).toEqual(reported[name]);
    const rejected = await engine.evaluate(transforms[name], { identity }).then(() => undefined, (error: unknown) => error);
    expect(seen(rejected)).toEqual(reported[name]);
  });

  it('a profile reports each attribute\'s error by code, message and path', () => {
    expect(engine.evaluateProfileSync(profile, identity)).toEqual({
      attributes: { reference: null, manager: null, conditional: null, ignoring: 'x', strict: null },
      errors: [
        { attribute: 'reference', code: 'EVAL_LOOKUP_NO_MATCH', message: `in referenced transform "Region": ${noMatch('"PAR"')}`, path: '/identityAttributeConfig/attributeTransforms/0/transformDefinition/attributes/id' },
        { attribute: 'manager', code: 'TEMPLATE_RENDER', message: reported.manager.json.message, path: '/identityAttributeConfig/attributeTransforms/1/transformDefinition' },
        { attribute: 'conditional', code: 'EVAL_ILLEGAL_ARGUMENT', message: 'conditional operand $a is null', path: '/identityAttributeConfig/attributeTransforms/2/transformDefinition/attributes/a' },
        { attribute: 'strict', code: 'EVAL_LOOKUP_NO_MATCH', message: `in referenced transform "Region": ${noMatch('null')}`, path: '/identityAttributeConfig/attributeTransforms/4/transformDefinition/attributes/values/0/attributes/id' },
      ],
    });
  });
});

describe('a failure discarded', () => {
  it('by firstValid\'s ignoreErrors is never built into an error (generated code)', () => {
    const built = vi.spyOn(Failure.prototype, 'toError');
    const engine = createEngine({ codegen: true, providers });
    const ignoring = { identityAttributeConfig: { attributeTransforms: [{ identityAttributeName: 'ignoring', transformDefinition: transforms.ignoring }] } };
    expect(engine.evaluateProfileSync(ignoring, identity)).toEqual({ attributes: { ignoring: 'x' }, errors: [] });
    expect(engine.evaluateSync(transforms.ignoring, { identity })).toBe('x');
    expect(built).not.toHaveBeenCalled();
  });

  it('is built once where it is reported', () => {
    const built = vi.spyOn(Failure.prototype, 'toError');
    const engine = createEngine({ codegen: true, providers });
    expect(() => engine.evaluateSync(transforms.strict, { identity })).toThrow(TransformsError);
    // The reference's failure and the lookup's failure it was caused by.
    expect(built).toHaveBeenCalledTimes(2);
  });
});

describe('explain', () => {
  it('shows the failures of the nodes as the coded errors they stand for', () => {
    const engine = createEngine({ providers });
    const inReference = { code: 'EVAL_LOOKUP_NO_MATCH', message: `in referenced transform "Region": ${noMatch('null')}`, path: '/attributes/values/0/attributes/id' };
    expect(engine.explain(transforms.strict, { identity })).toEqual({
      error: inReference,
      trace: {
        type: 'firstValid',
        pointer: '',
        input: null,
        children: [
          {
            type: 'reference',
            pointer: '/attributes/values/0',
            input: null,
            children: [
              {
                type: 'lookup',
                pointer: '',
                transform: 'Region',
                input: null,
                children: [],
                decisions: { key: null, matched: false, usedDefault: false },
                error: { code: 'EVAL_LOOKUP_NO_MATCH', message: noMatch('null'), path: '/attributes/table' },
              },
            ],
            decisions: { transform: 'Region' },
            error: inReference,
          },
        ],
        error: inReference,
      },
    });
  });
});
