// What a thrown value says (src/errors/thrown.ts): whatever code outside the library throws,
// a message that can be shown, never a second throw, never an unbounded text.

import { describe, expect, it } from 'vitest';
import { thrownMessage } from '../../src/errors/thrown.js';

const revoked = Proxy.revocable({}, {});
revoked.revoke();

describe('thrownMessage', () => {
  it.each([
    ['an Error', new Error('boom'), 'boom'],
    ['a string', 'plain', 'plain'],
    ['null', null, 'null'],
    ['undefined', undefined, 'undefined'],
    ['a number', 42, '42'],
    ['an object without a prototype', Object.create(null) as object, '[object Object] that cannot be shown as text'],
    ['an object whose toString throws', { toString: () => { throw new Error('no'); } }, '[object Object] that cannot be shown as text'],
    ['a revoked proxy', revoked.proxy, 'a value that cannot be shown as text'],
    ['a long string', 'y'.repeat(10_000), `${'y'.repeat(500)}…`],
  ])('of %s', (_what, value, message) => {
    expect(thrownMessage(value)).toBe(message);
  });
});
