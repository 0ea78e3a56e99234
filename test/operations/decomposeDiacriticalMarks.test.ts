import { describe, expect, it } from 'vitest';
import { IDENTITIES, tenantEngine } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = tenantEngine();
const ddm = (attributes: Record<string, unknown> = {}) => ({ name: 'd', type: 'decomposeDiacriticalMarks', attributes });

describe('decomposeDiacriticalMarks (NFKD then strip \\p{InCombiningDiacriticalMarks})', () => {
  it.each([
    ['Āric', 'Aric'], // decompose-diacritical-marks#2
    ['Dubçek', 'Dubcek'], // decompose-diacritical-marks#3
    ['Crème Brûlée', 'Creme Brulee'],
    ['Łódź', 'Łodz'], // Ł has no decomposition
    ['ﬁnance', 'finance'], // compatibility folding of NFKD
  ])('%j → %j', (input, expected) => {
    expect(engine.evaluateSync(ddm(), { input })).toBe(expected);
  });

  it('reads a nested input and keeps null as null', () => {
    const t = ddm({ input: { type: 'identityAttribute', attributes: { name: 'firstname' } } });
    expect(engine.evaluateSync(t, { identity: { ...IDENTITIES[0]!, attributes: { firstname: 'Zoë' } } })).toBe('Zoe');
    expect(engine.evaluateSync(ddm(), { input: null })).toBeNull();
  });

  returnsValueOrCodedError('decomposeDiacriticalMarks', ['input']);
});
