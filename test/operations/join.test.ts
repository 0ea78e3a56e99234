import { describe, expect, it } from 'vitest';
import { IDENTITIES, tenantEngine } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = tenantEngine();
const john = IDENTITIES[0]!;
const join = (attributes: Record<string, unknown>) => ({ name: 'j', type: 'join', attributes });
const hr = (attributeName: string) => ({ type: 'accountAttribute', attributes: { sourceName: 'HR Source', attributeName } });

describe('join', () => {
  it.each([
    [{ values: ['John', 'Smith'], separator: '|' }, 'John|Smith'], // join#0
    [{ values: ['a', 'b', 'c'] }, 'a,b,c'], // default separator ","
    [{ values: ['a', 'b'], separator: '' }, 'ab'],
    [{ values: ['solo'], separator: '-' }, 'solo'],
    [{ values: [], separator: '-' }, ''],
  ])('%j → %j', (attributes, expected) => {
    expect(engine.evaluateSync(join(attributes))).toBe(expected);
  });

  it('joins nested transforms (join#2 shape)', () => {
    expect(engine.evaluateSync(join({ values: [hr('FirstName'), hr('department')], separator: ' ' }), { identity: john })).toBe('John Engineering');
  });

  it('decision O5: a null element prints as null, as Java\'s String.valueOf (observed on a tenant)', () => {
    expect(engine.evaluateSync(join({ values: ['a', hr('missing'), 'b'], separator: '-' }), { identity: john })).toBe('a-null-b');
    expect(engine.evaluateSync(join({ values: [hr('missing')], separator: '-' }), { identity: john })).toBe('null');
  });

  returnsValueOrCodedError('join', ['values', 'separator']);
});
