import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { codedErrorOf } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine();
const phone = (attributes: Record<string, unknown> = {}) => ({ name: 'p', type: 'e164phone', attributes });
const stat = (value: string) => ({ type: 'static', attributes: { value } });

describe('e164phone', () => {
  it.each([
    [phone({ input: stat('512-777-2222') }), '+15127772222'], // e164-phone#2, corrected (the doc's "+1512459222" is a typo)
    [phone({ input: stat('779.284.2727') }), '+17792842727'], // e164-phone#3
    [phone({ input: stat('0412345678'), defaultRegion: 'AU' }), '+61412345678'], // e164-phone#4
    [phone({ input: stat('(512) 346-2000') }), '+15123462000'], // overview: strict E.164, no space
    [phone({ input: stat('+44 20 7946 0958'), defaultRegion: 'AU' }), '+442079460958'],
  ])('%# → %j', (t, expected) => {
    expect(engine.evaluateSync(t)).toBe(expected);
  });

  it.each([['123'], ['not a phone'], ['555-555-5555'], [null]])('%j is not a valid number → null', (input) => {
    expect(engine.evaluateSync(phone(), { input })).toBeNull();
  });

  it('an unknown defaultRegion is rejected at compile time', () => {
    const error = codedErrorOf(() => engine.compile(phone({ defaultRegion: 'XX' })));
    expect(error.code).toBe('COMPILE_INVALID_ATTRIBUTE');
    expect(error.path).toBe('/attributes/defaultRegion');
  });

  returnsValueOrCodedError('e164phone', ['input', 'defaultRegion']);
});
