import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine();
const nn = (attributes: Record<string, unknown> = {}) => ({ name: 'n', type: 'normalizeNames', attributes });

describe('normalizeNames (algorithm in docs/decisions.md)', () => {
  it.each([
    ['jOHN VON SmITh', 'John von Smith'], // name-normalizer#2
    ["Dr. JOHN D. O'BRIEN", "Dr. John D. O'Brien"], // name-normalizer#3
    ['mac-donalds', 'Mac-donalds'], // the tenant's answer (vscode-sailpoint-identitynow #73)
    ['mc-donalds', 'Mc-donalds'],
    ['macdonalds', 'MacDonalds'],
    ['NEIL MC GLENNON', 'Neil McGlennon'],
    ['OSCAR DE LA HOYA', 'Oscar de la Hoya'],
    ['henry ford iii', 'Henry Ford III'],
  ])('%j → %j', (input, expected) => {
    expect(engine.evaluateSync(nn(), { input })).toBe(expected);
  });

  it('takes an explicit input (a nested static)', () => {
    expect(engine.evaluateSync(nn({ input: { type: 'static', attributes: { value: 'jOHN VON SmITh' } } }))).toBe('John von Smith');
  });

  it.each([[null], [''], ['   ']])('%j → null', (input) => {
    expect(engine.evaluateSync(nn(), { input })).toBeNull();
  });

  returnsValueOrCodedError('normalizeNames', ['input']);
});
