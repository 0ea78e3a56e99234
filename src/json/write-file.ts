// Writing a file whole or not at all: the text goes to a temporary file beside it (named by the
// process, created exclusively), which is then renamed over the file, so that a reader or a crash
// sees the old file or the new one, never half of one. A directory likewise (replaceDirectory):
// written beside its place, then renamed into it.

import { chmodSync, existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Write `text` to `file` through a renamed temporary file; `mode` sets the new file's permissions. */
export function writeFileWhole(file: string, text: string, mode?: number): void {
  const temporary = `${file}.${process.pid}.tmp`;
  // A temporary file of an earlier process with the same id (it was killed mid-write) is stale.
  rmSync(temporary, { force: true });
  try {
    writeFileSync(temporary, text, mode === undefined ? { flag: 'wx' } : { flag: 'wx', mode });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * Give `to` the permission bits of the existing directory `from`, so that one replacing a private
 * (0700) directory is private from its first file on, never readable more widely than the one it replaces.
 */
export function keepMode(from: string, to: string): void {
  const stats = statSync(from, { throwIfNoEntry: false });
  if (stats?.isDirectory()) chmodSync(to, stats.mode & 0o7777);
}

/**
 * Put the completed directory `work` in place of `out`: the old one is renamed aside (`aside`, a
 * dot name beside it), the new one renamed in, then the old one removed. Each rename is atomic (a
 * directory cannot be renamed over a non-empty one); if the second fails, the old one is renamed
 * back. `fail` says what could not be done, in the caller's words and code.
 */
export function replaceDirectory(work: string, out: string, aside: string, fail: (message: string, cause: unknown) => Error): void {
  try {
    keepMode(out, work);
    rmSync(aside, { recursive: true, force: true });
    if (existsSync(out)) renameSync(out, aside);
  } catch (error) {
    throw fail(`cannot replace ${out}: ${(error as Error).message}`, error);
  }
  try {
    renameSync(work, out);
  } catch (error) {
    if (existsSync(aside) && !existsSync(out)) renameSync(aside, out);
    throw fail(`cannot move the new ${basename(out)} into ${out}: ${(error as Error).message}`, error);
  }
  rmSync(aside, { recursive: true, force: true });
}

/** A dot-named sibling of `dir` for `purpose` ("snapshot-previous", "gen-tenant-work"). */
export function siblingOf(dir: string, purpose: string): string {
  return join(dirname(dir), `.${basename(dir)}.${purpose}`);
}
