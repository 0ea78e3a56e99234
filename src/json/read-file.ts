// Reading a document a user names (a transform, a profile, a version's file) within a size, as
// the one reader the CLI and impact share: only a regular file is read (a link is followed to
// what it names; a device such as /dev/zero, a FIFO or a socket is refused, never opened for a
// read that could hang or not end), and its size is checked from fstat before a byte is read,
// then held while reading (a file that grows meanwhile is cut off at the limit, not read on).

import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { stripByteOrderMark } from './positions.js';

export type FileRead =
  | { ok: true; text: string; bytes: number }
  | { ok: false; reason: 'unreadable' | 'directory' | 'not-regular'; message: string; cause?: unknown }
  | { ok: false; reason: 'too-large'; message: string; bytes: number };

/** A refusal of openRegularFile, as readRegularFile reports it. */
export type OpenFailure = Extract<FileRead, { ok: false; reason: 'unreadable' | 'directory' | 'not-regular' }>;

/**
 * A descriptor of `file` open for reading when it is a regular file (a link followed), and its
 * size; otherwise why not, the descriptor closed. For every reader of a file a user names, so
 * that a FIFO never holds a thread waiting for a writer and a device never streams without end.
 */
export function openRegularFile(file: string): { ok: true; fd: number; size: number } | OpenFailure {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. It changes
    // nothing for a regular file, the only kind read.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'EISDIR' ? 'directory' : 'unreadable', message: code === 'EISDIR' ? 'is a directory' : (error as Error).message, cause: error };
  }
  let failure: OpenFailure;
  try {
    const stats = fstatSync(fd);
    if (stats.isFile()) return { ok: true, fd, size: stats.size };
    failure = stats.isDirectory() ? { ok: false, reason: 'directory', message: 'is a directory' } : { ok: false, reason: 'not-regular', message: 'is not a regular file (a device, a FIFO or a socket)' };
  } catch (error) {
    failure = { ok: false, reason: 'unreadable', message: (error as Error).message, cause: error };
  }
  closeSync(fd);
  return failure;
}

/**
 * A regular file's text (UTF-8, a leading byte-order mark dropped) when it holds at most
 * `maxBytes` bytes; otherwise why not, with a message that completes "cannot read <file>: ".
 */
export function readRegularFile(file: string, maxBytes: number): FileRead {
  const opened = openRegularFile(file);
  if (!opened.ok) return opened;
  const fd = opened.fd;
  try {
    if (opened.size > maxBytes) return { ok: false, reason: 'too-large', message: `is ${opened.size} bytes, over the limit of ${maxBytes}`, bytes: opened.size };
    // One byte more than the size is asked for, to see a file that grew since; it may grow up to the limit.
    const { buffer, length } = readAtMost(fd, opened.size, maxBytes);
    if (length > maxBytes) return { ok: false, reason: 'too-large', message: `grew past the limit of ${maxBytes} bytes while read`, bytes: length };
    return { ok: true, text: stripByteOrderMark(buffer.toString('utf8', 0, length)), bytes: length };
  } catch (error) {
    return { ok: false, reason: 'unreadable', message: (error as Error).message, cause: error };
  } finally {
    closeSync(fd);
  }
}

/**
 * At most `maxBytes` bytes of a file of any kind, a pipe included (a secret handed over as
 * `--key-file <(pass show key)`): read to its end, or refused one byte past the bound — never read
 * without end (/dev/zero, /dev/urandom). A FIFO without a writer waits for one, as any reader of
 * a named pipe does.
 */
export function readBoundedBytes(file: string, maxBytes: number): { ok: true; bytes: Buffer } | { ok: false; reason: 'unreadable' | 'too-large'; message: string; cause?: unknown } {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY);
  } catch (error) {
    return { ok: false, reason: 'unreadable', message: (error as Error).message, cause: error };
  }
  try {
    const { buffer, length } = readAtMost(fd, maxBytes, maxBytes);
    if (length > maxBytes) return { ok: false, reason: 'too-large', message: `holds more than ${maxBytes} bytes` };
    return { ok: true, bytes: buffer.subarray(0, length) };
  } catch (error) {
    return { ok: false, reason: 'unreadable', message: (error as Error).message, cause: error };
  } finally {
    closeSync(fd);
  }
}

/**
 * Read `fd` to its end or to one byte past `maxBytes`, whichever comes first (so a length above
 * `maxBytes` means "more than the bound", and nothing past that byte is read). The buffer starts
 * at `expected` + 1 bytes (a regular file's size) and grows once, to `maxBytes` + 1, if more comes.
 */
function readAtMost(fd: number, expected: number, maxBytes: number): { buffer: Buffer; length: number } {
  let buffer = Buffer.allocUnsafe(Math.min(expected, maxBytes) + 1);
  let length = 0;
  for (;;) {
    const n = readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) return { buffer, length };
    length += n;
    if (length === buffer.length) {
      if (length > maxBytes) return { buffer, length };
      const grown = Buffer.allocUnsafe(maxBytes + 1);
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
  }
}
