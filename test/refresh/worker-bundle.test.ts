// The module the threads of a compiled tree load (src/refresh/worker-bundle.ts): the one-file
// bundle only when the build's line in worker.js names it, whatever the files' times say.

import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleStamp, compiledWorker } from '../../src/refresh/worker-bundle.js';
import { cleanUp, tempDir } from './tenants.js';

afterAll(cleanUp);

const BUNDLE = 'export default function evaluateBatch() {}\n';
const WORKER = 'export { default } from "./engine.js";\n';
const STAMPED = WORKER + bundleStamp(Buffer.from(BUNDLE));

/** A compiled tree's refresh/ directory with these files (content, second it was modified); the URL of its pool.js. */
function tree(files: Record<string, [string, number]>): string {
  const dir = tempDir('idt-worker-module-');
  for (const [name, [content, second]] of Object.entries(files)) {
    writeFileSync(join(dir, name), content);
    utimesSync(join(dir, name), second, second);
  }
  return pathToFileURL(join(dir, 'pool.js')).href;
}

describe('the module the threads of a compiled tree load', () => {
  it.each([
    ['the bundle, built after worker.js', { 'worker.js': [STAMPED, 1_000], 'worker.bundle.js': [BUNDLE, 1_001] }, './worker.bundle.js'],
    // npm unpacks a package's files in no set order, each with the time it was written.
    ['the bundle, as npm unpacked it (the bundle written first)', { 'worker.bundle.js': [BUNDLE, 1_000], 'worker.js': [STAMPED, 1_001] }, './worker.bundle.js'],
    ['worker.js, when tsc wrote it again after the bundle (no line)', { 'worker.js': [WORKER, 1_002], 'worker.bundle.js': [BUNDLE, 1_001] }, './worker.js'],
    ['worker.js, when the bundle was cut short after the build', { 'worker.js': [STAMPED, 1_000], 'worker.bundle.js': [BUNDLE.slice(0, 10), 1_001] }, './worker.js'],
    ['worker.js, when there is no bundle (tsc alone)', { 'worker.js': [WORKER, 1_000] }, './worker.js'],
    ['worker.js, when the bundle is there but the build never stamped worker.js', { 'worker.js': [WORKER, 1_000], 'worker.bundle.js': [BUNDLE, 1_000] }, './worker.js'],
  ] as const)('is %s', (_case, files, expected) => {
    expect(compiledWorker(tree(files as unknown as Record<string, [string, number]>))).toBe(expected);
  });
});
