// Writing a file whole or not at all: the text goes to a temporary file beside it (named by the
// process, created exclusively), which is then renamed over the file, so that a reader or a crash
// sees the old file or the new one, never half of one.

import { renameSync, rmSync, writeFileSync } from 'node:fs';

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
