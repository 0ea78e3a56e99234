// `--workers auto`: how many worker threads a fixtures refresh gets, chosen from the work before
// the pre-pass starts (the threads load while it runs), so that the default is never slower
// than evaluating on the calling thread. A thread costs its start (loading the engine and re2,
// building the run's evaluator, optimising the same code again in its own isolate) and, on
// few cores, the CPU the calling thread's reading and the V8 helper threads then share with it;
// it pays only when the work it takes is larger. The work is estimated from the tenant's bytes
// (reading, JSON parsing and serialising cost about the same per byte whatever the profile) and
// the identities times the profile's attributes (evaluation); docs/bench-refresh.md, "Choosing
// the workers", gives the measurements behind the figures. The cores are those the machine's
// other processes leave idle: Linux shares the CPU between sessions (autogroups) before threads,
// so on a machine another session keeps busy, a process's extra threads get no more CPU, only
// their cost.

import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import type { IdentityProfile } from '../providers/types.js';
import type { Shard } from './shard.js';

/**
 * Seconds of calling-thread work per byte of identities.json and accounts.json read for the
 * selected identities (reading, the pre-pass, parsing, serialising): one thread's 4.63 s over the
 * 334 MB of the benchmark's 100,000 identities, less what the evaluation itself takes.
 */
const SECONDS_PER_BYTE = 13.5e-9;
/**
 * Seconds per attribute evaluated (the bundled profile's mix: account reads, regexes, templates):
 * the computation alone, 0.12 s for 100,000 identities of 22 attributes.
 */
const SECONDS_PER_ATTRIBUTE = 0.055e-6;
/**
 * Below this much estimated work, threads do not pay. With the compiled package on 2 idle cores,
 * 2 workers take about 1 s more than their work over 1.7 (the second thread's start, the
 * pre-pass, the CPU the calling thread and V8's helper threads share with them), so they win
 * from about 2.5 s of one thread's work, some 53,000 identities of the benchmark tenant; the
 * threshold, about 65,000, leaves a fifth of margin (docs/bench-refresh.md, "A second worker at
 * the present cost").
 */
const MIN_WORK_SECONDS = 3;
/** Each further thread needs this much work to pay for its start. */
const WORK_PER_THREAD_SECONDS = 1.25;
/**
 * Threads that load TypeScript through tsx (tests, tsx scripts) start slower: at 20,000
 * identities 2 workers took 1.8 times the calling thread's time under tsx and 1.05 times
 * compiled; at 100,000 they paid in both.
 */
const TYPESCRIPT_START_FACTOR = 1.5;
/** identities.json is sampled to this many bytes to learn the bytes per identity. */
const SAMPLE_BYTES = 256 << 10;

export interface WorkEstimate {
  /** Identities the run selects (the shard's share), estimated. */
  identities: number;
  /** Seconds of work on one thread, estimated. */
  seconds: number;
}

/** What the choice depends on. */
export interface AutoInput {
  work: WorkEstimate;
  cores: number;
  /** The threads load TypeScript through tsx. */
  typescript: boolean;
}

/**
 * The number of threads for 'auto': 0 on one core (a thread only adds its start to the same
 * serial work) and below the work that pays for a start; else one thread per
 * WORK_PER_THREAD_SECONDS of work, at most one per core.
 */
export function autoThreads({ work, cores, typescript }: AutoInput): number {
  const start = typescript ? TYPESCRIPT_START_FACTOR : 1;
  if (cores < 2 || work.seconds < MIN_WORK_SECONDS * start) return 0;
  return Math.max(1, Math.min(cores, Math.floor(work.seconds / (WORK_PER_THREAD_SECONDS * start))));
}

/**
 * Count the elements in the first SAMPLE_BYTES of identities.json by their top-level commas (a
 * quick byte scan of strings and nesting; malformed text only makes the estimate rough: the
 * pre-pass reports it). Returns the elements seen and the bytes they took, or null for an
 * empty or unreadable file.
 */
function sampleIdentities(file: string, size: number): { elements: number; bytes: number } | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  const buf = Buffer.allocUnsafe(Math.min(size, SAMPLE_BYTES));
  let read = 0;
  try {
    read = readSync(fd, buf, 0, buf.length, 0);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
  let depth = 0;
  let inString = false;
  let elements = 0;
  let lastEnd = 0;
  for (let i = 0; i < read; i++) {
    const b = buf[i]!;
    if (inString) {
      if (b === 0x5c) i++;
      else if (b === 0x22) inString = false;
      continue;
    }
    if (b === 0x22) inString = true;
    else if (b === 0x7b || b === 0x5b) depth++;
    else if (b === 0x7d || b === 0x5d) {
      depth--;
      // An element of the top-level array ends (an object or an array at depth 1).
      if (depth === 1) {
        elements++;
        lastEnd = i + 1;
      }
    }
  }
  if (elements === 0) return read === size ? null : { elements: 1, bytes: read };
  return { elements, bytes: lastEnd };
}

function fileSize(file: string): number {
  try {
    return existsSync(file) ? statSync(file).size : 0;
  } catch {
    return 0;
  }
}

/** The work of refreshing `fixtures` with `profile` (a shard's share of it), estimated from its files. */
export function estimateWork(fixtures: string, profile: IdentityProfile, shard: Shard | null): WorkEstimate {
  const identitiesFile = join(fixtures, 'identities.json');
  const identitiesBytes = fileSize(identitiesFile);
  const accountsBytes = fileSize(join(fixtures, 'accounts.json'));
  const sample = identitiesBytes > 0 ? sampleIdentities(identitiesFile, identitiesBytes) : null;
  const all = sample === null ? 0 : Math.round((identitiesBytes * sample.elements) / sample.bytes);
  const share = shard === null ? 1 : 1 / shard.count;
  const identities = Math.round(all * share);
  const attributes = profile.identityAttributeConfig?.attributeTransforms?.length ?? 0;
  const seconds = (identitiesBytes + accountsBytes) * share * SECONDS_PER_BYTE + identities * attributes * SECONDS_PER_ATTRIBUTE;
  return { identities, seconds };
}

/** How long the machine's idle cores are sampled before threads are started. */
const SAMPLE_MS = 100;

interface CpuTicks {
  idle: number;
  total: number;
}

/** The machine's CPU time so far, all cores together (Linux /proc/stat, in clock ticks); null elsewhere. */
function cpuTicks(): CpuTicks | null {
  try {
    const fields = readFileSync('/proc/stat', 'latin1').slice(0, 256).split('\n', 1)[0]!.trim().split(/\s+/);
    if (fields[0] !== 'cpu') return null;
    const ticks = fields.slice(1, 9).map(Number);
    if (ticks.length < 5 || ticks.some((t) => !Number.isFinite(t))) return null;
    // user nice system idle iowait irq softirq steal: idle and iowait are idle.
    return { idle: ticks[3]! + ticks[4]!, total: ticks.reduce((a, b) => a + b, 0) };
  } catch {
    return null;
  }
}

/**
 * The cores the machine's other processes keep busy, measured over SAMPLE_MS while this process
 * waits (its own CPU in that time taken off), or null where /proc/stat is not readable.
 */
export async function busyCores(cores: number, ms = SAMPLE_MS): Promise<number | null> {
  const before = cpuTicks();
  if (before === null) return null;
  const own = process.cpuUsage();
  const start = performance.now();
  await sleep(ms);
  const after = cpuTicks();
  const elapsed = performance.now() - start;
  if (after === null || after.total <= before.total) return null;
  const used = process.cpuUsage(own);
  const busy = (1 - (after.idle - before.idle) / (after.total - before.total)) * cores;
  return Math.max(0, busy - (used.user + used.system) / 1000 / elapsed);
}

/** The cores a refresh can count on: the machine's, less those others keep busy (rounded to the nearest core). */
export function freeCores(cores: number, busy: number | null): number {
  return busy === null ? cores : Math.max(0, Math.min(cores, Math.round(cores - busy)));
}
