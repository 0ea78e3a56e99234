// `npm run bench:verify`: verify of the bundled profile over a generated tenant whose stored
// attributes are what the profile computes (gen-tenant --stored --plant; 100,000 identities by
// default), against a refresh of the same profile over the same tenant. Goal: verify ≤ 1.2× the
// refresh (the comparison runs in the workers, where each identity is evaluated).
// Runs alternate (refresh, verify, refresh, …) so that load on a shared machine moves both
// sides of the ratio alike; each figure is the median of its runs. Beside the wall-clock time,
// the CPU time the process spent (process.cpuUsage: every thread, the workers included) is
// recorded: on a loaded machine it says what the work cost when the wall clock mostly says how
// long the run waited for a core.
//
//   npx tsx bench/verify.ts [--identities N] [--runs R] [--workers W]

import { cpSync, existsSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs, count, workers } from './args.js';
import { refresh } from '../src/refresh/index.js';
import { storeComputedAttributes, writeTenant } from '../src/testing/generator/index.js';
import { comparableAttributes, verify } from '../src/verify/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = join(root, 'fixtures');
const NOW = '2026-03-01T00:00:00.000Z';

const { identities: N, runs: RUNS, workers: WORKERS } = benchArgs({ identities: count(100_000), runs: count(3), workers: workers('auto') });

/** The stored tenant of this size, cached under bench/.data/ (git-ignored), made again when the bundled transforms change. */
async function storedTenant(identities: number): Promise<string> {
  const dir = join(root, 'bench', '.data', `verify-tenant-${identities}`);
  if (!existsSync(join(dir, 'accounts.json'))) {
    process.stderr.write(`generating ${identities.toLocaleString('en-US')} identities with stored attributes into ${dir} …\n`);
    rmSync(dir, { recursive: true, force: true });
    writeTenant(dir, { identities, seed: 'bench', copyFrom: fixtures });
    await storeComputedAttributes(dir, { plantIn: comparableAttributes(dir) });
  }
  rmSync(join(dir, 'transforms'), { recursive: true, force: true });
  cpSync(join(fixtures, 'transforms'), join(dir, 'transforms'), { recursive: true });
  return dir;
}

interface Timing {
  wall: number;
  cpu: number;
}

async function time(run: () => Promise<unknown>): Promise<Timing> {
  const t = performance.now();
  const c = process.cpuUsage();
  await run();
  const used = process.cpuUsage(c);
  return { wall: performance.now() - t, cpu: (used.user + used.system) / 1000 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

console.log(`bench:verify — ${N.toLocaleString('en-US')} identities, ${RUNS} alternating runs (median), workers ${String(WORKERS)}`);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const dir = await storedTenant(N);
const refreshed: Timing[] = [];
const verified: Timing[] = [];
let differ = 0;
for (let r = 0; r < RUNS; r++) {
  refreshed.push(await time(async () => {
    for await (const _ of refresh({ fixtures: dir, now: NOW, workers: WORKERS })) void _;
  }));
  verified.push(await time(async () => {
    const job = verify({ fixtures: dir, now: NOW, workers: WORKERS });
    for await (const _ of job) void _;
    differ = job.report().totals.differ;
  }));
}
const f = median(refreshed.map((t) => t.wall));
const v = median(verified.map((t) => t.wall));
const fc = median(refreshed.map((t) => t.cpu));
const vc = median(verified.map((t) => t.cpu));
console.log(`  refresh ${seconds(f)} (CPU ${seconds(fc)})`);
console.log(`  verify  ${seconds(v)} (CPU ${seconds(vc)})   (${differ.toLocaleString('en-US')} values differ: the planted ones)`);
console.log(`  verify / refresh ${(v / f).toFixed(2)}× wall clock, ${(vc / fc).toFixed(2)}× CPU   (goal ≤ 1.2×)`);
console.log(`load after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
