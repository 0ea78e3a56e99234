import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { codedErrorOf } from '../helpers.js';

const engine = createEngine();
const failing = { type: 'lookup', attributes: { table: { x: 'y' } } };
const fv = (values: unknown[], extra: Record<string, unknown> = {}) => ({ name: 'f', type: 'firstValid', attributes: { values, ...extra } });

describe('firstValid', () => {
  it('returns the first non-null entry', () => {
    expect(engine.evaluateSync(fv([null, { type: 'static', attributes: { value: 'b' } }, 'c']))).toBe('b');
  });
  it('counts "" as a value', () => {
    expect(engine.evaluateSync(fv([null, '', 'c']))).toBe('');
  });
  it('returns null when every entry is null', () => {
    expect(engine.evaluateSync(fv([null, null]))).toBeNull();
  });
  it('aborts on the first error without ignoreErrors, even if a later entry would succeed', () => {
    expect(codedErrorOf(() => engine.evaluateSync(fv([failing, 'fallback']), { input: 'q' })).code).toBe('EVAL_LOOKUP_NO_MATCH');
  });
  it.each([true, 'true', 'TRUE'])('skips failing entries with ignoreErrors %j', (flag) => {
    expect(engine.evaluateSync(fv([failing, 'fallback'], { ignoreErrors: flag }), { input: 'q' })).toBe('fallback');
  });
  it('is lazy: entries after the first value are not evaluated', () => {
    expect(engine.evaluateSync(fv(['first', failing]), { input: 'q' })).toBe('first');
  });
});
