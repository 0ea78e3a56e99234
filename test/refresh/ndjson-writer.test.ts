// NDJSON bytes (src/refresh/ndjson-writer.ts NdjsonEncoder, evaluator.ts EncodedBatch): lines
// encoded to UTF-8 as they are added, each batch in a buffer of its own that a worker can
// transfer; the text decoded only when asked for. AtomicFileWriter: --out written under a
// temporary name and renamed into place, except where a rename would replace something else.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EncodedBatch, emptyCounts } from '../../src/refresh/evaluator.js';
import { AtomicFileWriter, NdjsonEncoder } from '../../src/refresh/ndjson-writer.js';
import { cleanUp, tempDir } from './tenants.js';

afterAll(cleanUp);

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

describe('AtomicFileWriter', () => {
  it('writes a temporary file in the same directory and renames it over an older file on commit', async () => {
    const dir = tempDir();
    const out = join(dir, 'out.ndjson');
    writeFileSync(out, 'previous run\n');
    const file = new AtomicFileWriter(out);
    await file.write('{"a":1}\n');
    expect(readFileSync(out, 'utf8')).toBe('previous run\n');
    await file.commit();
    expect(readFileSync(out, 'utf8')).toBe('{"a":1}\n');
    expect(readdirSync(dir)).toEqual(['out.ndjson']);
  });

  it('refuses a directory at once, as CLI_READ naming it, instead of failing at the rename after the run', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'out'));
    expect(() => new AtomicFileWriter(join(dir, 'out'))).toThrow(expect.objectContaining({ code: 'CLI_READ', message: `cannot write ${join(dir, 'out')}: it is a directory` }));
    expect(readdirSync(dir)).toEqual(['out']);
  });

  it('writes through a symbolic link to the file it names, and keeps the link', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'out.ndjson'), 'previous run\n');
    symlinkSync(join(dir, 'real', 'out.ndjson'), join(dir, 'link.ndjson'));
    const file = new AtomicFileWriter(join(dir, 'link.ndjson'));
    await file.write('{"a":1}\n');
    await file.commit();
    expect(lstatSync(join(dir, 'link.ndjson')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real', 'out.ndjson'), 'utf8')).toBe('{"a":1}\n');
    expect(readdirSync(join(dir, 'real'))).toEqual(['out.ndjson']);
  });

  // --out /dev/null or a named pipe: renaming a file over it would replace the device or the
  // pipe (as root, /dev/null itself); it is written directly, and never removed.
  it.runIf(process.platform !== 'win32')('writes a named pipe directly and leaves it a pipe, on commit and on abort', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo]);
    let received = '';
    reader.stdout.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    const closed = new Promise((resolve) => reader.on('close', resolve));
    try {
      const file = new AtomicFileWriter(fifo);
      await file.write('{"a":1}\n');
      await file.commit();
      await closed;
      expect(received).toBe('{"a":1}\n');
      expect(lstatSync(fifo).isFIFO()).toBe(true);
      expect(readdirSync(dir)).toEqual(['pipe']);
    } finally {
      reader.kill();
    }
    const reader2 = spawn('cat', [fifo]);
    try {
      const aborted = new AtomicFileWriter(fifo);
      await aborted.write('x\n');
      await aborted.abort();
      expect(lstatSync(fifo).isFIFO()).toBe(true);
    } finally {
      reader2.kill();
    }
  }, 10_000);

  it('keeps the mode of the file it replaces, never widening a 0600 output, through a link too', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'private.ndjson'), 'secret\n', { mode: 0o600 });
    chmodSync(join(dir, 'private.ndjson'), 0o600);
    symlinkSync(join(dir, 'private.ndjson'), join(dir, 'link.ndjson'));
    for (const path of ['private.ndjson', 'link.ndjson']) {
      const file = new AtomicFileWriter(join(dir, path));
      // Mode bits of the temporary file, before a line is written: already the replaced file's.
      expect(statSync(file.temp!).mode & 0o777).toBe(0o600);
      await file.write('{"a":1}\n');
      await file.commit();
      expect(statSync(join(dir, 'private.ndjson')).mode & 0o777).toBe(0o600);
    }
    writeFileSync(join(dir, 'shared.ndjson'), 'x\n');
    chmodSync(join(dir, 'shared.ndjson'), 0o640);
    const shared = new AtomicFileWriter(join(dir, 'shared.ndjson'));
    await shared.commit();
    expect(statSync(join(dir, 'shared.ndjson')).mode & 0o777).toBe(0o640);
  });

  it('removes the temporary files of an earlier run that was killed, and keeps those of a running one', async () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    const stale = `.out.ndjson.${dead}.abc123.partial`;
    const live = `.out.ndjson.${process.ppid}.abc123.partial`;
    writeFileSync(join(dir, stale), 'half a line');
    writeFileSync(join(dir, live), 'in progress');
    writeFileSync(join(dir, '.other.ndjson.1.abc.partial'), 'another output');
    const file = new AtomicFileWriter(join(dir, 'out.ndjson'));
    await file.commit();
    expect(readdirSync(dir).sort()).toEqual([live, '.other.ndjson.1.abc.partial', 'out.ndjson'].sort());
  });
});
