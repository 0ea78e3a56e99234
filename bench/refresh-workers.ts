// `npm run bench:refresh-workers`: worker counts against each other as users meet them, each run
// a fresh process of the compiled package (threads started, the profile compiled and the
// pre-pass run in every run, as the CLI does), the modes alternated round by round so that a
// shared machine's load moves every side of a ratio alike; each figure is the median of the
// runs, with their spread and the load average at the start and end of each run.
//
//   npx tsx bench/refresh-workers.ts [--sizes 200,20000,100000,1000000] [--modes 0,auto] [--runs 3]
//
// `--modes 1,2` measures what a second worker adds, and the CPU of all threads against 1
// worker's, which the machine's load moves far less than the time. Every run's NDJSON is hashed and must agree
// with the other modes' at the same size (bench/refresh.ts checks it against the hand-written
// baseline).

import { spawnSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs, count, counts, workerModes } from './args.js';
import { compiledRunner, THREAD_CPU } from './compiled.js';
import { benchTenant } from './tenants.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const profileFile = join(root, 'fixtures', 'identity-profiles', 'default.json');
const NOW = '2025-06-01T00:00:00.000Z';

const { sizes, modes, runs: RUNS } = benchArgs({ sizes: counts([200, 20_000, 100_000, 1_000_000]), modes: workerModes([0, 'auto']), runs: count(3) });

interface Run {
  /** The whole process, from spawn to exit, as a user times the command. */
  seconds: number;
  /** The refresh alone, in the process. */
  refreshSeconds: number;
  workers: number;
  sha256: string;
  peakMib: number;
  /** CPU seconds: the main thread, the threads the process had before the refresh (V8's platform threads, libuv's), the workers'. */
  cpu: { main: number; helpers: number; workers: number };
  load: [number, number];
}

/** One refresh in a fresh process of the compiled package; CPU by thread from /proc (Linux). */
function runOnce(runner: string, dir: string, workers: number | 'auto'): Run {
  const script = `
    import { createHash } from 'node:crypto';
    const { RefreshRunner } = await import(${JSON.stringify(runner)});
    ${THREAD_CPU}
    const before = threadCpu();
    const usage = process.cpuUsage();
    const start = performance.now();
    const hash = createHash('sha256');
    const run = new RefreshRunner({ fixtures: ${JSON.stringify(dir)}, profile: ${JSON.stringify(profileFile)}, workers: ${JSON.stringify(workers)}, now: ${JSON.stringify(NOW)} });
    for await (const batch of run.batches()) hash.update(batch.bytes ?? batch.text);
    const refreshSeconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(usage);
    const total = (used.user + used.system) / 1e6;
    let main = 0;
    let helpers = 0;
    for (const [tid, seconds] of threadCpu()) {
      if (!before.has(tid)) continue;
      if (tid === String(process.pid)) main += seconds - before.get(tid);
      else helpers += seconds - before.get(tid);
    }
    const summary = run.summary();
    process.stdout.write(JSON.stringify({ refreshSeconds, workers: summary.workers, sha256: hash.digest('hex'), peakMib: summary.peakRssBytes / (1 << 20), cpu: { main, helpers, workers: Math.max(0, total - main - helpers) } }) + '\\n');`;
  const load = loadavg()[0]!;
  const start = performance.now();
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24 });
  const seconds = (performance.now() - start) / 1000;
  if (child.status !== 0) throw new Error(`the refresh of ${dir} with workers ${workers} failed: ${child.stderr}`);
  return { ...(JSON.parse(child.stdout.trim().split('\n').pop()!) as Omit<Run, 'seconds' | 'load'>), seconds, load: [load, loadavg()[0]!] };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

const f = (x: number, digits = 2) => x.toFixed(digits);

const cpuOf = (run: Run) => run.cpu.main + run.cpu.helpers + run.cpu.workers;

/**
 * What the threads cost, which a shared machine's load moves far less than the time: the CPU of
 * every thread of `mode`'s runs against the reference's, round by round. From 1 worker to n, the
 * speed-up that CPU leaves room for, as a figure the load hardly moves: 1 worker's thread CPU
 * (its run lasts at least that long) against n workers' whole CPU spread over min(n, cores)
 * cores (their run lasts at least that long). On a quiet 2-core machine it was close to the
 * measured ratio (docs/bench-refresh.md).
 */
function cpuLine(size: number, reference: number | 'auto', mode: number | 'auto', a: Run[], b: Run[]): string {
  const per = a.map((r, i) => cpuOf(b[i]!) / cpuOf(r));
  let line = `${size.toLocaleString('en-US')} identities, CPU of all threads, workers ${reference} → ${mode}: ${f(median(b.map(cpuOf)))} s against ${f(median(a.map(cpuOf)))} s, ${f(median(per))}× (rounds: ${per.map((x) => f(x)).join(', ')})`;
  if (reference === 1 && typeof mode === 'number' && mode > 1) {
    const cores = Math.min(mode, availableParallelism());
    line += `; room on ${cores} cores: ${f((cores * median(a.map((r) => r.cpu.workers))) / median(b.map(cpuOf)))}× (${cores} × 1 worker's ${f(median(a.map((r) => r.cpu.workers)))} s / ${f(median(b.map(cpuOf)))} s)`;
  }
  return line;
}

function main(): void {
  process.stderr.write(`machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}, load ${loadavg().map((l) => f(l)).join(' ')}\n`);
  const runner = compiledRunner();
  const lines = ['| identities | workers | time (s), median [range] | refresh in the process (s) | CPU: main / helpers / workers (s) | peak RSS (MiB) | load (1 min) at start → end |', '| ---: | --- | --- | ---: | --- | ---: | --- |'];
  const ratios: string[] = [];
  for (const size of sizes) {
    const dir = benchTenant(size);
    const runs = new Map<number | 'auto', Run[]>(modes.map((m) => [m, []]));
    for (let r = 0; r < RUNS; r++) {
      for (const mode of r % 2 === 0 ? modes : [...modes].reverse()) {
        const run = runOnce(runner, dir, mode);
        runs.get(mode)!.push(run);
        process.stderr.write(`  ${size} identities, workers ${mode} (${run.workers}): ${f(run.seconds)} s, load ${f(run.load[0])} → ${f(run.load[1])}\n`);
      }
    }
    const hashes = new Set([...runs.values()].flat().map((r) => r.sha256));
    if (hashes.size !== 1) throw new Error(`${size} identities: the runs' outputs differ`);
    for (const [mode, rs] of runs) {
      const t = rs.map((r) => r.seconds);
      const cpu = (k: keyof Run['cpu']) => f(median(rs.map((r) => r.cpu[k])));
      lines.push(
        `| ${size.toLocaleString('en-US')} | ${mode}${mode === 'auto' ? ` (${[...new Set(rs.map((r) => r.workers))].join(', ')})` : ''} | ${f(median(t))} [${f(Math.min(...t))}–${f(Math.max(...t))}] | ${f(median(rs.map((r) => r.refreshSeconds)))} | ${cpu('main')} / ${cpu('helpers')} / ${cpu('workers')} | ${f(median(rs.map((r) => r.peakMib)), 0)} | ${rs.map((r) => `${f(r.load[0], 1)}→${f(r.load[1], 1)}`).join(', ')} |`,
      );
    }
    // The first mode is the reference: each other mode's speed-up over it, per round and as the median.
    const [reference, ...others] = modes;
    for (const mode of others) {
      const per = runs.get(reference!)!.map((r, i) => r.seconds / runs.get(mode)![i]!.seconds);
      ratios.push(`${size.toLocaleString('en-US')} identities, workers ${reference} → ${mode}: ${f(median(per))}× (rounds: ${per.map((x) => f(x)).join(', ')}; medians ${f(median(runs.get(reference!)!.map((r) => r.seconds)) / median(runs.get(mode)!.map((r) => r.seconds)))}×)`);
      ratios.push(cpuLine(size, reference!, mode, runs.get(reference!)!, runs.get(mode)!));
    }
  }
  process.stdout.write([...lines, '', ...ratios, `output identical across the modes at each size (sha256); load average after the runs: ${loadavg().map((l) => f(l)).join(' ')}`].join('\n') + '\n');
}

main();
