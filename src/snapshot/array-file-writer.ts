// The writing side of a snapshot's one-element-per-line array files (layout.ts): a page at a
// time at a known byte position, so that a checkpoint records where a file ends.

import { open, type FileHandle } from 'node:fs/promises';
import { codedError } from '../errors/index.js';

/** Bytes kept as they are: `source[start, stop)`. */
export interface Kept {
  source: Buffer;
  start: number;
  stop: number;
}

const OPEN = Buffer.from('[\n');
const COMMA = Buffer.from(',\n');
/** Buffers per writev call (at most IOV_MAX, 1,024 on Linux). */
const WRITEV_BATCH = 512;

/**
 * An array file written a page at a time at a known byte position, so that a checkpoint can
 * record where it ends and a resumed run truncates it there and continues.
 */
export class ArrayFileWriter {
  private constructor(
    private readonly handle: FileHandle,
    readonly file: string,
    private position: number,
    private count: number,
  ) {}

  /** Open `file` for writing from `bytes` (0: a new file) holding `count` elements. */
  static async open(file: string, bytes = 0, count = 0): Promise<ArrayFileWriter> {
    try {
      const handle = await open(file, bytes === 0 ? 'w' : 'r+');
      await handle.truncate(bytes);
      return new ArrayFileWriter(handle, file, bytes, count);
    } catch (error) {
      throw writeError(file, error);
    }
  }

  get bytes(): number {
    return this.position;
  }
  get elements(): number {
    return this.count;
  }

  /**
   * Append elements given as their JSON text, or bytes copied as they are (a previous file's
   * lines). Texts in a row are encoded together; kept lines that lay one after the other in the
   * buffer they were read into, separated by `,\n` as in this layout, are written as that one
   * range of bytes.
   */
  async add(elements: readonly (string | Kept)[]): Promise<void> {
    if (elements.length === 0) return;
    const parts: Buffer[] = [this.count === 0 ? OPEN : COMMA];
    // The run being gathered: texts, or a range of kept bytes.
    let texts: string[] = [];
    let source: Buffer | null = null;
    let start = 0;
    let stop = 0;
    const flush = () => {
      if (parts.length > 1) parts.push(COMMA);
      parts.push(source !== null ? source.subarray(start, stop) : Buffer.from(texts.join(',\n'), 'utf8'));
      source = null;
      texts = [];
    };
    for (const e of elements) {
      if (typeof e === 'string') {
        if (source !== null) flush();
        texts.push(e);
      } else if (source === e.source && e.start === stop + 2 && source[stop] === 0x2c && source[stop + 1] === 0x0a) {
        stop = e.stop;
      } else {
        if (source !== null || texts.length > 0) flush();
        ({ source, start, stop } = e);
      }
    }
    flush();
    this.count += elements.length;
    await this.writeParts(parts);
  }

  /** Close the array and the file. */
  async finish(): Promise<void> {
    await this.write(this.count === 0 ? '[\n]\n' : '\n]\n');
    await this.close();
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }

  private async write(text: string): Promise<void> {
    await this.writeParts([Buffer.from(text, 'utf8')]);
  }

  /** Write buffers one after the other at the end of the file, a batch per system call. */
  private async writeParts(parts: Buffer[]): Promise<void> {
    let total = 0;
    try {
      for (let i = 0; i < parts.length; i += WRITEV_BATCH) {
        const batch = parts.slice(i, i + WRITEV_BATCH);
        const size = batch.reduce((n, b) => n + b.length, 0);
        const { bytesWritten } = await this.handle.writev(batch, this.position + total);
        // A short write goes on from where it stopped.
        if (bytesWritten < size) {
          const rest = Buffer.concat(batch);
          for (let off = bytesWritten; off < size; off += (await this.handle.write(rest, off, size - off, this.position + total + off)).bytesWritten);
        }
        total += size;
      }
    } catch (error) {
      throw writeError(this.file, error);
    }
    this.position += total;
  }
}

export function writeError(file: string, error: unknown): Error {
  return codedError('SNAPSHOT_WRITE', `cannot write ${file}: ${(error as Error).message}`, { cause: error, details: { file } });
}
