import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { codedErrorOf } from '../helpers.js';

const engine = createEngine();
const lookup = (table: Record<string, unknown>) => ({ name: 'l', type: 'lookup', attributes: { table } });

describe('lookup', () => {
  const areas = lookup({ '512': 'Austin', '281': 'Houston', default: 'Unknown Area' });
  it.each([
    ['512', 'Austin'],
    ['281', 'Houston'],
    ['999', 'Unknown Area'],
  ])('maps %s to %s', (input, out) => {
    expect(engine.evaluateSync(areas, { input })).toBe(out);
  });

  it('matches exactly and case-sensitively on the stringified input', () => {
    const t = lookup({ 'EN-US': 'CST', '8': 'eight', default: 'GMT' });
    expect(engine.evaluateSync(t, { input: 'en-us' })).toBe('GMT');
    expect(engine.evaluateSync(t, { input: 8 })).toBe('eight');
  });

  it('sends a null input to the default', () => {
    expect(engine.evaluateSync(areas, { input: null })).toBe('Unknown Area');
  });

  it('errors when nothing matches and there is no default', () => {
    const error = codedErrorOf(() => engine.evaluateSync(lookup({ '713': 'Houston' }), { input: '999' }));
    expect(error.code).toBe('EVAL_LOOKUP_NO_MATCH');
    expect(error.path).toBe('/attributes/table');
  });

  it('treats "default" as the reserved fallback key, not as an input value', () => {
    expect(codedErrorOf(() => engine.evaluateSync(lookup({ a: 'A' }), { input: 'default' })).code).toBe('EVAL_LOOKUP_NO_MATCH');
  });
});
