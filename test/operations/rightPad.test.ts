import { describe, expect, it } from 'vitest';
import { IDENTITIES, codedErrorOf, tenantEngine } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = tenantEngine();
const pad = (attributes: Record<string, unknown>) => ({ name: 'p', type: 'rightPad', attributes });

describe('rightPad (Apache Commons StringUtils.rightPad)', () => {
  it.each([
    [{ padding: '0', length: '8' }, '1234', '12340000'], // right-pad#2
    [{ padding: 'x', length: '7' }, '1234', '1234xxx'], // right-pad#3
    [{ padding: 'ab', length: 9 }, '1234', '1234ababa'], // multi-char padding repeats and is cut
    [{ length: 8.0 }, '1234', '1234    '], // default padding: one space
    [{ padding: '', length: '8' }, '1234', '1234    '], // empty padding means a space
    [{ padding: '0', length: 2 }, '1234', '1234'], // longer input is unchanged
    [{ padding: '0', length: 0 }, '', ''],
  ])('%j on %j → %j', (attributes, input, expected) => {
    expect(engine.evaluateSync(pad(attributes), { input })).toBe(expected);
  });

  it('null input gives null (documented)', () => {
    expect(engine.evaluateSync(pad({ length: 8 }), { input: null })).toBeNull();
  });

  it('pads an explicit input from an account (right-pad#3 shape)', () => {
    const input = { type: 'accountAttribute', attributes: { sourceName: 'HR Source', attributeName: 'FirstName' } };
    expect(engine.evaluateSync(pad({ padding: '.', length: 6, input }), { identity: IDENTITIES[0]! })).toHaveLength(6);
  });

  it.each([
    [{ length: -1 }, 'COMPILE_INVALID_ATTRIBUTE'],
    [{ length: 'eight' }, 'SCHEMA_TYPE'],
    [{ length: 2.5 }, 'SCHEMA_TYPE'],
    [{}, 'SCHEMA_REQUIRED'],
  ])('%j is rejected at compile time: %s', (attributes, code) => {
    const error = codedErrorOf(() => engine.compile(pad(attributes)));
    expect({ code: error.code, path: error.path }).toEqual({ code, path: '/attributes/length' });
  });

  returnsValueOrCodedError('rightPad', ['input', 'length', 'padding']);
});
