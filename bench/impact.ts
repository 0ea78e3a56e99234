// `npm run bench:impact`: impact analysis of a one-transform change over a generated tenant
// (100,000 identities by default, the bundled profile), against what it replaces and what it
// costs at least:
//  - the refresh of the affected attribute(s) once (the floor: one pass over the tenant);
//  - two full refreshes of the profile (what a user would otherwise run, then diff).
// Goals: impact ≤ 1.2× that refresh (≤ 1.5× for the second case), ≤ 0.25× two full refreshes. A second case
// changes a transform that 5 attributes reach through `reference`.
// Runs alternate (single, full, impact, single, …) so that load on a shared machine moves all
// sides of a ratio alike; each figure is the median of its runs.
//
//   npx tsx bench/impact.ts [--identities N] [--runs R] [--workers W]

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs, count, workers } from './args.js';
import { benchTenant } from './tenants.js';
import { impact } from '../src/impact/index.js';
import { createRefreshRunner, type RefreshOptions } from '../src/refresh/index.js';
import type { IdentityProfile } from '../src/providers/types.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = join(root, 'fixtures');
const NOW = '2025-06-01T00:00:00.000Z';

const { identities: N, runs: RUNS, workers: WORKERS } = benchArgs({ identities: count(100_000), runs: count(3), workers: workers(0) });

type Json = Record<string, unknown>;
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Json;

/** A version directory: the bundled transforms and profile, each edited. */
function version(editTransform: (name: string, doc: Json) => Json, editProfile: (p: IdentityProfile) => IdentityProfile = (p) => p): string {
  const dir = mkdtempSync(join(tmpdir(), 'idt-bench-impact-'));
  cpSync(join(fixtures, 'transforms'), join(dir, 'transforms'), { recursive: true });
  cpSync(join(fixtures, 'identity-profiles'), join(dir, 'identity-profiles'), { recursive: true });
  const transform = join(dir, 'transforms', 'clean-department.json');
  writeFileSync(transform, JSON.stringify(editTransform('Clean Department', readJson(transform))));
  const profile = join(dir, 'identity-profiles', 'default.json');
  writeFileSync(profile, JSON.stringify(editProfile(readJson(profile) as unknown as IdentityProfile)));
  return dir;
}

/** Five attributes that reach "Clean Department" through reference (the bundled profile has one). */
function fiveDepartments(p: IdentityProfile): IdentityProfile {
  const department = p.identityAttributeConfig.attributeTransforms.find((m) => m.identityAttributeName === 'department')!;
  const extra = [1, 2, 3, 4].map((i) => ({ identityAttributeName: `department${i}`, transformDefinition: department.transformDefinition }));
  return { ...p, identityAttributeConfig: { ...p.identityAttributeConfig, attributeTransforms: [...p.identityAttributeConfig.attributeTransforms, ...extra] } };
}

const changeDepartment = (_name: string, doc: Json): Json => ({ ...doc, attributes: { ...(doc.attributes as Json), replacement: ' + ' } });

function onlyAttributes(p: IdentityProfile, names: string[]): IdentityProfile {
  return { ...p, identityAttributeConfig: { ...p.identityAttributeConfig, attributeTransforms: p.identityAttributeConfig.attributeTransforms.filter((m) => names.includes(m.identityAttributeName)) } };
}

/** Wall time and the process's CPU time of one run (CPU time is less moved by a shared machine's load). */
async function time(run: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  await run();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000 };
}

/** A refresh's results taken a batch at a time, as the CLI writes them (no turn of the event loop per identity). */
async function drain(options: RefreshOptions): Promise<number> {
  let n = 0;
  for await (const batch of createRefreshRunner(options).results()) n += batch.length;
  return n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function measure(label: string, base: string, head: string, attributes: string[]): Promise<void> {
  const dir = benchTenant(N);
  const baseProfile = readJson(join(base, 'identity-profiles', 'default.json')) as unknown as IdentityProfile;
  const single: { ms: number; cpuMs: number }[] = [];
  const full: { ms: number; cpuMs: number }[] = [];
  const analysed: { ms: number; cpuMs: number }[] = [];
  let changed = 0;
  for (let r = 0; r < RUNS; r++) {
    single.push(await time(() => drain({ fixtures: dir, now: NOW, workers: WORKERS, profile: onlyAttributes(baseProfile, attributes) })));
    full.push(await time(() => drain({ fixtures: dir, now: NOW, workers: WORKERS, profile: baseProfile })));
    analysed.push(
      await time(async () => {
        const report = await impact({ base, head, fixtures: dir, now: NOW, workers: WORKERS });
        changed = report.totals.changed;
      }),
    );
  }
  const s = median(single.map((t) => t.ms));
  const f = median(full.map((t) => t.ms));
  const i = median(analysed.map((t) => t.ms));
  const sCpu = median(single.map((t) => t.cpuMs));
  const iCpu = median(analysed.map((t) => t.cpuMs));
  console.log(`\n${label}`);
  console.log(`  refresh of the ${attributes.length} affected attribute(s) once ${seconds(s)}`);
  console.log(`  full refresh               ${seconds(f)}   (two: ${seconds(2 * f)})`);
  console.log(`  impact                     ${seconds(i)}   (${changed.toLocaleString('en-US')} values change)`);
  console.log(`  impact / refresh of the affected attributes ${(i / s).toFixed(2)}×, by CPU time ${(iCpu / sCpu).toFixed(2)}× (${seconds(iCpu)} / ${seconds(sCpu)})   (goal ≤ ${attributes.length === 1 ? '1.2' : '1.5'}×)`);
  console.log(`  impact / two full refreshes ${(i / (2 * f)).toFixed(2)}×   (goal ≤ 0.25×)`);
}

console.log(`bench:impact — ${N.toLocaleString('en-US')} identities, ${RUNS} alternating runs (median), workers ${String(WORKERS)}`);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const base1 = version((_n, d) => d);
const head1 = version(changeDepartment);
await measure('One transform, reached by one attribute ("Clean Department" → department)', base1, head1, ['department']);
const base5 = version((_n, d) => d, fiveDepartments);
const head5 = version(changeDepartment, fiveDepartments);
await measure('One transform, reached by 5 attributes through reference', base5, head5, ['department', 'department1', 'department2', 'department3', 'department4']);
for (const d of [base1, head1, base5, head5]) rmSync(d, { recursive: true, force: true });
console.log(`load after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
