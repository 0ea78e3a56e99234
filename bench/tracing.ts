// `npm run bench -- tracing`: tracing (engine.explain, `evaluate --explain`) costs nothing when
// not asked for. Three comparisons of the same refresh work — the bundled identity profile over
// the first N records of the generated bench tenant, through the batch evaluator every refresh
// runs (createBatchEvaluator; parse, evaluate, serialise in batches of 256), and the computation
// alone (records parsed beforehand) — each alternating its two sides, pair after pair:
//
// 1. before and after tracing existed: the source at the parent of the commit that introduced
//    src/engine/trace.ts and at that commit, each taken out of git into a temporary directory
//    (`git archive`: nothing is registered in the repository), each measured in a child process
//    of its own (a fresh V8), the order alternating from pair to pair;
// 2. this tree, a process that never explained vs one whose engine first explained every
//    attribute of the profile for 20 identities (child processes, alternating);
// 3. this tree, in one process: an engine that never explained vs one that has (its traced
//    transforms compiled and cached), passes alternating;
// 4. before and after tracing existed again, both trees loaded into this one process (each its
//    own modules) and interleaved batch by batch: on a busy machine the load falls on both sides
//    alike, where fresh processes minutes apart meet different loads.
//
// Every side's NDJSON output is hashed: the two sides of each comparison must be byte-identical.
// A side's figure is the best of its passes, as wall-clock time and as the process's CPU time
// (user + system): on a shared machine the CPU time leaves out the time other jobs held the
// cores, though not what they do to caches and clocks. The ratios are second side / first side
// per pair; the median and the range over the pairs are reported.
//
//   npx tsx bench/tracing.ts [--identities N] [--pairs R] [--passes P] [--before REV] [--after REV]

import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchArgs, count, text } from './args.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createBatchEvaluator } from '../src/refresh/evaluator.js';
import { encodeResults, NdjsonEncoder } from '../src/refresh/ndjson-writer.js';
import { resolveProfile } from '../src/refresh/profile-source.js';
import { TenantStream, type TenantRecord } from '../src/refresh/fixture-stream/stream.js';
import type { TransformDocument } from '../src/providers/types.js';
import { benchTenant } from './tenants.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const NOW = '2025-06-01T00:00:00.000Z';
/** The commit that added src/engine/trace.ts (`git log --diff-filter=A -- src/engine/trace.ts`). */
const TRACING_COMMIT = 'ff76d0f';

const values = benchArgs({ identities: count(20_000, 256), pairs: count(6), passes: count(2), before: text(`${TRACING_COMMIT}^`), after: text(TRACING_COMMIT) });
const N = values.identities;
/** An even number, so that each side runs first in as many pairs as the other (the second side of a pair may pay for the first's garbage). */
const PAIRS = Math.max(2, 2 * Math.ceil(values.pairs / 2));
const PASSES = values.passes;

/** Best of the passes of one side: wall-clock and process CPU milliseconds. */
interface Measure {
  identities: number;
  batchMs: number;
  batchCpuMs: number;
  computeMs: number;
  computeCpuMs: number;
  sha256: string;
  explained: number;
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

/** The tenant: an existing generated one with at least N identities (only read), else one generated for N. */
function tenantDir(): string {
  const data = join(root, 'bench', '.data');
  const sizes = existsSync(data)
    ? readdirSync(data)
        .map((name) => /^tenant-(\d+)$/.exec(name))
        .filter((m): m is RegExpExecArray => m !== null && existsSync(join(data, m[0], 'accounts.json')))
        .map((m) => Number(m[1]))
        .filter((n) => n >= N)
        .sort((a, b) => a - b)
    : [];
  return sizes.length > 0 ? join(data, `tenant-${sizes[0]}`) : benchTenant(N);
}

/** A commit's source, out of git into `dir` (src/, fixtures/ and what tsx reads), with this tree's node_modules. */
function materialise(rev: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const tar = spawnSync('git', ['archive', '--format=tar', rev, 'src', 'fixtures', 'package.json', 'tsconfig.json'], { cwd: root, maxBuffer: 1 << 30 });
  if (tar.status !== 0) throw new Error(`git archive ${rev}: ${tar.stderr}`);
  execFileSync('tar', ['-x', '-C', dir], { input: tar.stdout });
  symlinkSync(realpathSync(join(root, 'node_modules')), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** One measurement in a child process (bench/tracing-child.ts) over `tree`. */
function child(tree: string, tenant: string, records: string, explainFirst: boolean): Measure {
  const job = JSON.stringify({ tree, tenant, records, now: NOW, passes: PASSES, explainFirst });
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'tracing-child.ts'), job], { cwd: tree, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`the measurement over ${tree} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Measure;
}

interface Comparison {
  label: string;
  sides: [string, string];
  pairs: [Measure, Measure][];
}

/** R pairs of `a` and `b`, the order alternating (a b, b a, a b, …) so that a drift of the machine's load falls on both. */
function alternate(label: string, sides: [string, string], a: () => Measure, b: () => Measure): Comparison {
  const pairs: [Measure, Measure][] = [];
  for (let r = 0; r < PAIRS; r++) {
    let x: Measure;
    let y: Measure;
    if (r % 2 === 0) {
      x = a();
      y = b();
    } else {
      y = b();
      x = a();
    }
    if (x.sha256 !== y.sha256) throw new Error(`${label}: the outputs differ (${x.sha256.slice(0, 16)}… vs ${y.sha256.slice(0, 16)}…)`);
    pairs.push([x, y]);
    process.stderr.write(
      `  ${label}, pair ${r + 1}: batches ${(y.batchMs / x.batchMs).toFixed(3)} wall (${x.batchMs.toFixed(0)} → ${y.batchMs.toFixed(0)} ms), ${(y.batchCpuMs / x.batchCpuMs).toFixed(3)} CPU; computation ${(y.computeMs / x.computeMs).toFixed(3)} wall, ${(y.computeCpuMs / x.computeCpuMs).toFixed(3)} CPU\n`,
    );
  }
  return { label, sides, pairs };
}

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const cpuMs = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1000;

const median = (xs: number[]) => {
  const s = [...xs].sort((p, q) => p - q);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function rows(c: Comparison): string[] {
  const ratio = (pick: (m: Measure) => number) => {
    const ratios = c.pairs.map(([x, y]) => pick(y) / pick(x));
    return `**${median(ratios).toFixed(3)}** (${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`;
  };
  const ms = (side: 0 | 1, wall: (m: Measure) => number, cpu: (m: Measure) => number) =>
    `${median(c.pairs.map((p) => wall(p[side]))).toFixed(0)} / ${median(c.pairs.map((p) => cpu(p[side]))).toFixed(0)}`;
  const line = (what: string, wall: (m: Measure) => number, cpu: (m: Measure) => number) =>
    `| ${c.label}: ${what} | ${ms(0, wall, cpu)} | ${ms(1, wall, cpu)} | ${ratio(wall)} | ${ratio(cpu)} |`;
  return [line('parse, evaluate, serialise', (m) => m.batchMs, (m) => m.batchCpuMs), line('computation only', (m) => m.computeMs, (m) => m.computeCpuMs)];
}

/** The batch evaluator of a source tree, loaded into this process (its modules are its own: nothing is shared with another tree's). */
async function evaluatorOf(tree: string, tenant: string): Promise<{ run(records: TenantRecord[]): Uint8Array | string; evaluate(identity: unknown, accounts: unknown, manager: unknown): unknown }> {
  const load = (path: string) => import(pathToFileURL(join(tree, 'src', path)).href);
  const { createBatchEvaluator: create } = await load('refresh/evaluator.ts');
  const { resolveProfile: profileOf } = await load('refresh/profile-source.ts');
  const writer = await load('refresh/ndjson-writer.ts');
  const dir = join(tree, 'fixtures', 'transforms');
  const transforms = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
  const evaluator = create({ fixtures: tenant, profile: profileOf(tenant, join(tree, 'fixtures', 'identity-profiles', 'default.json')), now: NOW, transforms });
  const encoder = writer.NdjsonEncoder ? new writer.NdjsonEncoder() : undefined;
  return {
    // The encoded batch (before the results were separated from their encoding), or the results encoded.
    run: (records) => {
      const out = evaluator.run(records) as { bytes?: Uint8Array; text?: string; results?: unknown[] };
      return out.results !== undefined ? writer.encodeResults(encoder, out.results) : (out.bytes ?? out.text!);
    },
    evaluate: (identity, accounts, manager) => evaluator.evaluate(identity, accounts, manager),
  };
}

/**
 * Comparison 4: both trees in this one process, interleaved batch by batch (256 records of one,
 * the same 256 of the other, the order flipping every batch), so that whatever the machine does
 * falls on both within milliseconds. Each round is one pass of both over the records.
 */
async function interleaved(label: string, treeA: string, treeB: string, tenant: string, records: TenantRecord[]): Promise<Comparison> {
  const sides = [await evaluatorOf(treeA, tenant), await evaluatorOf(treeB, tenant)] as const;
  const parsed = records.map((r) => {
    const identity = JSON.parse(r.identity);
    identity.attributes ??= {};
    return [identity, JSON.parse(r.accounts), r.manager === null ? null : JSON.parse(r.manager)] as const;
  });
  const round = (): [Measure, Measure] => {
    const totals = [0, 1].map(() => ({ batchMs: 0, batchCpuMs: 0, computeMs: 0, computeCpuMs: 0, hash: createHash('sha256') }));
    for (let i = 0, k = 0; i < records.length; i += 256, k++) {
      const chunk = records.slice(i, i + 256);
      const part = parsed.slice(i, i + 256);
      for (const s of k % 2 === 0 ? [0, 1] : [1, 0]) {
        const t = totals[s]!;
        let cpu = process.cpuUsage();
        let start = performance.now();
        const bytes = sides[s]!.run(chunk);
        t.batchMs += performance.now() - start;
        t.batchCpuMs += cpuMs(process.cpuUsage(cpu));
        t.hash.update(bytes);
        cpu = process.cpuUsage();
        start = performance.now();
        for (const [identity, accounts, manager] of part) sides[s]!.evaluate(identity, accounts, manager);
        t.computeMs += performance.now() - start;
        t.computeCpuMs += cpuMs(process.cpuUsage(cpu));
      }
    }
    const measure = ({ hash, ...t }: (typeof totals)[number]): Measure => ({ identities: records.length, ...t, sha256: hash.digest('hex'), explained: 0 });
    return [measure(totals[0]!), measure(totals[1]!)];
  };
  round(); // warm-up of both
  const pairs: [Measure, Measure][] = [];
  for (let r = 0; r < PAIRS; r++) {
    const [x, y] = round();
    if (x.sha256 !== y.sha256) throw new Error(`${label}: the outputs differ`);
    pairs.push([x, y]);
    process.stderr.write(`  ${label}, round ${r + 1}: batches ${(y.batchMs / x.batchMs).toFixed(3)} wall, ${(y.batchCpuMs / x.batchCpuMs).toFixed(3)} CPU; computation ${(y.computeMs / x.computeMs).toFixed(3)} wall\n`);
  }
  return { label, sides: ['before', 'after'], pairs };
}

/** Comparison 3: two engines of this tree in this process, one of which explained first. */
function inProcess(tenant: string, records: TenantRecord[]): Comparison {
  const profile = resolveProfile(tenant, join(root, 'fixtures', 'identity-profiles', 'default.json'));
  const dir = join(root, 'fixtures', 'transforms');
  const transforms = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as TransformDocument);
  const plain = createBatchEvaluator({ fixtures: tenant, profile, now: NOW, transforms });
  const explained = createBatchEvaluator({ fixtures: tenant, profile, now: NOW, transforms });
  let explanations = 0;
  for (const record of records.slice(0, 20)) {
    const identity = JSON.parse(record.identity);
    for (const m of profile.identityAttributeConfig.attributeTransforms ?? []) {
      explained.engine.explain({ name: m.identityAttributeName, ...m.transformDefinition }, { identity });
      explanations++;
    }
  }
  const encoder = new NdjsonEncoder();
  const parsed = records.map((r) => {
    const identity = JSON.parse(r.identity);
    identity.attributes ??= {};
    return [identity, JSON.parse(r.accounts), r.manager === null ? null : JSON.parse(r.manager)] as const;
  });
  const measure = (evaluator: typeof plain, count: number) => (): Measure => {
    collectGarbage(); // neither side starts with the other's garbage
    const best = { batchMs: Infinity, batchCpuMs: Infinity, computeMs: Infinity, computeCpuMs: Infinity };
    let sha256 = '';
    for (let p = 0; p < PASSES; p++) {
      const hash = createHash('sha256');
      let cpu = process.cpuUsage();
      let start = performance.now();
      for (let i = 0; i < records.length; i += 256) hash.update(encodeResults(encoder, evaluator.run(records.slice(i, i + 256)).results));
      best.batchMs = Math.min(best.batchMs, performance.now() - start);
      best.batchCpuMs = Math.min(best.batchCpuMs, cpuMs(process.cpuUsage(cpu)));
      sha256 = hash.digest('hex');
      cpu = process.cpuUsage();
      start = performance.now();
      for (const [identity, accounts, manager] of parsed) evaluator.evaluate(identity, accounts, manager);
      best.computeMs = Math.min(best.computeMs, performance.now() - start);
      best.computeCpuMs = Math.min(best.computeCpuMs, cpuMs(process.cpuUsage(cpu)));
    }
    return { identities: records.length, ...best, sha256, explained: count };
  };
  // Warm-up of both, so that neither side pays V8's first optimisation.
  measure(plain, 0)();
  measure(explained, explanations)();
  return alternate('3. in one process: never explained → explained first', ['never explained', 'explained'], measure(plain, 0), measure(explained, explanations));
}

async function main(): Promise<void> {
  const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
  process.stderr.write(`machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}, load ${load()}\n`);
  const loadBefore = load();
  const tenant = tenantDir();
  const before = git('rev-parse', '--short', values.before);
  const after = git('rev-parse', '--short', values.after);
  process.stderr.write(`tenant: ${tenant} (first ${N.toLocaleString('en-US')} identities); before ${before}, after ${after}\n`);

  const tmp = mkdtempSync(join(tmpdir(), 'bench-tracing-'));
  try {
    const records: TenantRecord[] = [];
    for (const r of new TenantStream(tenant).records()) {
      records.push({ ordinal: r.ordinal, identityId: r.identityId, identity: r.identity, accounts: r.accounts, manager: r.manager });
      if (records.length === N) break;
    }
    const recordsFile = join(tmp, 'records.ndjson');
    writeFileSync(recordsFile, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const treeBefore = materialise(values.before, join(tmp, 'before'));
    const treeAfter = materialise(values.after, join(tmp, 'after'));
    // The workload is the bundled profile and transforms of each tree: the same files, or the comparison says so.
    const same = ['fixtures/identity-profiles/default.json', ...readdirSync(join(treeBefore, 'fixtures', 'transforms')).map((f) => `fixtures/transforms/${f}`)].every(
      (f) => existsSync(join(treeAfter, f)) && readFileSync(join(treeBefore, f), 'utf8') === readFileSync(join(treeAfter, f), 'utf8'),
    );

    const comparisons = [
      alternate(`1. before → after tracing (${before} → ${after}), fresh processes`, [before, after], () => child(treeBefore, tenant, recordsFile, false), () => child(treeAfter, tenant, recordsFile, false)),
      alternate('2. this tree, fresh processes: never explained → explained first', ['never explained', 'explained'], () => child(root, tenant, recordsFile, false), () => child(root, tenant, recordsFile, true)),
      inProcess(tenant, records),
      await interleaved(`4. before → after tracing (${before} → ${after}), one process, interleaved batch by batch`, treeBefore, treeAfter, tenant, records),
    ];
    const explained = comparisons[1]!.pairs[0]![1].explained;
    const lines = [
      `| comparison (${N.toLocaleString('en-US')} identities, ${PAIRS} pairs, best of ${PASSES} passes per side) | first side, ms wall / CPU (median) | second side, ms wall / CPU (median) | second / first, wall: median (min–max) | second / first, CPU: median (min–max) |`,
      '| --- | ---: | ---: | ---: | ---: |',
      ...comparisons.flatMap(rows),
      '',
      `outputs byte-identical within each comparison (sha256 ${comparisons[0]!.pairs[0]![0].sha256.slice(0, 16)}… before/after, ${comparisons[1]!.pairs[0]![0].sha256.slice(0, 16)}… this tree)`,
      `bundled profile and transforms ${same ? 'identical' : 'DIFFERENT'} in ${before} and ${after}; explained first: ${explained} explanations (every attribute, 20 identities)`,
      `load average: ${loadBefore} before, ${load()} after the runs`,
    ];
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
