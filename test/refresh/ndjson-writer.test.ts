// NDJSON bytes (src/refresh/ndjson-writer.ts NdjsonEncoder, evaluator.ts EncodedBatch): lines
// encoded to UTF-8 as they are added, each batch in a buffer of its own that a worker can
// transfer; the text decoded only when asked for.

import { describe, expect, it } from 'vitest';
import { EncodedBatch, emptyCounts } from '../../src/refresh/evaluator.js';
import { NdjsonEncoder } from '../../src/refresh/ndjson-writer.js';

describe('NdjsonEncoder', () => {
  it('encodes each line as UTF-8 followed by a newline, growing past its first buffer', () => {
    const encoder = new NdjsonEncoder();
    const lines = ['{"name":"Zoë Åsa"}', '{"city":"東京 😀"}', JSON.stringify({ big: 'x'.repeat(50_000) })];
    for (const line of lines) encoder.add(line);
    const bytes = encoder.take();
    expect(Buffer.from(bytes).toString('utf8')).toBe(lines.map((l) => `${l}\n`).join(''));
    expect(bytes.length).toBe(Buffer.byteLength(lines.join('\n') + '\n'));
    // What is transferred is exactly the lines: no unused end travels with them.
    expect(bytes.buffer.byteLength).toBe(bytes.length);
  });

  it('counts a line\'s UTF-8 exactly when its worst case (3 bytes per code unit) does not fit', () => {
    const encoder = new NdjsonEncoder();
    const ascii = 'a'.repeat(10_000);
    for (let i = 0; i < 3; i++) encoder.add(ascii);
    const bytes = encoder.take();
    expect(Buffer.from(bytes).toString('utf8')).toBe(`${ascii}\n`.repeat(3));
    expect(bytes.buffer.byteLength).toBe(30_003);
  });

  it('starts a new buffer after take(), so that a taken batch can be transferred without touching the next', () => {
    const encoder = new NdjsonEncoder();
    encoder.add('{"a":1}');
    const first = encoder.take();
    const moved = structuredClone(first, { transfer: [first.buffer as ArrayBuffer] });
    encoder.add('{"b":2}');
    expect(Buffer.from(moved).toString()).toBe('{"a":1}\n');
    expect(Buffer.from(encoder.take()).toString()).toBe('{"b":2}\n');
    expect(encoder.take().length).toBe(0);
  });
});

describe('EncodedBatch', () => {
  it('decodes its bytes to text on first use', () => {
    const batch = new EncodedBatch(new TextEncoder().encode('{"name":"Zoë"}\n'), emptyCounts());
    expect(batch.text).toBe('{"name":"Zoë"}\n');
    expect(batch.text).toBe(batch.text);
    expect(new EncodedBatch(new Uint8Array(0), emptyCounts()).text).toBe('');
  });
});
