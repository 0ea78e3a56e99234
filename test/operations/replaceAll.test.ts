import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { codedErrorOf } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine();
const ra = (attributes: Record<string, unknown>) => ({ name: 'r', type: 'replaceAll', attributes });

describe('replaceAll', () => {
  it.each([
    // replace-all#0 (corrected): the table that produces the documented output
    [{ table: { '-': ' ', '"': "'", ñ: 'n' } }, 'Enrique Jose-Piñon', 'Enrique Jose Pinon'],
    // replace-all#3 (corrected): the documented input, without the doc's stray "input": ""
    [{ table: { '[.]': '-', '[a-zA-z]': '' } }, 'ad512.777.1234', '512-777-1234'],
    // replace-all#2 as written: "." is a regex and matches every character
    [{ table: { '.': '-' } }, 'abc', '---'],
    // pairs apply in table order, each to the previous result
    [{ table: { a: 'b', b: 'c' } }, 'ab', 'cc'],
    [{ table: { '(\\w+)@(\\w+)': '$2 at $1' } }, 'me@home', 'home at me'],
  ])('%j on %j → %j', (attributes, input, expected) => {
    expect(engine.evaluateSync(ra(attributes), { input })).toBe(expected);
  });

  it('returns the input unchanged without a table, or with an empty one (docs, 2026-05)', () => {
    expect(engine.evaluateSync(ra({}), { input: 'same' })).toBe('same');
    expect(engine.evaluateSync(ra({ table: {} }), { input: 'same' })).toBe('same');
  });

  it('null input gives null', () => {
    expect(engine.evaluateSync(ra({ table: { a: 'b' } }), { input: null })).toBeNull();
  });

  it('an invalid regex key is rejected at compile time, at its table entry', () => {
    const error = codedErrorOf(() => engine.compile(ra({ table: { '([a-z]': 'x' } })));
    expect(error.code).toBe('REGEX_SYNTAX');
    expect(error.path).toBe('/attributes/table/([a-z]');
  });

  returnsValueOrCodedError('replaceAll', ['input', 'table']);
});
