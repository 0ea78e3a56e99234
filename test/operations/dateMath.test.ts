import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { codedErrorOf } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine({ clock: () => new Date('2020-10-28T12:34:56.000Z') });
const dm = (attributes: Record<string, unknown>) => ({ name: 'm', type: 'dateMath', attributes });

describe('dateMath', () => {
  it.each([
    [{ expression: 'now-5d/d', roundUp: false }, undefined, '2020-10-23T00:00Z'], // date-math#2
    [{ expression: '+12h/s', roundUp: true }, '2020-10-28T12:00:00.500Z', '2020-10-29T00:00:01Z'], // date-math#3 candidate
    [{ expression: 'now' }, undefined, '2020-10-28T12:34:56Z'], // seconds printed when not zero (java.time)
    [{ expression: 'now/h', roundUp: 'true' }, undefined, '2020-10-28T13:00Z'],
    [{ expression: '+3M/h', roundUp: true }, '2020-11-30T10:20:00.000Z', '2021-02-28T11:00Z'], // date-math#0 shape
    [{ expression: '+1d', roundUp: true }, '2020-10-28T00:00:00.000Z', '2020-10-29T00:00Z'],
    // "now" wins over the input (the docs)
    [{ expression: 'now+1w' }, '1999-01-01T00:00:00Z', '2020-11-04T12:34:56Z'],
  ])('%j on %j → %j', (attributes, input, expected) => {
    expect(engine.evaluateSync(dm(attributes), input === undefined ? {} : { input })).toBe(expected);
  });

  it('feeds the documented chain dateMath → dateFormat (WD - HireDate, date-math#4)', () => {
    const t = {
      name: 'WD - HireDate',
      type: 'dateFormat',
      attributes: {
        input: {
          type: 'dateMath',
          attributes: {
            expression: '+1d',
            roundUp: true,
            input: { type: 'dateFormat', attributes: { inputFormat: 'MM/dd/yyyy', outputFormat: 'ISO8601' } },
          },
        },
        inputFormat: "yyyy-MM-dd'T'HH:mm",
        outputFormat: 'EPOCH_TIME_WIN32',
      },
    };
    // 06/15/2020 + 1 day (no rounding operator, so roundUp has nothing to do): 2020-06-16T00:00Z,
    // which yyyy-MM-dd'T'HH:mm reads (SimpleDateFormat ignores the Z after the pattern).
    expect(engine.evaluateSync(t, { input: '06/15/2020' })).toBe(String((Date.parse('2020-06-16T00:00:00Z') + 11644473600000) * 10000));
  });

  it('null input (without now) gives null', () => {
    expect(engine.evaluateSync(dm({ expression: '+1d' }), { input: null })).toBeNull();
  });

  it('an input that is not ISO 8601 is EVAL_DATE_PARSE', () => {
    expect(codedErrorOf(() => engine.evaluateSync(dm({ expression: '+1d' }), { input: '10/28/2020' })).code).toBe('EVAL_DATE_PARSE');
  });

  it.each(['now/w', '+1q', 'tomorrow', ''])('expression %j is rejected at compile time, at the attribute', (expression) => {
    const error = codedErrorOf(() => engine.compile(dm({ expression })));
    expect(error.code).toBe('COMPILE_INVALID_ATTRIBUTE');
    expect(error.path).toBe('/attributes/expression');
  });

  returnsValueOrCodedError('dateMath', ['input', 'expression', 'roundUp']);
});
