import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { codedErrorOf } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine();
const dec = (attributes: Record<string, unknown> = {}) => ({ name: 'd', type: 'base64Decode', attributes });

describe('base64Decode', () => {
  it.each([
    ['MTIzNA==', '1234'], // base64-decode#2
    ['MTIzNA', '1234'], // padding may be omitted, as java.util.Base64 allows
    ['RHViw6dlaw==', 'Dubçek'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(engine.evaluateSync(dec(), { input })).toBe(expected);
  });

  it('null input gives null (documented)', () => {
    expect(engine.evaluateSync(dec(), { input: null })).toBeNull();
  });

  it.each(['not base64!', 'MTIz NA==', 'M'])('malformed %j is IllegalArgumentException, located at the transform', (input) => {
    const error = codedErrorOf(() => engine.evaluateSync(dec(), { input }));
    expect(error.code).toBe('EVAL_ILLEGAL_ARGUMENT');
    expect(error.path).toBe('');
  });

  it('round-trips with base64Encode', () => {
    const t = dec({ input: { type: 'base64Encode', attributes: { input: 'José Ortega y Gasset' } } });
    expect(engine.evaluateSync(t)).toBe('José Ortega y Gasset');
  });

  returnsValueOrCodedError('base64Decode', ['input']);
});
