import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine();
const upper = (attributes: Record<string, unknown> = {}) => ({ name: 'u', type: 'upper', attributes });

describe('upper', () => {
  it.each([
    ['inactive', 'INACTIVE'], // upper#2
    ['Everyone', 'EVERYONE'], // upper#3
    ['straße', 'STRASSE'], // root locale, ß → SS
    ['istanbul', 'ISTANBUL'], // no Turkish dotted İ
  ])('%j → %j', (value, expected) => {
    expect(engine.evaluateSync(upper({ input: { type: 'static', attributes: { value } } }))).toBe(expected);
  });

  it('null stays null; numbers use their text', () => {
    expect(engine.evaluateSync(upper(), { input: null })).toBeNull();
    expect(engine.evaluateSync(upper(), { input: 12 })).toBe('12');
  });

  returnsValueOrCodedError('upper', ['input']);
});
