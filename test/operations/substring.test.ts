import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { IDENTITIES, codedErrorOf, tenantEngine } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine();
const sub = (attributes: Record<string, unknown>) => ({ name: 's', type: 'substring', attributes });

describe('substring', () => {
  it.each([
    [{ begin: 4 }, 'abcdef', 'ef'], // substring#0
    [{ begin: 2, end: 4 }, 'abcdef', 'cd'], // substring#2
    [{ begin: 1, end: 3, beginOffset: 1, endOffset: 2 }, 'abcdef', 'cde'], // substring#3
    [{ begin: 0, end: 1 }, 'Lewis', 'L'], // temporary-password guide: first character
    [{ begin: 1 }, 'hamilton', 'amilton'], // the rest of the string
    [{ begin: -1, end: 2 }, 'abcdef', 'ab'], // begin -1 means 0
    [{ begin: -1, beginOffset: 3, end: 2 }, 'abcdef', 'ab'], // beginOffset ignored with the sentinel
    [{ begin: 1, end: -1, endOffset: 5 }, 'abcdef', 'bcdef'], // end -1: to the end, endOffset ignored
    [{ begin: 2.0, end: -1.0 }, 'abcdef', 'cdef'], // numbers as doubles (list responses)
    [{ begin: 3, end: 3 }, 'abcdef', ''],
  ])('%j on %j → %j', (attributes, input, expected) => {
    expect(engine.evaluateSync(sub(attributes), { input })).toBe(expected);
  });

  it('"Calculate Partners State": begin is a nested indexOf on the same input', () => {
    const t = sub({ input: 'Austin, TX', begin: { type: 'indexOf', attributes: { substring: ',' } }, beginOffset: 2.0, end: -1.0 });
    expect(engine.evaluateSync(t)).toBe('TX');
  });

  it('provisioning-policy guide, corrected to begin (the doc writes "start"): johndoe12Rt4e!', () => {
    const tenant = tenantEngine();
    const identity = { ...IDENTITIES[0]!, attributes: { firstName: 'john', lastName: 'doe', hireDate: '2023-12-13' } };
    const t = {
      name: 'pw',
      type: 'concat',
      attributes: {
        values: [
          { type: 'identityAttribute', attributes: { name: 'firstName' } },
          { type: 'identityAttribute', attributes: { name: 'lastName' } },
          { type: 'substring', attributes: { input: { type: 'identityAttribute', attributes: { name: 'hireDate' } }, begin: 5, end: 7 } },
          { type: 'static', attributes: { value: 'Rt4e!' } },
        ],
      },
    };
    expect(tenant.evaluateSync(t, { identity })).toBe('johndoe12Rt4e!');
  });

  it.each([
    [{ begin: 2, end: 10 }, 'abc'],
    [{ begin: 3, end: 1 }, 'abcdef'],
    [{ begin: -2 }, 'abc'],
    [{ begin: 5 }, 'abc'],
  ])('%j on %j is StringIndexOutOfBoundsException', (attributes, input) => {
    const error = codedErrorOf(() => engine.evaluateSync(sub(attributes), { input }));
    expect(error.code).toBe('EVAL_INDEX_OUT_OF_BOUNDS');
    expect(error.path).toBe('');
  });

  it('null input gives null', () => {
    expect(engine.evaluateSync(sub({ begin: 0 }), { input: null })).toBeNull();
  });

  returnsValueOrCodedError('substring', ['input', 'begin', 'beginOffset', 'end', 'endOffset']);
});
