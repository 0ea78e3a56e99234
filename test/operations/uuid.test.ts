import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { returnsValueOrCodedError } from './_robustness.js';

const t = { name: 'UUID Generator Transform', type: 'uuid', attributes: null };

describe('uuid', () => {
  it('is a 36-character version-4 UUID (uuid-generator#2)', () => {
    const value = createEngine().evaluateSync(t);
    expect(value).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('comes from the injected random source, so tests can pin it', () => {
    expect(createEngine({ random: () => 0 }).evaluateSync(t)).toBe('00000000-0000-4000-8000-000000000000');
  });

  it('differs between evaluations with a real random source', () => {
    const engine = createEngine();
    expect(engine.evaluateSync(t)).not.toBe(engine.evaluateSync(t));
  });

  returnsValueOrCodedError('uuid', []);
});
