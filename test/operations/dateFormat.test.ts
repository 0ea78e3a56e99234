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
    [{}, '2020-10-28T12:00:00.000Z', '2020-10-28T12:00:00.000Z'], // both default to ISO8601
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

  it('does not read "now" (the docs): null, as any input its format cannot read', () => {
    expect(engine.evaluateSync(df({}), { input: 'now' })).toBeNull();
  });

  // Observed on a tenant (docs/decisions.md, "Dates"): an input the input format cannot read is
  // null, not an error; ISO8601 reads only yyyy-MM-dd'T'HH:mm:ss.SSSX, as SimpleDateFormat does.
  it.each([
    [{ inputFormat: 'MM/dd/yyyy' }, '2020-10-28'],
    [{ inputFormat: 'MM/dd/yyyy' }, 'notadate'],
    [{ inputFormat: 'EPOCH_TIME_JAVA' }, '12.5'],
    [{ inputFormat: 'ISO8601' }, '2020-10-28T12:00:00Z'],
    [{ inputFormat: 'ISO8601' }, '2020-10-28'],
    [{ inputFormat: 'ISO8601' }, '2020-10-28T12:00:00+02:00'],
    [{}, '2020-10-28T12:00'],
  ])('%j cannot read %j: null', (attributes, input) => {
    expect(engine.evaluateSync(df(attributes), { input })).toBeNull();
  });

  it.each([
    ['2020-10-28T12:00:00.000+02:00', '2020-10-28T10:00:00.000Z'],
    ['2020-10-28T12:00:00.5Z', '2020-10-28T12:00:00.005Z'],
  ])('ISO8601 reads what its pattern reads, as SimpleDateFormat (checked against JDK 17): %j → %j', (input, expected) => {
    expect(engine.evaluateSync(df({}), { input })).toBe(expected);
  });

  it('a date beyond what a JavaScript date holds stays a coded error (D3), not null', () => {
    expect(codedErrorOf(() => engine.evaluateSync(df({ inputFormat: 'EPOCH_TIME_JAVA' }), { input: '9000000000000000000' })).code).toBe('EVAL_DATE_PARSE');
  });

  it('prints the zone as GMT, the platform\'s zone (observed on a tenant)', () => {
    expect(engine.evaluateSync(df({ inputFormat: 'MM/dd/yyyy', outputFormat: 'yyyy-MM-dd HH:mm z|zzzz|Z|X' }), { input: '03/29/2026' })).toBe(
      '2026-03-29 00:00 GMT|Greenwich Mean Time|+0000|Z',
    );
  });

  it('an illegal pattern is rejected at compile time, at the attribute', () => {
    const error = codedErrorOf(() => engine.compile(df({ inputFormat: 'yyyy-qq' })));
    expect(error.code).toBe('COMPILE_INVALID_ATTRIBUTE');
    expect(error.path).toBe('/attributes/inputFormat');
  });

  returnsValueOrCodedError('dateFormat', ['input', 'inputFormat', 'outputFormat']);
});
