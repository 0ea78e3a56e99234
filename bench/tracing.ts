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
//    transforms compiled and cached), passes alternating.
//
// Every side's NDJSON output is hashed: the two sides of each comparison must be byte-identical.
//
//   npx tsx bench/tracing.ts [--identities N] [--pairs R] [--passes P] [--before REV] [--after REV]

import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
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

const { values } = parseArgs({
  options: {
    identities: { type: 'string', default: '20000' },
    pairs: { type: 'string', default: '5' },
    passes: { type: 'string', default: '2' },
    before: { type: 'string', default: `${TRACING_COMMIT}^` },
    after: { type: 'string', default: TRACING_COMMIT },
  },
});
const N = Number(values.identities);
const PAIRS = Math.max(1, Number(values.pairs));
const PASSES = Math.max(1, Number(values.passes));
if (!Number.isInteger(N) || N < 256) throw new Error('--identities must be an integer ≥ 256');

interface Measure {
  identities: number;
  batchMs: number;
  computeMs: number;
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
    process.stderr.write(`  ${label}, pair ${r + 1}: ${(y.batchMs / x.batchMs).toFixed(3)} (batches ${x.batchMs.toFixed(0)} → ${y.batchMs.toFixed(0)} ms), computation ${(y.computeMs / x.computeMs).toFixed(3)}\n`);
  }
  return { label, sides, pairs };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((p, q) => p - q);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function rows(c: Comparison): string[] {
  const line = (what: string, pick: (m: Measure) => number) => {
    const ratios = c.pairs.map(([x, y]) => pick(y) / pick(x));
    const ms = (side: 0 | 1) => median(c.pairs.map((p) => pick(p[side]))).toFixed(0);
    return `| ${c.label}: ${what} | ${ms(0)} | ${ms(1)} | **${median(ratios).toFixed(3)}** | ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)} |`;
  };
  return [line('parse, evaluate, serialise', (m) => m.batchMs), line('computation only', (m) => m.computeMs)];
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
    let batchMs = Infinity;
    let computeMs = Infinity;
    let sha256 = '';
    for (let p = 0; p < PASSES; p++) {
      const hash = createHash('sha256');
      const start = performance.now();
      for (let i = 0; i < records.length; i += 256) hash.update(encodeResults(encoder, evaluator.run(records.slice(i, i + 256)).results));
      batchMs = Math.min(batchMs, performance.now() - start);
      sha256 = hash.digest('hex');
      const started = performance.now();
      for (const [identity, accounts, manager] of parsed) evaluator.evaluate(identity, accounts, manager);
      computeMs = Math.min(computeMs, performance.now() - started);
    }
    return { identities: records.length, batchMs, computeMs, sha256, explained: count };
  };
  // Warm-up of both, so that neither side pays V8's first optimisation.
  measure(plain, 0)();
  measure(explained, explanations)();
  return alternate('3. in one process: never explained → explained first', ['never explained', 'explained'], measure(plain, 0), measure(explained, explanations));
}

function main(): void {
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
    const treeBefore = materialise(values.before!, join(tmp, 'before'));
    const treeAfter = materialise(values.after!, join(tmp, 'after'));
    // The workload is the bundled profile and transforms of each tree: the same files, or the comparison says so.
    const same = ['fixtures/identity-profiles/default.json', ...readdirSync(join(treeBefore, 'fixtures', 'transforms')).map((f) => `fixtures/transforms/${f}`)].every(
      (f) => existsSync(join(treeAfter, f)) && readFileSync(join(treeBefore, f), 'utf8') === readFileSync(join(treeAfter, f), 'utf8'),
    );

    const comparisons = [
      alternate(`1. before → after tracing (${before} → ${after}), fresh processes`, [before, after], () => child(treeBefore, tenant, recordsFile, false), () => child(treeAfter, tenant, recordsFile, false)),
      alternate('2. this tree, fresh processes: never explained → explained first', ['never explained', 'explained'], () => child(root, tenant, recordsFile, false), () => child(root, tenant, recordsFile, true)),
      inProcess(tenant, records),
    ];
    const explained = comparisons[1]!.pairs[0]![1].explained;
    const lines = [
      `| comparison (${N.toLocaleString('en-US')} identities, ${PAIRS} pairs, best of ${PASSES} passes per side) | first side, ms (median) | second side, ms (median) | second / first (median) | min–max |`,
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

main();
