import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import type { Identity } from '../../src/providers/types.js';
import { codedErrorOf } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine();
const t = { name: 'Display Name Transform', type: 'displayName', attributes: { input: 'input' } };
const identity = (attributes: Record<string, unknown>): Identity => ({ id: 'i', name: 'i', attributes });

describe('displayName', () => {
  // display-name#2
  it.each([
    [{ preferredName: 'John', firstname: 'Jonathan', lastname: 'Doe' }, 'John Doe'],
    [{ firstname: 'Jonathan', lastname: 'Doe' }, 'Jonathan Doe'],
    [{ preferredName: '', firstname: 'Jonathan', lastname: 'Doe' }, 'Jonathan Doe'],
    [{ givenName: 'Ada', familyName: 'Lovelace' }, 'Ada Lovelace'],
    [{ firstname: 'Cher' }, 'Cher'],
    [{}, null],
  ])('%j → %j', (attributes, expected) => {
    expect(engine.evaluateSync(t, { identity: identity(attributes) })).toBe(expected);
  });

  it('needs the identity', () => {
    expect(codedErrorOf(() => engine.evaluateSync(t)).code).toBe('EVAL_NO_IDENTITY');
  });

  it('needs attributes (the API rejects displayName without them)', () => {
    const error = codedErrorOf(() => engine.compile({ name: 'd', type: 'displayName' }));
    expect({ code: error.code, path: error.path }).toEqual({ code: 'SCHEMA_REQUIRED', path: '/attributes' });
  });

  returnsValueOrCodedError('displayName', ['input']);
});
