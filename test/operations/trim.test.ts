import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine();
const trim = (attributes: Record<string, unknown> = {}) => ({ name: 't', type: 'trim', attributes });

describe('trim (Java String.trim)', () => {
  it.each([
    [' Vice President', 'Vice President'], // trim#2
    ['Austin, Texas ', 'Austin, Texas'], // trim#3
    ['\t\r\n x \u0000', 'x'],
    ['\u00a0kept\u00a0', '\u00a0kept\u00a0'], // NBSP is not <= U+0020
    ['   ', ''],
  ])('%j → %j', (value, expected) => {
    expect(engine.evaluateSync(trim(), { input: value })).toBe(expected);
  });

  it('trims an explicit input', () => {
    expect(engine.evaluateSync(trim({ input: { type: 'static', attributes: { value: ' Vice President' } } }))).toBe('Vice President');
  });

  it('null stays null', () => {
    expect(engine.evaluateSync(trim(), { input: null })).toBeNull();
  });

  returnsValueOrCodedError('trim', ['input']);
});
