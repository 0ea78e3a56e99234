// The bounds on what the language server reads from its client, checked on the byte stream before
// vscode-jsonrpc sees it: the protocol's base framing (a header block ended by an empty line, then
// Content-Length bytes of content; https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/#headerPart)
// with a header block of at most 8 KB and a message of at most 64 MB. The reader underneath
// buffers a whole message before parsing it and a header block until its empty line: a lying
// Content-Length or a header without end grew the process without bound. 64 MB is above any
// document an editor hands its language servers (VS Code syncs none above 50 MB), whose diagnostic
// is VALIDATE_TOO_LARGE anyway.

import { Transform, type TransformCallback } from 'node:stream';
import { codedError } from '../errors/index.js';

export const MAX_HEADER_BYTES = 8 * 1024;
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

const EMPTY_LINE = Buffer.from('\r\n\r\n');

/** The Content-Length of a header block (its text up to the empty line): LSP_FRAMING when absent or not digits. */
function contentLength(block: string): number {
  let length: number | undefined;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^\d{1,16}$/.test(value)) throw codedError('LSP_FRAMING', `a message's Content-Length is not a number of bytes: ${JSON.stringify(value.slice(0, 40))}`);
    length = Number(value);
  }
  if (length === undefined) throw codedError('LSP_FRAMING', 'a message has no Content-Length header');
  if (length > MAX_MESSAGE_BYTES) throw codedError('LSP_FRAMING', `a message of ${length} bytes is above the limit of ${MAX_MESSAGE_BYTES} bytes (64 MB)`);
  return length;
}

/** Passes the client's bytes through while they keep to the bounds; fails the stream with LSP_FRAMING at the first that does not. */
export class BoundedFrames extends Transform {
  /** Bytes of a header block not yet ended, from earlier chunks. */
  private header: Buffer = Buffer.alloc(0);
  /** Content bytes of the current message still to come. */
  private remaining = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      let at = 0;
      while (at < chunk.length) {
        if (this.remaining > 0) {
          const n = Math.min(this.remaining, chunk.length - at);
          this.push(chunk.subarray(at, at + n));
          at += n;
          this.remaining -= n;
          continue;
        }
        const before = this.header.length;
        const joined = before > 0 ? Buffer.concat([this.header, chunk.subarray(at)]) : chunk.subarray(at);
        const end = joined.subarray(0, MAX_HEADER_BYTES + EMPTY_LINE.length).indexOf(EMPTY_LINE);
        if (end < 0) {
          if (joined.length > MAX_HEADER_BYTES) throw codedError('LSP_FRAMING', `a message's header is above the limit of ${MAX_HEADER_BYTES} bytes without its end (an empty line)`);
          this.header = Buffer.from(joined);
          break;
        }
        const block = joined.subarray(0, end + EMPTY_LINE.length);
        this.remaining = contentLength(block.toString('latin1', 0, end));
        this.push(block);
        at += block.length - before;
        this.header = Buffer.alloc(0);
      }
      done();
    } catch (error) {
      done(error as Error);
    }
  }
}
