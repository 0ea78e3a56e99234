// One measurement of bench/tracing.ts, in a process of its own (a fresh V8): the bundled
// profile over the same tenant records, with the batch evaluator of the source tree given
// (createBatchEvaluator, the entry bench/refresh.ts and every refresh worker use), so that the
// trees before and after a change are measured the same way. Prints one JSON line.
//
//   node --import tsx bench/tracing-child.ts '<json: tree, tenant, records, now, passes, explainFirst>'
//
// Only node built-ins are imported here: everything else comes from the tree measured.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Job {
  /** The source tree: its src/ and fixtures/ are used. */
  tree: string;
  /** The tenant directory (only sources.json is read from it). */
  tenant: string;
  /** NDJSON file of tenant records (the first N of the tenant). */
  records: string;
  now: string;
  passes: number;
  /** Explain every attribute of the profile for a few identities with the same engine first. */
  explainFirst: boolean;
}

interface Record_ {
  ordinal: number;
  identityId: string;
  identity: string;
  accounts: string;
  manager: string | null;
}

type Output = { bytes?: Uint8Array; text?: string; results?: unknown[] };
type Mapping = { identityAttributeName: string; transformDefinition: Record<string, unknown> };

const job = JSON.parse(process.argv[2]!) as Job;
const load = (path: string) => import(pathToFileURL(join(job.tree, 'src', path)).href);
const { createBatchEvaluator } = await load('refresh/evaluator.ts');
const { resolveProfile } = await load('refresh/profile-source.ts');
const writer = await load('refresh/ndjson-writer.ts');

const transformsDir = join(job.tree, 'fixtures', 'transforms');
const transforms = readdirSync(transformsDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(transformsDir, f), 'utf8')));
const profile = resolveProfile(job.tenant, join(job.tree, 'fixtures', 'identity-profiles', 'default.json'));
const evaluator = createBatchEvaluator({ fixtures: job.tenant, profile, now: job.now, transforms });
const records = readFileSync(job.records, 'utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line) as Record_);

// A batch's NDJSON bytes, whichever the tree's evaluator returns: the encoded batch (before the
// results were separated from their encoding) or the results.
const encoder = writer.NdjsonEncoder ? new writer.NdjsonEncoder() : undefined;
function bytesOf(out: Output): Uint8Array | string {
  if (out.results !== undefined) return writer.encodeResults(encoder, out.results);
  return out.bytes ?? out.text!;
}

let explained = 0;
if (job.explainFirst) {
  const mappings = (profile.identityAttributeConfig.attributeTransforms ?? []) as Mapping[];
  for (const record of records.slice(0, 20)) {
    const identity = JSON.parse(record.identity);
    for (const m of mappings) {
      evaluator.engine.explain({ name: m.identityAttributeName, ...m.transformDefinition }, { identity });
      explained++;
    }
  }
}

/** CPU milliseconds of the process since `since` (user + system): what a shared machine's other jobs take is not in it. */
const cpuSince = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** One pass over every record, in batches of 256 as a refresh posts them: wall and CPU ms, and the output's sha256. */
function pass(): { ms: number; cpuMs: number; sha256: string } {
  const hash = createHash('sha256');
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < records.length; i += 256) hash.update(bytesOf(evaluator.run(records.slice(i, i + 256))));
  return { ms: performance.now() - start, cpuMs: cpuSince(cpu), sha256: hash.digest('hex') };
}

pass(); // warm-up: compiles the profile, and lets V8 optimise
const batches = Array.from({ length: job.passes }, pass);
if (new Set(batches.map((b) => b.sha256)).size !== 1) throw new Error('passes disagree');

// Computation only: the records parsed beforehand, nothing serialised.
const parsed = records.map((r) => [JSON.parse(r.identity), JSON.parse(r.accounts), r.manager === null ? null : JSON.parse(r.manager)] as const);
for (const [identity] of parsed) identity.attributes ??= {};
const compute = Array.from({ length: job.passes }, () => {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (const [identity, accounts, manager] of parsed) evaluator.evaluate(identity, accounts, manager);
  return { ms: performance.now() - start, cpuMs: cpuSince(cpu) };
});

process.stdout.write(
  JSON.stringify({
    identities: records.length,
    batchMs: Math.min(...batches.map((b) => b.ms)),
    batchCpuMs: Math.min(...batches.map((b) => b.cpuMs)),
    computeMs: Math.min(...compute.map((c) => c.ms)),
    computeCpuMs: Math.min(...compute.map((c) => c.cpuMs)),
    sha256: batches[0]!.sha256,
    explained,
  }) + '\n',
);
