// The bound on what the MCP server reads from its client, checked on the byte stream before the
// SDK's transport sees it: stdio carries one JSON-RPC message per line
// (https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#stdio), and a line
// may hold at most MAX_LINE_BYTES. The SDK's reader gives up on a buffer above 10 MB by closing
// its transport without a word, and the process, its standard input still open, then served no
// one and never ended; this one fails first, with MCP_FRAMING. 8 MB is far above a tool call's
// largest arguments (a 400 KB document, each character escaped as \uXXXX, is 2.4 MB).

import { Transform, type TransformCallback } from 'node:stream';
import { codedError } from '../errors/index.js';

export const MAX_LINE_BYTES = 8 * 1024 * 1024;

const NEWLINE = 0x0a;

/** Passes the client's bytes through while each line keeps to the bound; fails the stream with MCP_FRAMING at the first that does not. */
export class BoundedLines extends Transform {
  /** Bytes of the line under way, from earlier chunks. */
  private line = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const last = chunk.lastIndexOf(NEWLINE);
    // Every line the chunk ends: the first one continues the line under way.
    let start = 0;
    let at = chunk.indexOf(NEWLINE);
    while (at !== -1 && at <= last) {
      if (this.line + (at - start) > MAX_LINE_BYTES) return done(tooLong());
      this.line = 0;
      start = at + 1;
      at = chunk.indexOf(NEWLINE, start);
    }
    this.line += chunk.length - start;
    if (this.line > MAX_LINE_BYTES) return done(tooLong());
    done(null, chunk);
  }
}

const tooLong = () => codedError('MCP_FRAMING', `a message is above the limit of ${MAX_LINE_BYTES} bytes (8 MB): a line of stdio is one message`);
