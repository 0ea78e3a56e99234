// The evaluation of a profile's attributes (engine/evaluation.ts AttributeEvaluation): one
// evaluation object per identity, begun again for each attribute, gives each attribute its own
// $attributeDefinition, $oldValue, step count and instant, exactly as an evaluation per attribute
// (the closures, `codegen: false`) does — whichever attributes read their variables, in any order.

import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import type { Identity } from '../../src/providers/types.js';

const identity: Identity = { id: 'i1', name: 'jdoe', attributes: { a: 'old a', c: 'old c', d: null } };

function profile(...mappings: [string, unknown, string?][]) {
  return {
    identityAttributeConfig: {
      attributeTransforms: mappings.map(([identityAttributeName, transformDefinition, evaluatedAs]) => ({
        identityAttributeName,
        transformDefinition,
        ...(evaluatedAs === undefined ? {} : { evaluatedAs }),
      })),
    },
  };
}

const variables = { type: 'static', attributes: { value: '$attributeDefinition.name:#if($oldValue)$oldValue#{else}none#end' } };
const plain = { type: 'static', attributes: { value: 'plain' } };
const split = { type: 'split', attributes: { delimiter: ' ', index: 1, input: { type: 'static', attributes: { value: '$oldValue' } } } };

describe('attribute evaluations', () => {
  it.each([true, false])('each attribute reads its own $attributeDefinition and $oldValue (codegen: %s)', (codegen) => {
    const engine = createEngine({ codegen });
    const result = engine.evaluateProfileSync(
      profile(['a', variables], ['b', plain], ['c', variables], ['d', variables], ['e', split, 'c'], ['f', plain], ['g', variables, 'a']),
      identity,
    );
    // d has no old value: with strict references, $oldValue is not defined for it alone.
    expect(result).toEqual({
      attributes: { a: 'a:old a', b: 'plain', c: 'c:old c', d: null, e: 'c', f: 'plain', g: 'a:old a' },
      errors: [
        {
          attribute: 'd',
          code: 'TEMPLATE_RENDER',
          message: 'Error rendering template: $oldValue is not defined at line 1, column 27',
          path: '/identityAttributeConfig/attributeTransforms/3/transformDefinition',
        },
      ],
    });
  });

  it('steps are counted per attribute: a limit reached by one attribute leaves the next one whole', () => {
    const deep = { type: 'upper', attributes: { input: { type: 'lower', attributes: { input: { type: 'trim', attributes: { input: 'x' } } } } } };
    for (const codegen of [true, false]) {
      const engine = createEngine({ codegen, limits: { maxSteps: 3 } });
      const result = engine.evaluateProfileSync(profile(['a', deep], ['b', deep], ['c', { type: 'upper', attributes: { input: deep } }], ['d', deep]), identity);
      expect(result.attributes).toEqual({ a: 'X', b: 'X', c: null, d: 'X' });
      expect(result.errors.map((e) => [e.attribute, e.code])).toEqual([['c', 'EVAL_STEP_LIMIT']]);
    }
  });
});
