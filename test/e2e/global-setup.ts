// Global setup of the e2e project: one scratch directory per `vitest run`, shared by every e2e
// test file (they run in separate processes). This checkout's build and the packed and installed
// package are made in it on first use (test/e2e/install.ts), once per run, so test files that do
// not need them pay nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's scratch directory for the installed package (see test/e2e/install.ts). */
    e2eScratch: string;
  }
}

export default function setup(project: TestProject): () => void {
  // IDT_E2E_SCRATCH keeps an installed consumer between runs while working on these tests.
  const kept = process.env.IDT_E2E_SCRATCH;
  const scratch = kept ?? mkdtempSync(join(tmpdir(), 'idt-e2e-'));
  // A kept directory is built and installed again (only the package changes, so that is quick).
  for (const name of ['build.json', 'build.lock', 'build-failed.txt', 'install.json', 'install.lock', 'install-failed.txt']) rmSync(join(scratch, name), { recursive: true, force: true });
  project.provide('e2eScratch', scratch);
  return () => {
    if (kept === undefined) rmSync(scratch, { recursive: true, force: true });
  };
}
