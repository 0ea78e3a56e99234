// Refresh results as NDJSON: each result serialised as one line, encoded to UTF-8 as it is
// made; then written to any writable stream, with backpressure, or a file written under a temporary name in the same
// directory and renamed into place only when the run succeeded, so that a failed run leaves no
// half-written output (and keeps an older file).

import { createWriteStream, fchmodSync, openSync, readdirSync, realpathSync, renameSync, rmSync, statSync, type Stats, type WriteStream } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { codedError } from '../errors/index.js';
import type { IdentityRefreshResult } from './evaluator.js';

/**
 * NDJSON lines as UTF-8, each encoded when it is added into one buffer of its own (a worker
 * transfers it to the main thread as it is): no array of line strings kept alive for a whole
 * batch, and no joined copy.
 */
export class NdjsonEncoder {
  /**
   * Kept from batch to batch (grown when a batch needs more, shrunk when batches get much
   * smaller): each batch's lines are copied out of it at their exact size. A buffer handed out
   * whole would be dead in this thread once grown, and its unused end would travel with it;
   * both would wait for a full collection (docs/bench-refresh.md).
   */
  private buf = Buffer.allocUnsafeSlow(1 << 14);
  private size = 0;

  add(line: string): void {
    // At most 3 bytes per UTF-16 code unit, and the newline; counted exactly only when that bound does not fit.
    let room = 3 * line.length + 1;
    if (this.size + room > this.buf.length) room = Buffer.byteLength(line, 'utf8') + 1;
    if (this.size + room > this.buf.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(2 * this.buf.length, this.size + room));
      this.buf.copy(bigger, 0, 0, this.size);
      this.buf = bigger;
    }
    this.size += this.buf.write(line, this.size, 'utf8');
    this.buf[this.size++] = 0x0a;
  }

  /** The lines added since the last take(), in a buffer of their own and exactly their size. */
  take(): Uint8Array {
    const lines = Buffer.allocUnsafeSlow(this.size);
    this.buf.copy(lines, 0, 0, this.size);
    if (this.size < this.buf.length / 4 && this.buf.length > 1 << 14) this.buf = Buffer.allocUnsafeSlow(Math.max(1 << 14, Math.ceil(this.size * 1.25)));
    this.size = 0;
    return lines;
  }
}

/** One result's NDJSON line (without the newline): `{"identityId","attributes","errors"}`, in that order. */
export function resultLine(result: IdentityRefreshResult): string {
  return JSON.stringify({ identityId: result.identityId, attributes: result.attributes, errors: result.errors });
}

/** A batch's results as NDJSON, UTF-8: one line each, in order. */
export function encodeResults(encoder: NdjsonEncoder, results: readonly IdentityRefreshResult[]): Uint8Array {
  for (const result of results) encoder.add(resultLine(result));
  return encoder.take();
}

/** Write `text` (or its UTF-8 bytes), waiting for 'drain' when the stream's buffer is full. */
export async function writeWithBackpressure(stream: Writable | NodeJS.WritableStream, text: string | Uint8Array): Promise<void> {
  if (text.length === 0) return;
  if (!stream.write(text)) await once(stream as Writable, 'drain');
}

/** The start of the temporary names of outputs at `target`: `.<name>.`, then `<pid>.<time>.partial`. */
const partialPrefix = (target: string): string => `.${basename(target)}.`;

/**
 * Remove the temporary files an earlier run at `target` left when it was killed (SIGKILL leaves
 * no chance to clean up): those whose process is no longer running. A live run's file is kept.
 */
function removeStalePartials(target: string): void {
  const prefix = partialPrefix(target);
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = name.startsWith(prefix) ? /^(\d+)\.[0-9a-z]+\.partial$/.exec(name.slice(prefix.length))?.[1] : undefined;
    if (pid === undefined || Number(pid) === process.pid || isRunning(Number(pid))) continue;
    rmSync(join(dirname(target), name), { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, run by another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class AtomicFileWriter {
  /** The temporary file, or null when the output is written directly (a device or a pipe). */
  readonly temp: string | null;
  /** The file the temporary file is renamed to: the path, or the file a link at it names. */
  private readonly target: string;
  private readonly stream: WriteStream;
  private failure: Error | null = null;

  /**
   * A directory is refused at once (CLI_READ), not after the run at the rename. A link is
   * followed, so that the file it names is replaced and the link kept. A device or a named pipe
   * (`/dev/null`, `/dev/stdout`, a shell's `>(…)`) cannot be replaced atomically, and a rename
   * would put a plain file in its place: it is written directly.
   *
   * The file put in place keeps the permissions of the file it replaces (a 0600 output stays
   * 0600, through a link too); a new file gets the usual 0666 less the umask. The temporary file
   * has them from its creation, so the data is never readable more widely in between.
   */
  constructor(readonly path: string) {
    let stats: Stats | undefined;
    try {
      stats = statSync(path);
    } catch {
      stats = undefined;
    }
    if (stats?.isDirectory()) throw this.writeError(new Error('it is a directory'));
    if (stats !== undefined && !stats.isFile()) {
      this.temp = null;
      this.target = path;
      this.stream = createWriteStream(path, { flags: 'w' });
    } else {
      const target = stats === undefined ? path : realpathSync(path);
      this.target = target;
      removeStalePartials(target);
      this.temp = join(dirname(target), `${partialPrefix(target)}${process.pid}.${Date.now().toString(36)}.partial`);
      const mode = stats === undefined ? 0o666 : stats.mode & 0o777;
      let fd: number;
      try {
        fd = openSync(this.temp, 'wx', mode);
        // The umask narrows the mode open() sets; the replaced file's mode is kept exactly.
        if (stats !== undefined) fchmodSync(fd, mode);
      } catch (error) {
        throw this.writeError(error as Error);
      }
      this.stream = createWriteStream(this.temp, { fd });
    }
    this.stream.on('error', (error) => {
      this.failure = error;
    });
    // Code the run calls (a rules module on this thread) may end the process with process.exit:
    // the hidden file goes with it rather than waiting for the next run to find it stale.
    if (this.temp !== null) process.once('exit', this.removeOnExit);
  }

  private readonly removeOnExit = (): void => {
    if (this.temp !== null) rmSync(this.temp, { force: true });
  };

  async write(text: string | Uint8Array): Promise<void> {
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
    try {
      if (this.temp !== null) renameSync(this.temp, this.target);
      process.off('exit', this.removeOnExit);
    } catch (error) {
      rmSync(this.temp!, { force: true });
      throw this.writeError(error as Error);
    }
  }

  /** Close and delete the temporary file. */
  async abort(): Promise<void> {
    if (!this.stream.closed) {
      this.stream.destroy();
      await once(this.stream, 'close').catch(() => undefined);
    }
    this.removeOnExit();
    process.off('exit', this.removeOnExit);
  }

  /** Delete the temporary file now (a process about to exit cannot wait for the stream to close). */
  abortSync(): void {
    this.stream.destroy();
    if (this.temp !== null) rmSync(this.temp, { force: true });
  }

  private writeError(error: Error): Error {
    return codedError('CLI_READ', `cannot write ${this.path}: ${error.message}`, { cause: error, details: { file: this.path } });
  }
}
