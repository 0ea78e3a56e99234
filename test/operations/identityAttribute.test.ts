import { describe, expect, it } from 'vitest';
import { IDENTITIES, codedErrorOf, tenantEngine } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = tenantEngine();
const john = IDENTITIES[0]!;
const ia = (name: unknown) => ({ name: 'i', type: 'identityAttribute', attributes: { name } });

describe('identityAttribute', () => {
  it.each([
    ['email', 'john.doe@example.com'],
    ['firstname', 'John'],
    ['uid', 'john.doe'], // the identity's user name when no uid attribute is stored
    ['missing', null],
    // Regression: names of Object.prototype members read as missing, not as a JavaScript function.
    ['valueOf', null],
    ['constructor', null],
  ])('%s → %j', (name, expected) => {
    expect(engine.evaluateSync(ia(name), { identity: john })).toBe(expected);
  });

  it('reads the identity given by id through the identity provider', async () => {
    expect(await engine.evaluate(ia('lastname'), { identity: 'id-2' })).toBe('Boss');
  });

  it('feeds other transforms (username-generator#2 shape: first initial)', () => {
    const t = { name: 's', type: 'substring', attributes: { input: { type: 'identityAttribute', attributes: { name: 'firstname' } }, begin: 0, end: 1 } };
    expect(engine.evaluateSync(t, { identity: john })).toBe('J');
  });

  it('needs the identity', () => {
    expect(codedErrorOf(() => engine.evaluateSync(ia('email'))).code).toBe('EVAL_NO_IDENTITY');
  });

  returnsValueOrCodedError('identityAttribute', ['name']);
});
