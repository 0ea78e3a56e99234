// The reading side of a snapshot's one-element-per-line array files (layout.ts, written by
// array-file-writer.ts): a chunk at a time, with only each line's leading members decoded
// (leading-members.ts), so that a --since merge keeps lines as bytes.

import { open, type FileHandle } from 'node:fs/promises';
import { codedError } from '../errors/index.js';
import type { Kept } from './array-file-writer.js';
import { leadingMembers, type LastValue } from './leading-members.js';
import { MAX_JSON_DEPTH, checkJsonDepth } from '../json/depth.js';

/** One element of an array file: its line's JSON bytes (UTF-8, without the comma), the value read from it, and where it is. */
export interface Element<T> extends Kept {
  value: T;
  line: number;
  /** The byte offset just after the element's line (its newline included): where the next one starts. */
  end: number;
}

/** Where to start reading an array file: an element line's byte offset and its line number (1-based). */
export interface FilePosition {
  bytes: number;
  line: number;
}

const CHUNK = 1 << 20;
/** Buffers tracked for reuse at most (more than a merge holds between two releases). */
const MAX_IN_USE = 32;

/**
 * The elements of an array file in the one-element-per-line layout (as snapshots write it), read
 * a megabyte at a time from the start or from a position an earlier read reported (`from`):
 * `fill()` reads on, `peek()` and `take()` hand out what was read, without awaiting per element.
 * With `members`, an element's value holds only those leading string members, read without
 * parsing the line (a line that does not begin with them is parsed whole). A file in another
 * layout, or a line that is not one JSON object with a string id, is a SNAPSHOT_PREVIOUS error
 * naming the file and line.
 */
export class ArrayFileReader<T extends { id?: unknown }> {
  private handle: FileHandle | null = null;
  private offset: number;
  private line: number;
  private opened: boolean;
  private closed = false;
  private rest: Buffer = Buffer.alloc(0);
  private queue: Element<T>[] = [];
  /** The buffers elements were read into, each with the offset where its last whole line ends, and the buffers free to read into. */
  private inUse: { buffer: Buffer; until: number }[] = [];
  private free: Buffer[] = [];
  private head = 0;
  /** The members' values of the last line read (leadingMembers). */
  private lastValues: LastValue[] = [];
  /** True once the whole file has been read. */
  done = false;
  /** Where the next element not yet taken starts: the end of the last one taken (kept as numbers, so that a take allocates nothing). */
  private takenEnd: number;
  private takenLine: number;

  constructor(
    readonly file: string,
    private readonly options: { from?: FilePosition; members?: readonly string[] } = {},
  ) {
    this.offset = options.from?.bytes ?? 0;
    this.line = options.from ? options.from.line - 1 : 0;
    this.opened = this.offset > 0;
    this.takenEnd = this.offset;
    this.takenLine = this.line + 1;
  }

  /** Where the next element not yet taken starts. */
  get position(): FilePosition {
    return { bytes: this.takenEnd, line: this.takenLine };
  }

  /** The value of the next element read and not taken (undefined when none is buffered). */
  peek(): T | undefined {
    return this.head < this.queue.length ? this.queue[this.head]!.value : undefined;
  }

  take(): Element<T> | undefined {
    if (this.head >= this.queue.length) return undefined;
    const e = this.queue[this.head++]!;
    this.takenEnd = e.end;
    this.takenLine = e.line + 1;
    return e;
  }

  /** The elements buffered and not taken. */
  get buffered(): number {
    return this.queue.length - this.head;
  }

  /** The last element read (buffered), if any. */
  last(): T | undefined {
    return this.head < this.queue.length ? this.queue[this.queue.length - 1]!.value : undefined;
  }

  /** Read the next chunk of the file into the buffer; false at the end of the file. */
  async fill(): Promise<boolean> {
    if (this.done) return false;
    if (this.head > 0) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    try {
      this.handle ??= await open(this.file, 'r');
      // The part line left from the last chunk, then the next chunk read in after it, in a
      // buffer released by the caller when it can (fresh memory makes the garbage collector run).
      const reused = this.free.pop();
      const space = reused !== undefined && reused.length >= this.rest.length + CHUNK ? reused : Buffer.allocUnsafe(Math.max(2 * CHUNK, this.rest.length + CHUNK));
      this.rest.copy(space);
      // Values are reused only within a chunk's buffer (a buffer released may be read into again).
      this.lastValues = [];
      const { bytesRead } = await this.handle.read(space, this.rest.length, CHUNK, this.offset + this.rest.length);
      const buffer = space.subarray(0, this.rest.length + bytesRead);
      let from = 0;
      for (let nl = buffer.indexOf(10, from); nl >= 0; nl = buffer.indexOf(10, from)) {
        const cr = nl > from && buffer[nl - 1] === 13 ? 1 : 0;
        this.offset += nl + 1 - from;
        this.accept(buffer, from, nl - cr);
        from = nl + 1;
      }
      this.rest = buffer.subarray(from);
      this.inUse.push({ buffer: space, until: this.offset });
      // A reader nobody releases (a whole file read) forgets its oldest buffers to the garbage collector.
      if (this.inUse.length > MAX_IN_USE) this.inUse.shift();
      if (bytesRead === 0) {
        if (this.rest.length > 0) {
          this.offset += this.rest.length;
          this.accept(this.rest, 0, this.rest.length);
          this.rest = Buffer.alloc(0);
        }
        this.done = true;
        await this.close();
        if (!this.closed) this.bad('the array is not closed (a truncated file)');
      }
    } catch (error) {
      await this.close();
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR') throw codedError('SNAPSHOT_PREVIOUS', `cannot read ${this.file}: ${(error as Error).message}`, { cause: error, details: { file: this.file } });
      throw error;
    }
    return !this.done;
  }

  /**
   * The elements before byte `bytes` are written (or dropped): the buffers holding only them can
   * be read into again. Elements taken before it must not be used after this.
   */
  release(bytes: number): void {
    while (this.inUse.length > 1 && this.inUse[0]!.until <= bytes) this.free.push(this.inUse.shift()!.buffer);
  }

  /** Read until `enough` holds for the last element read, or to the end of the file. */
  async fillUntil(enough: (last: T) => boolean): Promise<void> {
    for (let last = this.last(); !this.done && (last === undefined || !enough(last)); last = this.last()) await this.fill();
  }

  async close(): Promise<void> {
    const h = this.handle;
    this.handle = null;
    await h?.close().catch(() => undefined);
  }

  private accept(buffer: Buffer, start: number, end: number): void {
    this.line++;
    // Only short lines ([, ], blank) are decoded whole here; an element's bytes are kept as they are.
    const short = end - start <= 2 ? buffer.toString('utf8', start, end) : null;
    if (this.closed) {
      if ((short ?? buffer.toString('utf8', start, end)).trim() !== '') this.bad('text after the closing ]');
      return;
    }
    if (!this.opened) {
      // A byte-order mark an editor saved before the `[` is skipped (decision C4).
      const bom = end - start === 4 && buffer[start] === 0xef && buffer[start + 1] === 0xbb && buffer[start + 2] === 0xbf;
      if ((bom ? buffer.toString('utf8', start + 3, end) : short) !== '[') this.bad('expected "[" alone on the first line (the layout snapshots write)');
      this.opened = true;
      return;
    }
    if (short === ']') {
      this.closed = true;
      return;
    }
    const stop = buffer[end - 1] === 0x2c ? end - 1 : end;
    // The leading members are read from the line's head; a line that does not begin with them
    // (or does not end with `}`) is decoded and parsed whole.
    let value: unknown = this.options.members && buffer[stop - 1] === 0x7d ? leadingMembers(buffer, start, stop, this.options.members, this.lastValues) : null;
    if (value === null) {
      try {
        value = JSON.parse(buffer.toString('utf8', start, stop));
      } catch {
        this.bad('not one JSON element per line');
      }
    }
    checkJsonDepth(value, MAX_JSON_DEPTH, `line ${this.line}`);
    if (value === null || typeof value !== 'object' || Array.isArray(value) || typeof (value as { id?: unknown }).id !== 'string') this.bad('an element must be an object with a string "id"');
    this.queue.push({ source: buffer, start, stop, value: value as T, line: this.line, end: this.offset });
  }

  private bad(why: string): never {
    throw codedError('SNAPSHOT_PREVIOUS', `${this.file}:${this.line}: ${why}; take a full snapshot instead of --since`, { details: { file: this.file, line: this.line } });
  }
}

/** Every element of an array file, one at a time, with its text (ArrayFileReader). */
export async function* readArrayFile<T extends { id?: unknown }>(file: string, options: { from?: FilePosition; members?: readonly string[] } = {}): AsyncGenerator<Element<T> & { text: string }, void, undefined> {
  const reader = new ArrayFileReader<T>(file, options);
  try {
    for (;;) {
      const more = await reader.fill();
      for (let e = reader.take(); e !== undefined; e = reader.take()) yield { ...e, text: e.source.toString('utf8', e.start, e.stop) };
      if (!more) return;
    }
  } finally {
    await reader.close();
  }
}
