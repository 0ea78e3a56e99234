// The package as users run it, for the benchmarks that measure worker threads: tsx's loader
// would add its own memory and time to each thread.

import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The package as users run it, built as `npm run build` builds it (tsc, then the schema
 * validators generated ahead of time and the refresh workers' bundle) into bench/.data/dist;
 * tsx's loader would add its own memory and time to the measurement.
 */
export function compiledRunner(): string {
  const outDir = join(root, 'bench', '.data', 'dist');
  spawnSync(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['tsc', '-p', 'tsconfig.build.json', '--outDir', outDir], { cwd: root, stdio: 'ignore' });
  const runner = join(outDir, 'refresh', 'runner.js');
  // tsc emits even when files elsewhere in the tree have type errors; only a missing file is fatal.
  if (!existsSync(runner)) throw new Error(`tsc did not produce ${runner}`);
  const module = (path: string) => JSON.stringify(pathToFileURL(join(outDir, path)).href);
  // scripts/precompile-validators.ts, over the compiled modules and into outDir.
  const precompile = `
    import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
    const { createEngine } = await import(${module('engine/engine.js')});
    const { buildDefinitionValidatorSchema, buildValidatorSchema } = await import(${module('schema/build.js')});
    const { standaloneValidator } = await import(${module('schema/compiled.js')});
    const dir = ${JSON.stringify(join(outDir, 'schema', 'precompiled'))};
    const transform = buildValidatorSchema(createEngine().registry);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const schema of [transform, buildDefinitionValidatorSchema(transform)]) for (const allErrors of [false, true]) {
      const { file, code } = standaloneValidator(schema, allErrors);
      writeFileSync(dir + '/' + file, code);
    }`;
  const built = spawnSync(process.execPath, ['--input-type=module', '-e', precompile], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`generating the schema validators failed: ${built.stderr}`);
  // scripts/build-worker-bundle.ts: the refresh workers' one-file module, as the package ships it.
  const bundled = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build-worker-bundle.ts'), join(outDir, 'refresh', 'worker.bundle.js')], { cwd: root, encoding: 'utf8' });
  if (bundled.status !== 0) throw new Error(`bundling the refresh worker failed: ${bundled.stderr}`);
  return pathToFileURL(runner).href;
}

/**
 * Source for a child script: `threadCpu()`, the CPU seconds of each of the process's threads
 * by thread id (Linux, from /proc/self/task/<tid>/stat; empty elsewhere).
 */
export const THREAD_CPU = `
    const { existsSync: taskDir, readdirSync: tasks, readFileSync: taskStat } = await import('node:fs');
    const threadCpu = () => {
      const cpu = new Map();
      if (!taskDir('/proc/self/task')) return cpu;
      for (const tid of tasks('/proc/self/task')) {
        try {
          const stat = taskStat('/proc/self/task/' + tid + '/stat', 'utf8');
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          cpu.set(tid, (Number(fields[11]) + Number(fields[12])) / 100);
        } catch {}
      }
      return cpu;
    };`;
