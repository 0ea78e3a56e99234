// Streaming reader of a top-level JSON array (memory stays flat): yields each
// element's source text, one at a time, from a file read in fixed-size chunks. No installed
// package fits (jsonc-parser and JSON.parse need the whole text; the streaming parsers on npm
// build values token by token, slower than JSON.parse on each element), so this scanner only
// finds element boundaries over the byte stream and leaves parsing to JSON.parse.
//
// Scanning bytes is safe for UTF-8: every byte of a multi-byte sequence is >= 0x80, so no
// structural character ({ } [ ] " , \) can appear inside one.

import { closeSync, readSync } from 'node:fs';
import { codedError } from '../../errors/index.js';
import { freeNow } from './free-now.js';
import { fileError, invalidJsonInFile, syntaxErrorInFile } from '../../json/positions.js';
import { MAX_JSON_DEPTH, checkJsonDepth } from '../../json/depth.js';
import { openRegularFile } from '../../json/read-file.js';

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

export interface ArrayElement {
  /** The element's JSON text (only its first `headBytes` bytes when the reader was given that option). */
  text: string;
  /** Byte offset of the element's first byte in the file. */
  offset: number;
  /** Byte length of the element. */
  length: number;
}

type State = 'start' | 'before-element' | 'after-element' | 'done';

/** Where a reader of part of a file starts, and where it must stop. */
export interface ReadRange {
  start: number;
  end: number;
  /**
   * The reader's state at `start`: 'start' at the file's beginning, else between two elements:
   * just after one ('after-element') or just after the comma that follows it ('before-element').
   */
  state: 'start' | 'after-element' | 'before-element';
}

/**
 * Reads the elements of a JSON array file in order. Memory: one chunk plus the largest element.
 * Malformed structure is a CLI_FIXTURES error whose details carry the file and byte offset;
 * each element's own syntax is checked by whoever JSON.parses its text.
 */
export class JsonArrayReader {
  private readonly fd: number;
  private buf: Buffer;
  /** File offset of buf[0]. */
  private base = 0;
  private pos = 0;
  private end = 0;
  private eof = false;
  private state: State = 'start';
  private closed = false;
  /** Elements returned so far (the index of the next one). */
  index = 0;
  /** Byte offset in the file of the current element (the one last returned by next() or advance()). */
  offset = 0;
  /** Byte length of the current element. */
  length = 0;
  /** Where the current element is in buf. */
  private lastStart = 0;
  /** Where the element being scanned starts in buf. */
  private scanStart = 0;
  private lastEnd = 0;
  /** True while an element is being scanned (an error then lies somewhere from its start). */
  private scanning = false;
  /** File offset where reading stops (the file's size unless a range says less). */
  private readonly limit: number;

  /**
   * @param headBytes decode only the first `headBytes` bytes of each element into `text`
   *   (a caller that reads one leading member need not pay for decoding the rest);
   *   `fullText()` gives the whole text of the last element.
   */
  constructor(
    readonly file: string,
    chunkSize = 1 << 20,
    private readonly headBytes = Infinity,
    private readonly range: ReadRange | null = null,
  ) {
    // Only a regular file: a FIFO would hold the thread waiting for a writer, a device such as
    // /dev/urandom would stream without end.
    const opened = openRegularFile(file);
    if (!opened.ok) throw codedError('CLI_READ', `cannot read ${file}: ${opened.message}`, { ...('cause' in opened ? { cause: opened.cause } : {}), details: { file } });
    this.fd = opened.fd;
    this.buf = Buffer.allocUnsafe(Math.max(64, chunkSize));
    this.limit = range ? range.end : Infinity;
    if (range) {
      this.base = range.start;
      this.state = range.state;
    }
  }

  /**
   * Where the reader stopped: 'done' after the closing bracket; for a range, the state between
   * two elements at its end (an element that runs past the end is malformed, as in a file cut
   * there).
   */
  get stoppedIn(): State {
    return this.state;
  }

  /** The next element, or null after the closing bracket. */
  next(): ArrayElement | null {
    if (!this.advance()) return null;
    const textEnd = this.length > this.headBytes ? this.lastStart + this.headBytes : this.lastEnd;
    return { text: this.buf.toString('utf8', this.lastStart, textEnd), offset: this.offset, length: this.length };
  }

  /**
   * Move to the next element without decoding it (its bytes are then read with latin1() or
   * fullText(), and located by offset and length). False after the closing bracket.
   */
  advance(): boolean {
    for (;;) {
      switch (this.state) {
        case 'done':
          return false;
        case 'start': {
          let b = this.skipSpace();
          // A UTF-8 byte-order mark (EF BB BF) before the array is accepted and skipped.
          if (b === 0xef && this.end - this.pos >= 3 && this.buf[this.pos + 1] === 0xbb && this.buf[this.pos + 2] === 0xbf) {
            this.pos += 3;
            b = this.skipSpace();
          }
          if (b !== OPEN_BRACKET) throw this.malformed(b === -1 ? 'the file is empty; expected a JSON array' : 'expected "[" (the file must hold a JSON array)');
          this.pos++;
          const c = this.skipSpace();
          if (c === CLOSE_BRACKET) {
            this.pos++;
            return this.finish();
          }
          this.state = 'before-element';
          break;
        }
        case 'after-element': {
          const b = this.skipSpace();
          if (b === -1 && this.range) return this.stop();
          if (b === CLOSE_BRACKET) {
            this.pos++;
            return this.finish();
          }
          if (b !== COMMA) throw this.malformed(b === -1 ? 'unexpected end of file inside the array' : 'expected "," or "]" after an element');
          this.pos++;
          this.state = 'before-element';
          break;
        }
        case 'before-element': {
          const b = this.skipSpace();
          if (b === -1 && this.range) return this.stop();
          if (b === -1) throw this.malformed('unexpected end of file inside the array');
          if (b === CLOSE_BRACKET || b === COMMA) throw this.malformed('expected an element');
          this.scanElement();
          this.state = 'after-element';
          this.index++;
          return true;
        }
      }
    }
  }

  *[Symbol.iterator](): Generator<ArrayElement, void, undefined> {
    try {
      for (let e = this.next(); e !== null; e = this.next()) yield e;
    } finally {
      this.close();
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  /**
   * Close, and free the read window now rather than at the thread's next full collection
   * (free-now.ts). Only for a reader none of whose elements' bytes are read after.
   */
  release(): void {
    this.close();
    freeNow([this.buf]);
  }

  /** The end of a range, between two elements. */
  private stop(): false {
    this.close();
    return false;
  }

  private finish(): false {
    // Only whitespace may follow the array.
    const b = this.skipSpace();
    if (b !== -1) throw this.malformed('unexpected content after the closing "]"');
    this.state = 'done';
    this.close();
    return false;
  }

  /** Skip whitespace; the byte at pos, or -1 at end of file. */
  private skipSpace(): number {
    for (;;) {
      while (this.pos < this.end) {
        const b = this.buf[this.pos]!;
        if (!isSpace(b)) return b;
        this.pos++;
      }
      if (!this.fill(this.pos)) return -1;
    }
  }

  /**
   * Read more bytes, keeping buf[keep..end) (the element being scanned). Returns false at end
   * of file. Positions shift by `keep`; callers hold offsets relative to `keep`.
   */
  private fill(keep: number): boolean {
    if (this.eof) return false;
    if (keep > 0) {
      this.buf.copy(this.buf, 0, keep, this.end);
      this.base += keep;
      this.pos -= keep;
      this.end -= keep;
    }
    if (this.end === this.buf.length) {
      // One element is larger than the buffer: grow it (the only case memory grows).
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, 0, this.end);
      this.buf = bigger;
    }
    const n = readSync(this.fd, this.buf, this.end, Math.min(this.buf.length - this.end, this.limit - (this.base + this.end)), this.base + this.end);
    if (n === 0) {
      this.eof = true;
      return false;
    }
    this.end += n;
    return true;
  }

  /**
   * Read more bytes, keeping the element being scanned (it starts at `scanStart`, which moves to
   * 0). A method, not a closure made per element: under tsx (keepNames) every closure made
   * costs an Object.defineProperty.
   */
  private refill(): boolean {
    const ok = this.fill(this.scanStart);
    this.scanStart = 0;
    return ok;
  }

  /** Scan one element starting at pos; leaves pos after it. */
  private scanElement(): void {
    const first = this.buf[this.pos]!;
    this.scanStart = this.pos;
    this.scanning = true;
    if (first === OPEN_BRACE || first === OPEN_BRACKET) {
      let depth = 0;
      for (;;) {
        if (this.pos >= this.end && !this.refill()) throw this.malformed('unexpected end of file inside an element');
        const b = this.buf[this.pos]!;
        if (b === QUOTE) {
          this.pos++;
          this.skipString();
          continue;
        }
        this.pos++;
        if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
        else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
          depth--;
          if (depth === 0) break;
        }
      }
    } else if (first === QUOTE) {
      this.pos++;
      this.skipString();
    } else {
      // A scalar: runs to the next delimiter.
      for (;;) {
        if (this.pos >= this.end && !this.refill()) break;
        const b = this.buf[this.pos]!;
        if (b === COMMA || b === CLOSE_BRACKET || isSpace(b)) break;
        this.pos++;
      }
    }
    this.scanning = false;
    const start = this.scanStart;
    this.lastStart = start;
    this.lastEnd = this.pos;
    this.offset = this.base + start;
    this.length = this.pos - start;
  }

  /** The whole text of the current element (the one last returned by next() or advance()). */
  fullText(): string {
    return this.buf.toString('utf8', this.lastStart, this.lastEnd);
  }

  /**
   * Bytes [from, to) of the current element (clamped to it) as latin1: one character per byte,
   * a copy without UTF-8 decoding. ASCII reads as itself; any other byte as a character above
   * U+007F, which callers take as "decode properly".
   */
  latin1(from: number, to: number): string {
    const start = this.lastStart + Math.max(0, Math.min(from, this.length));
    const end = this.lastStart + Math.max(0, Math.min(to, this.length));
    return this.buf.toString('latin1', start, end);
  }

  /** pos is just after an opening quote; leave it just after the closing one. */
  private skipString(): void {
    for (;;) {
      const q = this.buf.indexOf(QUOTE, this.pos);
      if (q === -1 || q >= this.end) {
        // Keep a trailing backslash run in view: it may escape a quote in the next chunk.
        this.pos = this.end;
        if (!this.refill()) throw this.malformed('unexpected end of file inside a string');
        // Step back over backslashes at the old end so that their count is seen again.
        while (this.pos > 0 && this.buf[this.pos - 1] === BACKSLASH) this.pos--;
        continue;
      }
      let backslashes = 0;
      for (let i = q - 1; i >= 0 && this.buf[i] === BACKSLASH; i--) backslashes++;
      this.pos = q + 1;
      if (backslashes % 2 === 0) return;
    }
  }

  /**
   * A structural error, located (lines are counted only now, so reading stays fast). Inside an
   * element, the scanner only notices at the end of the file (a lost quote turns the rest of the
   * file into one string): the element is parsed from its start to find the real first error.
   */
  private malformed(message: string): Error {
    if (this.scanning) {
      const start = this.base + this.scanStart;
      // A reader of a range counts its own elements: the position says which one.
      const which = this.range ? 'an element of the array' : `element ${this.index} of the array`;
      const found = syntaxErrorInFile(this.file, start);
      if (found) return fileError(this.file, found.byteOffset, `${which} is not valid JSON: ${found.message}`);
      return fileError(this.file, start, `${which}, which starts here, is not closed before the end of the file`);
    }
    return fileError(this.file, this.base + this.pos, message);
  }
}

/** Parse an element: text that is not JSON (bytes that are not UTF-8 included) or nests too deeply is a CLI_FIXTURES error at its index and position. */
export function parseElement(file: string, element: ArrayElement, index: number): unknown {
  let value: unknown;
  try {
    value = JSON.parse(element.text);
  } catch (error) {
    throw invalidJsonInFile(file, element.offset, element.length, `element ${index} of the array`, { cause: error, path: `/${index}` });
  }
  checkJsonDepth([value], MAX_JSON_DEPTH, `${file}, element ${index} of the array,`);
  return value;
}

/** Parse an element as an object; anything else is a CLI_FIXTURES error at its index. */
export function parseObjectElement(file: string, element: ArrayElement, index: number): Record<string, unknown> {
  const value = parseElement(file, element, index);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw fileError(file, element.offset, `element ${index} of the array must be an object`, { path: `/${index}` });
  }
  return value as Record<string, unknown>;
}
