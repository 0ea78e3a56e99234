import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { codedErrorOf } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine({ clock: () => new Date('2026-01-15T12:00:00Z') });
const df = (attributes: Record<string, unknown>) => ({ name: 'd', type: 'dateFormat', attributes });

describe('dateFormat (decisions in docs/decisions.md)', () => {
  it.each([
    [{ inputFormat: 'M/d/yyyy', outputFormat: 'yyyy-MM-dd' }, '4/1/1975', '1975-04-01'], // date-format#3
    // date-format#2: the doc prints "…190-00"; decision "ISO8601 Z vs X" prints "…190Z"
    [{ inputFormat: 'EPOCH_TIME_JAVA', outputFormat: 'ISO8601' }, '144642632190', '1974-08-02T02:30:32.190Z'],
    [{}, '2020-10-28T12:00:00Z', '2020-10-28T12:00:00.000Z'], // both default to ISO8601
    [{ inputFormat: "yyyy-MM-dd'T'HH:mm", outputFormat: 'EPOCH_TIME_WIN32' }, '2020-10-29T12:00', '132484464000000000'],
    [{ inputFormat: 'PEOPLE_SOFT', outputFormat: 'LDAP' }, '10/28/2020', '20201028000000.+0000'],
    [{ inputFormat: 'LDAP', outputFormat: 'yyyy-MM-dd HH:mm' }, '20201028120000.0Z', '2020-10-28 12:00'],
    [{ inputFormat: 'YYYY-MM-dd', outputFormat: 'ISO8601' }, '2023-11-09', '2023-11-09T00:00:00.000Z'], // lifecycle guide
    [{ inputFormat: 'dd MMM yy', outputFormat: 'EEEE d MMMM yyyy' }, '05 mar 24', 'Tuesday 5 March 2024'],
  ])('%j: %j → %j', (attributes, input, expected) => {
    expect(engine.evaluateSync(df(attributes), { input })).toBe(expected);
  });

  it('null input gives null', () => {
    expect(engine.evaluateSync(df({ inputFormat: 'ISO8601' }), { input: null })).toBeNull();
  });

  it('does not accept "now" (the docs)', () => {
    expect(codedErrorOf(() => engine.evaluateSync(df({}), { input: 'now' })).code).toBe('EVAL_DATE_PARSE');
  });

  it('an unparseable date is EVAL_DATE_PARSE with the position', () => {
    const error = codedErrorOf(() => engine.evaluateSync(df({ inputFormat: 'MM/dd/yyyy' }), { input: '2020-10-28' }));
    expect(error.code).toBe('EVAL_DATE_PARSE');
    expect(error.details).toMatchObject({ pattern: 'MM/dd/yyyy', position: 4 });
  });

  it('an illegal pattern is rejected at compile time, at the attribute', () => {
    const error = codedErrorOf(() => engine.compile(df({ inputFormat: 'yyyy-qq' })));
    expect(error.code).toBe('COMPILE_INVALID_ATTRIBUTE');
    expect(error.path).toBe('/attributes/inputFormat');
  });

  returnsValueOrCodedError('dateFormat', ['input', 'inputFormat', 'outputFormat']);
});
