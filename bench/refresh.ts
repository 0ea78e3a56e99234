// `npm run bench:refresh`: the bundled identity profile over a generated
// 100,000-identity tenant, single-threaded and with 1 and 2 workers, against bench/baseline.ts
// (the same attributes written by hand), whose output is verified identical first; then 1 and
// 2 workers again with the compiled package, as users run it (under tsx the worker threads
// load TypeScript through its loader and compile the schema validators at every run); with
// --million, the peak RSS of a streamed 1,000,000-identity refresh in a child process running
// the compiled package, with the default workers and on the main thread (also --low-memory);
// --million-only runs that part alone.
//
//   npx tsx bench/refresh.ts [--identities N] [--runs R] [--million | --million-only] [--no-compiled]
//
// Tenants are cached under bench/.data/ (git-ignored). Every figure is the best of R runs: the
// machine may be shared, and the minimum is the least disturbed measurement; the computation-only
// pair is the median of alternating passes, by wall and by CPU time.

import { createHash } from 'node:crypto';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { benchArgs, count, flag } from './args.js';
import { benchTenant } from './tenants.js';
import { join } from 'node:path';
import { createBatchEvaluator } from '../src/refresh/evaluator.js';
import { encodeResults, NdjsonEncoder } from '../src/refresh/ndjson-writer.js';
import { resolveProfile } from '../src/refresh/profile-source.js';
import { RefreshRunner } from '../src/refresh/runner.js';
import { TenantStream, type TenantRecord } from '../src/refresh/fixture-stream/stream.js';
import type { Account, Identity } from '../src/providers/types.js';
import { baselineAttributes, baselineLine } from './baseline.js';
import { compiledRunner, THREAD_CPU } from './compiled.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = join(root, 'fixtures');
const profileFile = join(fixtures, 'identity-profiles', 'default.json');
const NOW = '2025-06-01T00:00:00.000Z';

const values = benchArgs({ identities: count(100_000), runs: count(2), million: flag(), 'million-only': flag(), compiled: flag(true), 'eval-sample': count(20_000) });
const N = values.identities;
const RUNS = values.runs;

interface Timing {
  ms: number;
  cpuMs: number;
  sha256: string;
  identities: number;
  /** Compiled rows on Linux: where the CPU went, by thread. */
  perThread?: { mainMs: number; helperMs: number; workersMs: number };
}

function best(label: string, run: () => Promise<Timing> | Timing): Promise<Timing> {
  return (async () => {
    let top: Timing | undefined;
    for (let i = 0; i < RUNS; i++) {
      const t = await run();
      if (top && t.sha256 !== top.sha256) throw new Error(`${label}: runs disagree`);
      if (!top || t.ms < top.ms) top = t;
    }
    process.stderr.write(`  ${label.padEnd(34)} ${rate(top!)} identities/s\n`);
    return top!;
  })();
}

/** Alternating passes of the computation-only comparison (at least --runs). */
const COMPUTE_PASSES = 7;

/** The median pass by wall time and, separately, the median CPU time. */
function medianTiming(ts: readonly Timing[]): Timing {
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { ...ts[0]!, ms: mid(ts.map((t) => t.ms)), cpuMs: mid(ts.map((t) => t.cpuMs)) };
}

function rate(t: Timing): string {
  return Math.round((t.identities * 1000) / t.ms).toLocaleString('en-US');
}

function parseRecord(r: TenantRecord): [Identity, Account[], Identity | null] {
  const identity = JSON.parse(r.identity) as Identity;
  identity.attributes ??= {};
  return [identity, JSON.parse(r.accounts) as Account[], r.manager === null ? null : (JSON.parse(r.manager) as Identity)];
}

/** The baseline end to end: the same streaming reader and join, the hand-written function. */
function baselineRun(dir: string): Timing {
  const hash = createHash('sha256');
  const cpu = process.cpuUsage();
  const start = performance.now();
  let identities = 0;
  for (const r of new TenantStream(dir).records()) {
    hash.update(baselineLine(...parseRecord(r)) + '\n');
    identities++;
  }
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, sha256: hash.digest('hex'), identities };
}

async function engineRun(dir: string, workers: number): Promise<Timing> {
  const hash = createHash('sha256');
  const cpu = process.cpuUsage();
  const start = performance.now();
  const runner = new RefreshRunner({ fixtures: dir, profile: profileFile, workers, now: NOW });
  for await (const batch of runner.batches()) hash.update(batch.bytes ?? batch.text);
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, sha256: hash.digest('hex'), identities: runner.summary().identities };
}

/** Evaluation only (parse + evaluate + serialize), records already in memory. */
async function evaluationOnly(dir: string, sample: number): Promise<Record<'engine' | 'baseline' | 'computeEngine' | 'computeBaseline', Timing>> {
  const records: TenantRecord[] = [];
  for (const r of new TenantStream(dir).records()) {
    records.push(r);
    if (records.length === sample) break;
  }
  const evaluator = createBatchEvaluator({ fixtures: dir, profile: resolveProfile(dir, profileFile), now: NOW });
  evaluator.run(records.slice(0, 512));
  const encoder = new NdjsonEncoder();
  const engine = await best('engine, evaluation only', () => {
    const hash = createHash('sha256');
    const start = performance.now();
    for (let i = 0; i < records.length; i += 256) hash.update(encodeResults(encoder, evaluator.run(records.slice(i, i + 256)).results));
    return { ms: performance.now() - start, cpuMs: 0, sha256: hash.digest('hex'), identities: records.length };
  });
  const baseline = await best('baseline, evaluation only', () => {
    const hash = createHash('sha256');
    const start = performance.now();
    for (const r of records) hash.update(baselineLine(...parseRecord(r)) + '\n');
    return { ms: performance.now() - start, cpuMs: 0, sha256: hash.digest('hex'), identities: records.length };
  });
  if (engine.sha256 !== baseline.sha256) throw new Error('evaluation-only outputs differ');
  // Computation only: identities, accounts and managers already parsed; nothing serialised. The
  // two sides alternate, pass by pass, each timed by its CPU time too: on a shared machine a
  // pass's wall time says as much about the other processes as about the pass.
  const parsed = records.map(parseRecord);
  const passes = { engine: [] as Timing[], baseline: [] as Timing[] };
  const computing = {
    engine: () => {
      for (const [identity, accounts, manager] of parsed) evaluator.evaluate(identity, accounts, manager);
    },
    baseline: () => {
      for (const [identity, accounts, manager] of parsed) baselineAttributes(identity, accounts, manager);
    },
  };
  for (const side of ['engine', 'baseline'] as const) computing[side]();
  for (let r = 0; r < Math.max(COMPUTE_PASSES, RUNS); r++) {
    for (const side of r % 2 === 0 ? (['engine', 'baseline'] as const) : (['baseline', 'engine'] as const)) {
      const cpu = process.cpuUsage();
      const start = performance.now();
      computing[side]();
      const used = process.cpuUsage(cpu);
      passes[side].push({ ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, sha256: '', identities: parsed.length });
    }
  }
  const computeEngine = medianTiming(passes.engine);
  const computeBaseline = medianTiming(passes.baseline);
  for (const [label, t] of [['engine, computation only', computeEngine], ['baseline, computation only', computeBaseline]] as const) process.stderr.write(`  ${label.padEnd(34)} ${rate(t)} identities/s\n`);
  return { engine, baseline, computeEngine, computeBaseline };
}

/**
 * 1 and 2 workers with the compiled package, in a child process (alternating, `runs` times
 * each, the best of each kept): the threads run the JavaScript users run. On Linux each run
 * also says where its CPU went: the workers, the main thread (the pre-pass, then receiving
 * batches), and the threads the process had before the run (V8's platform threads, which
 * collect garbage and compile for every isolate, and libuv's).
 */
function compiledWorkers(runner: string, dir: string): { one: Timing; two: Timing } {
  const script = `
    import { createHash } from 'node:crypto';
    const { RefreshRunner } = await import(${JSON.stringify(runner)});
    ${THREAD_CPU}
    // The threads before any run: the main thread, V8's platform threads (garbage collection,
    // optimising compilation) and libuv's; the workers' threads come and go with each run.
    const helpers = new Set(threadCpu().keys());
    const best = {};
    for (let r = 0; r < ${RUNS}; r++) for (const workers of [1, 2]) {
      const hash = createHash('sha256');
      const cpu = process.cpuUsage();
      const threads = threadCpu();
      const start = performance.now();
      const run = new RefreshRunner({ fixtures: ${JSON.stringify(dir)}, profile: ${JSON.stringify(profileFile)}, workers, now: ${JSON.stringify(NOW)} });
      for await (const batch of run.batches()) hash.update(batch.bytes ?? batch.text);
      const ms = performance.now() - start;
      const used = process.cpuUsage(cpu);
      const cpuMs = (used.user + used.system) / 1000;
      let mainMs = 0;
      let helperMs = 0;
      for (const [tid, seconds] of threadCpu()) {
        const spent = (seconds - (threads.get(tid) ?? 0)) * 1000;
        if (tid === String(process.pid)) mainMs += spent;
        else if (helpers.has(tid)) helperMs += spent;
      }
      const perThread = threads.size > 0 ? { mainMs, helperMs, workersMs: cpuMs - mainMs - helperMs } : undefined;
      const t = { ms, cpuMs, sha256: hash.digest('hex'), identities: run.summary().identities, perThread };
      if (!best[workers] || t.ms < best[workers].ms) best[workers] = t;
    }
    process.stdout.write(JSON.stringify(best) + '\\n');`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`the compiled refresh failed: ${child.stderr}`);
  const best = JSON.parse(child.stdout.trim().split('\n').pop()!) as Record<'1' | '2', Timing>;
  for (const [workers, t] of Object.entries(best)) process.stderr.write(`  ${`engine, ${workers} worker${workers === '1' ? '' : 's'}, compiled`.padEnd(34)} ${rate(t)} identities/s\n`);
  return { one: best['1'], two: best['2'] };
}

/**
 * Peak RSS of a streamed refresh, in a child process running the compiled package, so that
 * nothing else is counted: with the default workers ('auto': one thread per core) or on the
 * main thread (0).
 */
function peakRss(runner: string, dir: string, workers: 'auto' | 0, lowMemory: boolean): { mib: number; seconds: number; sha256: string; workers: number } {
  const script = `
        import { createHash } from 'node:crypto';
    const { RefreshRunner } = await import(${JSON.stringify(runner)});
    if (${lowMemory}) v8.setFlagsFromString('--optimize-for-size');
    const hash = createHash('sha256');
    const run = new RefreshRunner({ fixtures: ${JSON.stringify(dir)}, profile: ${JSON.stringify(profileFile)}, workers: ${JSON.stringify(workers)}, now: ${JSON.stringify(NOW)} });
    for await (const batch of run.batches()) hash.update(batch.bytes ?? batch.text);
    process.stdout.write(JSON.stringify({ ...run.summary(), sha256: hash.digest('hex') }) + '\\n');`;
  const start = performance.now();
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`the ${dir} refresh failed: ${child.stderr}`);
  const summary = JSON.parse(child.stdout.trim().split('\n').pop()!) as { peakRssBytes: number; sha256: string; workers: number };
  return { mib: summary.peakRssBytes / (1 << 20), seconds: (performance.now() - start) / 1000, sha256: summary.sha256, workers: summary.workers };
}

/** The --million lines: peak RSS of the streamed 1,000,000-identity refresh with the default workers, on the main thread, and with --low-memory. */
function million(runner: string): string[] {
  const lines: string[] = [];
  const big = benchTenant(1_000_000);
  let sha256: string | null = null;
  for (const [workers, lowMemory] of [['auto', false], [0, false], [0, true]] as const) {
    const rss = peakRss(runner, big, workers, lowMemory);
    if (sha256 !== null && rss.sha256 !== sha256) throw new Error('the 1,000,000-identity refreshes disagree');
    sha256 = rss.sha256;
    const how = workers === 'auto' ? `default workers (auto: ${rss.workers})` : `main thread${lowMemory ? ' with --low-memory' : ''}`;
    lines.push(`peak RSS, streamed 1,000,000-identity refresh, ${how}: ${rss.mib.toFixed(0)} MiB = ${((rss.mib * (1 << 20)) / 1e6).toFixed(0)} MB (goal < 300 MB), ${rss.seconds.toFixed(0)} s`);
  }
  return lines;
}

async function main(): Promise<void> {
  const cpuModel = cpus()[0]?.model ?? 'unknown';
  process.stderr.write(`machine: ${availableParallelism()} cores (${cpuModel}), node ${process.version}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  if (values['million-only']) {
    const lines = million(compiledRunner());
    lines.push(`load average after the runs: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    process.stdout.write(lines.join('\n') + '\n');
    return;
  }
  const dir = benchTenant(N);
  process.stderr.write(`tenant: ${dir}\n`);
  const baseline = await best('baseline (hand-written), 1 thread', () => baselineRun(dir));
  const single = await best('engine, main thread', () => engineRun(dir, 0));
  if (single.sha256 !== baseline.sha256) throw new Error('the engine and the baseline disagree: compare refresh output with bench/baseline.ts line by line');
  const one = await best('engine, 1 worker', () => engineRun(dir, 1));
  const two = await best('engine, 2 workers', () => engineRun(dir, 2));
  for (const t of [one, two]) if (t.sha256 !== baseline.sha256) throw new Error('worker output differs from the single-threaded output');
  const evaluation = await evaluationOnly(dir, Math.min(N, values['eval-sample']));
  const runner = values.compiled || values.million ? compiledRunner() : null;
  const compiled = values.compiled && runner ? compiledWorkers(runner, dir) : null;
  if (compiled) for (const t of [compiled.one, compiled.two]) if (t.sha256 !== baseline.sha256) throw new Error('the compiled package\'s worker output differs from the single-threaded output');

  const lines = [
    `| measurement | identities/s | time (s) | CPU (s) | vs baseline |`,
    `| --- | ---: | ---: | ---: | ---: |`,
    ...([
      ['baseline (hand-written), main thread', baseline],
      ['engine, main thread', single],
      ['engine, 1 worker', one],
      ['engine, 2 workers', two],
      ...(compiled
        ? ([
            ['engine, 1 worker, compiled package', compiled.one],
            ['engine, 2 workers, compiled package', compiled.two],
          ] as const)
        : []),
    ] as const).map(([label, t]) => `| ${label} | ${rate(t)} | ${(t.ms / 1000).toFixed(2)} | ${(t.cpuMs / 1000).toFixed(2)} | ${(t.ms / baseline.ms).toFixed(2)}× |`),
    `| evaluation only, baseline (${evaluation.baseline.identities} in memory) | ${rate(evaluation.baseline)} | ${(evaluation.baseline.ms / 1000).toFixed(2)} | | 1.00× |`,
    `| evaluation only, engine | ${rate(evaluation.engine)} | ${(evaluation.engine.ms / 1000).toFixed(2)} | | ${(evaluation.engine.ms / evaluation.baseline.ms).toFixed(2)}× |`,
    `| computation only, baseline (parsed records; median of ${Math.max(COMPUTE_PASSES, RUNS)} alternating passes) | ${rate(evaluation.computeBaseline)} | ${(evaluation.computeBaseline.ms / 1000).toFixed(2)} | ${(evaluation.computeBaseline.cpuMs / 1000).toFixed(2)} | 1.00× |`,
    `| computation only, engine | ${rate(evaluation.computeEngine)} | ${(evaluation.computeEngine.ms / 1000).toFixed(2)} | ${(evaluation.computeEngine.cpuMs / 1000).toFixed(2)} | ${(evaluation.computeEngine.ms / evaluation.computeBaseline.ms).toFixed(2)}× |`,
    '',
    `output verified identical (sha256 ${baseline.sha256.slice(0, 16)}…) for the baseline, main thread, 1 and 2 workers${compiled ? ' (tsx and compiled)' : ''}`,
    `engine / baseline, end to end: ${(single.ms / baseline.ms).toFixed(2)}×, by CPU time ${(single.cpuMs / baseline.cpuMs).toFixed(2)}× (goal ≤ 1.25×); computation only ${(evaluation.computeEngine.ms / evaluation.computeBaseline.ms).toFixed(2)}×, by CPU time ${(evaluation.computeEngine.cpuMs / evaluation.computeBaseline.cpuMs).toFixed(2)}× (goal ≤ 1.25×)`,
    ...(compiled?.one.perThread && compiled.two.perThread
      ? [
          `CPU by thread, compiled package (s): ${([['1 worker', compiled.one.perThread], ['2 workers', compiled.two.perThread]] as const)
            .map(([label, p]) => `${label}: workers ${(p.workersMs / 1000).toFixed(2)}, main thread ${(p.mainMs / 1000).toFixed(2)}, V8 platform and libuv threads ${(p.helperMs / 1000).toFixed(2)}`)
            .join('; ')}`,
        ]
      : []),
    `speed-up 1 → 2 workers: ${(one.ms / two.ms).toFixed(2)}× (goal ≥ 1.7×)${compiled ? `, compiled package ${(compiled.one.ms / compiled.two.ms).toFixed(2)}×` : ''}; main thread → 2 workers: ${(single.ms / two.ms).toFixed(2)}×`,
  ];
  if (values.million && runner) lines.push(...million(runner));
  else lines.push('peak RSS of a 1,000,000-identity refresh: run with --million (generates a 3.3 GB tenant once, then a few minutes)');
  lines.push(`load average after the runs: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  process.stdout.write(lines.join('\n') + '\n');
}

await main();
