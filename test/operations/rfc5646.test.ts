import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine();
const rfc = (attributes: Record<string, unknown> = {}) => ({ name: 'r', type: 'rfc5646', attributes });

describe('rfc5646 (agreement with the published table in test/runtime/locale.test.ts)', () => {
  it.each([
    ['Spanish', 'es'], // rfc-5646#2
    ['SPA', 'es'],
    ['Spanish (Mexico)', 'es_MX'],
    ['Hebrew (Israel)', 'iw_IL'],
    ['Serbian (Cyrillic) (Bosnia and Herzegovina)', 'sr_BA_#Cyrl'],
  ])('%j → %j', (input, expected) => {
    expect(engine.evaluateSync(rfc(), { input })).toBe(expected);
  });

  it.each([['Klingonese'], ['Spanish (Atlantis)'], [''], [null]])('%j is not valid → null', (input) => {
    expect(engine.evaluateSync(rfc(), { input })).toBeNull();
  });

  returnsValueOrCodedError('rfc5646', ['input']);
});
