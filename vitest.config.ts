import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Two projects, both run by `npm test` (`vitest run`):
// - unit: in-process tests of the library, the CLI's `main` and the server (`npx vitest run
//   --project unit` gives feedback in seconds);
// - e2e: tests that spawn processes — the package packed and installed into a fresh project
//   (test/e2e/install.ts, set up once per run by test/e2e/global-setup.ts), the README's shell
//   blocks, the CLI and server as child processes, browsers, Java. New ones go under test/e2e/;
//   a test of one module that needs a process of its own (a heap limit, a signal, a dying
//   thread) sits beside that module's tests as `<name>.process.test.ts`.
const SPAWNING = ['test/e2e/**/*.test.ts', 'test/**/*.process.test.ts', 'test/api/serve.test.ts', 'test/providers/tenant-e2e.test.ts'];

// The e2e files that take longest, longest first, started before the others: the run ends when
// its last file does, and two workers finish together only when the long files are not the last
// ones handed out (longest-first scheduling). vitest orders by the durations of the previous run
// when it has them, and otherwise (a fresh clone, as CI runs) by file size, which put
// snapshot.test.ts, the longest and among the smaller, after most others. snapshot.test.ts needs
// no installed package, so it runs while the other worker waits for the install
// (test/e2e/install.ts). Durations from a fresh clone's CI run.
const LONGEST_FIRST = ['test/e2e/snapshot.test.ts', 'test/e2e/play-browser.test.ts', 'test/e2e/action.test.ts', 'test/e2e/readme.test.ts'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FIRST.indexOf(relative(spec.project.config.root, spec.moduleId));
      return at < 0 ? LONGEST_FIRST.length : at;
    };
    // Array.prototype.sort is stable: the other files keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file per core. vitest's own default for `run` is one fewer than the cores, which
    // on a 2-core machine is a single worker: the whole suite in series while a core idles (the
    // main process only collects and reports). Most files also wait on I/O (SQLite, child
    // processes, the Java oracle), so a worker per core keeps both busy.
    maxWorkers: availableParallelism(),
    // Worker processes are kept from one test file to the next. vitest makes the run's one pool
    // of processes from these root options: a project's own `isolate: false` alone leaves the
    // pool isolating, which ends the process after each file, so every file paid a process start
    // and imported vitest and the library afresh. Projects never share a process (the pool is
    // recycled between them); the e2e project inherits this option with `extends`, so its files,
    // which spawn their own processes, share a worker's module cache too.
    poolOptions: { forks: { isolate: false } },
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: SPAWNING,
          // The test files of a worker share its process and module cache instead of each
          // importing the library afresh in a new process: evaluating src/ (the engine, the
          // schemas, the server) again for each of two hundred files was most of the project's
          // CPU time (599 s of CPU against 164 s shared, same tests, same load). A test file that
          // changes module state (a spy) restores it; process-wide state (the working directory)
          // is why these are forks, not threads.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: SPAWNING,
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 120_000,
          // Installing the packed package compiles re2 and better-sqlite3 from source.
          hookTimeout: 1_800_000,
        },
      },
    ],
  },
});
