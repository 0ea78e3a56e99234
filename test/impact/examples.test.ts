// Which examples an impact report keeps: one per distinct change first, so that a change most
// identities share does not hide a rarer one.

import { describe, expect, it } from 'vitest';
import { keepExample } from '../../src/impact/examples.js';
import type { Example } from '../../src/impact/index.js';

const change = (id: string, before: string, after: string): Example => ({ identityId: id, before: { value: before }, after: { value: after } });

describe('keepExample', () => {
  it('keeps the 8 regressions to "Unknown" beside the 43 moves to "APAC", whichever comes first', () => {
    const list: Example[] = [];
    for (let i = 0; i < 43; i++) keepExample(list, change(`apac-${i}`, 'EMEA', 'APAC'), 5);
    for (let i = 0; i < 8; i++) keepExample(list, change(`unknown-${i}`, 'EMEA', 'Unknown'), 5);
    expect(list.map((e) => e.identityId)).toEqual(['apac-0', 'apac-1', 'apac-2', 'apac-3', 'unknown-0']);
  });

  it('shows every distinct change while there are slots for them, then keeps what it has', () => {
    const list: Example[] = [];
    for (const [i, after] of ['A', 'A', 'A', 'B', 'C', 'A', 'D', 'E', 'F'].entries()) keepExample(list, change(`i${i}`, 'x', after), 4);
    expect(list.map((e) => (e.after as { value: string }).value)).toEqual(['A', 'B', 'C', 'D']);
  });

  it('tells errors apart by code, and an absent attribute from a null one', () => {
    const list: Example[] = [];
    keepExample(list, { identityId: 'a', before: { value: 'x' }, after: { error: { code: 'EVAL_LOOKUP_NO_MATCH', message: 'm', path: '' } } }, 2);
    keepExample(list, { identityId: 'b', before: { value: 'x' }, after: { error: { code: 'EVAL_LOOKUP_NO_MATCH', message: 'other', path: '' } } }, 2);
    keepExample(list, { identityId: 'c', before: { value: 'x' }, after: null }, 2);
    expect(list.map((e) => e.identityId)).toEqual(['a', 'c']);
  });
});
