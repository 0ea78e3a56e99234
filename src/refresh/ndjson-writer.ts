// Where refresh NDJSON goes (issue 6): any writable stream, with backpressure, or a file
// written under a temporary name in the same directory and renamed into place only when the
// run succeeded, so that a failed run leaves no half-written output (and keeps an older file).

import { createWriteStream, renameSync, rmSync, type WriteStream } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { codedError } from '../errors.js';

/** Write `text`, waiting for 'drain' when the stream's buffer is full. */
export async function writeWithBackpressure(stream: Writable | NodeJS.WritableStream, text: string): Promise<void> {
  if (text === '') return;
  if (!stream.write(text)) await once(stream as Writable, 'drain');
}

export class AtomicFileWriter {
  readonly temp: string;
  private readonly stream: WriteStream;
  private failure: Error | null = null;

  constructor(readonly path: string) {
    this.temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.partial`);
    this.stream = createWriteStream(this.temp, { flags: 'wx' });
    this.stream.on('error', (error) => {
      this.failure = error;
    });
  }

  async write(text: string): Promise<void> {
    if (this.failure) throw this.writeError(this.failure);
    try {
      await writeWithBackpressure(this.stream, text);
    } catch (error) {
      throw this.writeError(error as Error);
    }
  }

  /** Flush, close and rename into place. */
  async commit(): Promise<void> {
    if (this.failure) throw this.writeError(this.failure);
    this.stream.end();
    try {
      await once(this.stream, 'close');
    } catch (error) {
      throw this.writeError(error as Error);
    }
    if (this.failure) throw this.writeError(this.failure);
    renameSync(this.temp, this.path);
  }

  /** Close and delete the temporary file. */
  async abort(): Promise<void> {
    if (!this.stream.closed) {
      this.stream.destroy();
      await once(this.stream, 'close').catch(() => undefined);
    }
    rmSync(this.temp, { force: true });
  }

  private writeError(error: Error): Error {
    return codedError('CLI_READ', `cannot write ${this.path}: ${error.message}`, { cause: error, details: { file: this.path } });
  }
}
