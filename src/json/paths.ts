// Paths of the files a command reads and writes: whether one names a directory, whether one lies
// inside a tree (a link's target, a file's place in a report), and a link's real path.

import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';

/** Whether `path` names an existing directory. */
export function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/**
 * `path` relative to `base` when it lies inside it (a name such as `..x.json` included), else
 * undefined: above it (`..`, `../…`) or on another root.
 */
export function pathInside(base: string, path: string): string | undefined {
  const inside = relative(base, path);
  return inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside) ? undefined : inside;
}

/** The real path of `path` (links resolved), or undefined when there is none (a dangling link, a missing file). */
export function realPathOf(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}
