import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine();
const lower = (attributes: Record<string, unknown> = {}) => ({ name: 'l', type: 'lower', attributes });
const stat = (value: string) => ({ type: 'static', attributes: { value } });

describe('lower', () => {
  it.each([
    [lower({ input: stat('ACTIVE') }), undefined, 'active'], // lower#2
    [lower({ input: stat('All-Access') }), undefined, 'all-access'], // lower#3
    [lower(), 'Foo', 'foo'], // overview:lower
    [lower({ input: { type: 'concat', attributes: { values: ['Foo', 'Bar'] } } }), undefined, 'foobar'], // overview:nested-lower-concat
    [lower(), 'İSTANBUL', 'i̇stanbul'], // root locale: İ → i + combining dot, as Java
    [lower(), 'ΟΔΟΣ', 'οδος'], // final sigma
  ])('%# → %j', (t, input, expected) => {
    expect(engine.evaluateSync(t, input === undefined ? {} : { input })).toBe(expected);
  });

  it('null stays null', () => {
    expect(engine.evaluateSync(lower(), { input: null })).toBeNull();
  });

  returnsValueOrCodedError('lower', ['input']);
});
