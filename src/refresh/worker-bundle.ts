// Which module the threads of a compiled tree load: the one-file bundle (worker.bundle.js,
// scripts/build-worker-bundle.ts) when it belongs to the worker.js beside it, else worker.js.
// The build appends to worker.js a line naming the bundle by its SHA-256. A tsc run over a
// built tree writes worker.js again without it (the bundle would run stale code), and a bundle
// changed or cut short after the build no longer matches; both load worker.js and its graph.
// File times cannot decide it: npm unpacks a package's files in no set order and stamps each
// with the time it was written, so an installed bundle is often older than its worker.js.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The line's start; the bundle's SHA-256 (hex) follows it. */
const STAMP = '//# worker.bundle.js sha256=';

/** The line the build appends to worker.js for a bundle of these bytes. */
export function bundleStamp(bundle: Uint8Array): string {
  return `\n${STAMP}${createHash('sha256').update(bundle).digest('hex')}\n`;
}

function readOrNull(url: URL): Buffer | null {
  try {
    return readFileSync(url);
  } catch {
    return null;
  }
}

/** The worker module of a compiled tree whose pool.js is `here`, relative to it. */
export function compiledWorker(here: string): './worker.bundle.js' | './worker.js' {
  const worker = readOrNull(new URL('./worker.js', here));
  const bundle = worker === null ? null : readOrNull(new URL('./worker.bundle.js', here));
  return bundle !== null && worker!.toString('utf8').endsWith(bundleStamp(bundle)) ? './worker.bundle.js' : './worker.js';
}
