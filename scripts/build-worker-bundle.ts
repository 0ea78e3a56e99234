// Build step (`npm run build`, after tsc): the refresh worker (src/refresh/worker.ts) and every
// module it imports bundled by esbuild into one file, dist/refresh/worker.bundle.js, which the
// pool's threads load when it is there (src/refresh/pool.ts). Each thread is an isolate of its
// own that resolves, reads and compiles its modules again: one file instead of a graph of some
// 170 saves each thread about 0.1 s of CPU at start (docs/bench-refresh.md). re2 (a native
// addon) and piscina (whose worker loads it anyway) stay imports of the package's dependencies;
// the CommonJS packages the engine loads lazily (createRequire) are resolved as before. The
// worker.js beside it gets a line naming the bundle (src/refresh/worker-bundle.ts), by which the
// pool knows the bundle belongs to that build.

import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleStamp } from '../src/refresh/worker-bundle.js';

const WORKER_ENTRY = fileURLToPath(new URL('../src/refresh/worker.ts', import.meta.url));

/** Bundle the worker into `outfile` (the build's and the benchmarks' compiled package), stamping the worker.js beside it. */
export async function buildWorkerBundle(outfile: string): Promise<void> {
  await build({
    entryPoints: [WORKER_ENTRY],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['re2', 'piscina'],
    logLevel: 'warning',
  });
  const worker = join(dirname(outfile), 'worker.js');
  if (existsSync(worker)) appendFileSync(worker, bundleStamp(readFileSync(outfile)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outfile = process.argv[2] ?? fileURLToPath(new URL('../dist/refresh/worker.bundle.js', import.meta.url));
  await buildWorkerBundle(outfile);
  process.stdout.write(`wrote ${outfile}\n`);
}
