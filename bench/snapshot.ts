// `npm run bench:snapshot`: snapshotTenant() against `serve` (a child process on loopback) over
// a generated tenant (100,000 identities by default): identities per second of a full copy, and
// the time of a --since copy after 1% of the records changed (identities patched, accounts
// patched, moved, added and deleted, identities added and deleted) as a ratio of the full copy's.
// Full and --since copies of the same state alternate (R pairs), so that both see the same load;
// each --since copy must be the same bytes as the full copy before it.
//
//   npx tsx bench/snapshot.ts [--identities N] [--runs R]
//
// Tenants are cached under bench/.data/ (git-ignored). Figures are medians of the R runs, the
// ratio the median of the R pairs' ratios; the load average is printed with every run, and the
// CPU time of both processes (this one and serve, read from /proc on Linux) with its ratio.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs, count } from './args.js';
import { Store } from '../src/api/store/store.js';
import { snapshotTenant, type SnapshotSummary } from '../src/snapshot/index.js';
import { ADMIN_PAT } from '../test/api/resources-server.js';
import { changeTenant, writeStampedTenant } from '../test/e2e/snapshot-tenant.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const { identities: N, runs: RUNS } = benchArgs({ identities: count(100_000), runs: count(3) });

const data = join(root, 'bench', '.data', `snapshot-${N}`);
if (!existsSync(join(data, '.complete'))) {
  rmSync(data, { recursive: true, force: true });
  mkdirSync(data, { recursive: true });
  const t = performance.now();
  await writeStampedTenant(data, N, 'bench');
  (await import('node:fs')).writeFileSync(join(data, '.complete'), '');
  console.log(`generated a ${N.toLocaleString('en-US')}-identity tenant in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

const work = mkdtempSync(join(tmpdir(), 'idt-bench-snapshot-'));
const db = join(work, 'tenant.db');
const serve = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/run.ts'), 'serve', '--fixtures', data, '--db', db, '--port', '0'], {
  cwd: root,
  // serve logs every request on stderr: kept out of the figures' way, its tail shown if it fails.
  stdio: ['ignore', 'pipe', 'pipe'],
});
let serveErr = '';
serve.stderr!.on('data', (d) => (serveErr = (serveErr + String(d)).slice(-2000)));
const started = performance.now();
const baseUrl = await new Promise<string>((resolve, reject) => {
  let out = '';
  serve.stdout!.on('data', (d) => {
    out += String(d);
    const m = /^listening (\{.*\})$/m.exec(out);
    if (m) resolve((JSON.parse(m[1]!) as { baseUrl: string }).baseUrl);
  });
  serve.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${serveErr}`)));
});
console.log(`serve loaded the tenant in ${((performance.now() - started) / 1000).toFixed(1)} s: ${baseUrl}`);

const tenant = { baseUrl, clientId: ADMIN_PAT.id, clientSecret: ADMIN_PAT.secret };
const T1 = Date.parse('2025-06-01T00:00:00.000Z');
const T2 = Date.parse('2025-06-03T00:00:00.000Z');

/** CPU milliseconds used by serve so far (Linux /proc; null elsewhere), and by this process. */
function serveCpu(): number | null {
  try {
    const fields = readFileSync(`/proc/${serve.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}
const ownCpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function timed(out: string, at: number, since?: string): Promise<{ ms: number; cpu: number | null; summary: SnapshotSummary }> {
  rmSync(out, { recursive: true, force: true });
  const serveBefore = serveCpu();
  const ownBefore = ownCpu();
  const t = performance.now();
  // Where the time goes: until the first page of identities is written (token, small lists,
  // count, and under --since the accounts modified since), then the walk.
  let firstPage = 0;
  const summary = await snapshotTenant({
    tenant,
    out,
    now: () => at,
    ...(since ? { since } : {}),
    onProgress: (p) => {
      if (firstPage === 0 && p.phase === 'identities' && p.identities > 0) firstPage = performance.now() - t;
    },
  });
  const ms = performance.now() - t;
  const serveAfter = serveCpu();
  const own = ownCpu() - ownBefore;
  const served = serveBefore === null || serveAfter === null ? null : serveAfter - serveBefore;
  // CPU time (this process and serve) moves less with the machine's load than the wall clock.
  console.log(`  first page written after ${(firstPage / 1000).toFixed(1)} s, walk ${((ms - firstPage) / 1000).toFixed(1)} s; CPU: here ${(own / 1000).toFixed(2)} s, serve ${served === null ? '?' : (served / 1000).toFixed(2)} s`);
  return { ms, cpu: served === null ? null : own + served, summary };
}

function digest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else hash.update(relative(dir, p)).update(readFileSync(p));
    }
  };
  walk(dir);
  return hash.digest('hex').slice(0, 16);
}

/** The load average over the last minute, as the figures' context (the machine may be shared). */
const load = () => loadavg()[0]!.toFixed(1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

try {
  // The previous snapshot: a full copy before the changes.
  const base = await timed(join(work, 'base'), T1);
  console.log(`full copy before the changes: ${(base.ms / 1000).toFixed(2)} s, ${base.summary.requests} requests (load ${load()})`);
  const store = Store.open({ file: db });
  const changes = changeTenant({ store }, 0.01, '2025-06-02T00:00:00.000Z');
  store.close();
  console.log('changed:', JSON.stringify(changes));
  // Then, alternately, a full copy and a --since copy of the same state, so that both see the
  // same load; each --since copy must be the same bytes as the full one.
  const fulls: number[] = [];
  const sinces: number[] = [];
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  let fullSummary: SnapshotSummary | null = null;
  let sinceSummary: SnapshotSummary | null = null;
  for (let r = 0; r < RUNS; r++) {
    const f = await timed(join(work, 'full'), T2);
    console.log(`run ${r + 1} full copy: ${(f.ms / 1000).toFixed(2)} s, ${f.summary.requests} requests (load ${load()})`);
    const i = await timed(join(work, 'since'), T2, join(work, 'base'));
    console.log(`run ${r + 1} --since: ${(i.ms / 1000).toFixed(2)} s, ${i.summary.requests} requests, ${JSON.stringify(i.summary.merge)} (load ${load()})`);
    const same = digest(join(work, 'since')) === digest(join(work, 'full'));
    console.log(`run ${r + 1} --since = full copy: ${same}; ratio ${(i.ms / f.ms).toFixed(3)}${i.cpu !== null && f.cpu !== null ? `, of CPU time ${(i.cpu / f.cpu).toFixed(3)}` : ''}`);
    if (!same) process.exitCode = 1;
    fulls.push(f.ms);
    sinces.push(i.ms);
    ratios.push(i.ms / f.ms);
    if (i.cpu !== null && f.cpu !== null) cpuRatios.push(i.cpu / f.cpu);
    [fullSummary, sinceSummary] = [f.summary, i.summary];
  }
  const c = fullSummary!.counts;
  const full = median(fulls);
  const since = median(sinces);
  console.log('');
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node ${process.version}, load average now ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`| tenant | full copy (median of ${RUNS}) | identities/s | accounts/s | --since, 1% changed (median) | ratio (median of pairs; min–max) |`);
  console.log(`| --- | --- | --- | --- | --- | --- |`);
  console.log(
    `| ${c.identities.toLocaleString('en-US')} identities, ${c.accounts.toLocaleString('en-US')} accounts | ${(full / 1000).toFixed(1)} s (${fullSummary!.requests} requests) | ${Math.round((c.identities * 1000) / full).toLocaleString('en-US')} | ${Math.round((c.accounts * 1000) / full).toLocaleString('en-US')} | ${(since / 1000).toFixed(1)} s (${sinceSummary!.requests} requests, ${sinceSummary!.merge!.fetched} identities fetched) | ${median(ratios).toFixed(3)}× (${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}) |`,
  );
  if (cpuRatios.length > 0) console.log(`ratio of CPU time (this process and serve): ${median(cpuRatios).toFixed(3)}× (${Math.min(...cpuRatios).toFixed(3)}–${Math.max(...cpuRatios).toFixed(3)})`);
} finally {
  serve.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
