// Freeing buffers at once (src/refresh/fixture-stream/free-now.ts): a view spanning its whole
// buffer is emptied (its memory moved to a clone that is dropped); a view sharing its buffer
// with others, such as a small Buffer from Node's pool, is left alone.

import { describe, expect, it } from 'vitest';
import { freeNow } from '../../src/refresh/fixture-stream/free-now.js';

describe('freeNow', () => {
  it('empties views that span their whole buffer', () => {
    const bytes = Buffer.allocUnsafeSlow(1 << 16);
    const numbers = new Float64Array(1024);
    freeNow([bytes, numbers]);
    expect(bytes.length).toBe(0);
    expect(numbers.length).toBe(0);
  });

  it('leaves a view that shares its buffer alone, and the other views of it', () => {
    const pooled = Buffer.from('pooled');
    const neighbour = Buffer.from('neighbour');
    const whole = new Uint8Array(64);
    const part = whole.subarray(8, 16);
    freeNow([pooled, part]);
    expect(pooled.toString()).toBe('pooled');
    expect(neighbour.toString()).toBe('neighbour');
    expect(part.length).toBe(8);
    expect(whole.length).toBe(64);
  });

  it('accepts the same buffer twice, and buffers already freed', () => {
    const numbers = new Uint32Array(16);
    freeNow([numbers, new Uint8Array(numbers.buffer)]);
    freeNow([numbers]);
    expect(numbers.length).toBe(0);
  });
});
