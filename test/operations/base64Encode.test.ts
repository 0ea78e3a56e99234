import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine();
const enc = (attributes: Record<string, unknown> = {}) => ({ name: 'e', type: 'base64Encode', attributes });

describe('base64Encode', () => {
  it.each([
    ['1234', 'MTIzNA=='], // base64-encode#2
    ['', ''],
    ['Dubçek', 'RHViw6dlaw=='], // UTF-8 bytes
  ])('%j → %j', (input, expected) => {
    expect(engine.evaluateSync(enc(), { input })).toBe(expected);
  });

  it('null input gives null (documented)', () => {
    expect(engine.evaluateSync(enc(), { input: null })).toBeNull();
  });

  it('encodes an explicit input, and numbers by their text', () => {
    expect(engine.evaluateSync(enc({ input: 'abc' }))).toBe('YWJj');
    expect(engine.evaluateSync(enc(), { input: 1234 })).toBe('MTIzNA==');
  });

  returnsValueOrCodedError('base64Encode', ['input']);
});
