// The differential suite: our Java runtime (src/runtime/) against the Java libraries the platform
// runs (Apache Velocity 1.7 in strict-reference mode, java.util.regex, SimpleDateFormat, String,
// Double.toString), on generated cases, with a fixed seed. Runs when java and the Velocity jar
// are present (CI installs them). DIFF_RUNS=100000 for a long run, DIFF_SEED to vary the seed,
// DIFF_KINDS=velocity,split to select kinds, DIFF_KEEP_GOING=1 to count every divergence instead
// of stopping at the first, DIFF_REPORT=file.json to write the figures.

import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKind, type Kind, type Summary } from './harness.js';
import { JavaOracle, oracleUnavailable } from './oracle.js';
import { arithmeticKind, doubleKind } from './kinds/arithmetic.js';
import { dateKind } from './kinds/dates.js';
import { replaceKind, splitKind } from './kinds/regex.js';
import { stringKind } from './kinds/strings.js';
import { velocityKind } from './kinds/velocity.js';

const RUNS = Number(process.env.DIFF_RUNS ?? 2000);
const SEED = Number(process.env.DIFF_SEED ?? 20261125);
const KEEP_GOING = process.env.DIFF_KEEP_GOING === '1';
const SELECTED = process.env.DIFF_KINDS?.split(',').map((k) => k.trim());

/**
 * Kinds whose divergences are not all fixed yet, with what is known to differ (kind name: what).
 * Such a kind runs as it.fails until its last divergence is fixed.
 */
const OPEN_DIVERGENCES: Record<string, string> = {};

const KINDS = ([velocityKind, replaceKind, splitKind, dateKind, stringKind, arithmeticKind, doubleKind] as Kind<never>[]).filter(Boolean);
const unavailable = oracleUnavailable();
const summaries: Summary[] = [];

describe.skipIf(unavailable !== undefined)('differential: our runtime against the Java libraries', () => {
  let oracle: JavaOracle;
  beforeAll(() => {
    oracle = JavaOracle.start();
  });
  afterAll(async () => {
    await oracle?.close();
    for (const s of summaries) {
      const known = Object.entries(s.known).map(([d, n]) => `${d}: ${n}`).join(', ') || '0';
      console.log(`${s.kind}: ${s.runs} cases, ${s.identical} identical, ${s.rejected} coded rejections, known differences ${known}, ${s.divergent} divergent (seed ${s.seed})`);
    }
    if (process.env.DIFF_REPORT) writeFileSync(process.env.DIFF_REPORT, JSON.stringify(summaries, null, 2));
  });

  for (const kind of KINDS.filter((k) => !SELECTED || SELECTED.some((s) => k.name.startsWith(s)))) {
    // A kind with open divergences is recorded as failing (it.fails): every case still runs and
    // is counted, and the test turns red the day the last divergence is fixed, to be made strict.
    const open = OPEN_DIVERGENCES[kind.name];
    const test = open === undefined ? it : it.fails;
    const title = open === undefined ? `${kind.name}: identical to Java on ${RUNS} generated cases` : `${kind.name}: still diverges from Java on ${RUNS} generated cases (open: ${open})`;
    test(title, { timeout: Math.max(120_000, RUNS * 60) }, async () => {
      const summary = await runKind(kind, oracle, { runs: RUNS, seed: SEED, keepGoing: KEEP_GOING || open !== undefined });
      summaries.push(summary);
      if (summary.reports.length > 0) console.log(summary.reports.join('\n\n'));
      expect(summary.divergent, summary.reports.join('\n\n')).toBe(0);
    });
  }
});

// CI installs the oracle (.ci/run): there a missing oracle is a failure, not a skip.
describe.runIf(unavailable !== undefined)('differential: the Java oracle', () => {
  it.skipIf(!process.env.CI)('is installed (java, javac, Velocity 1.7, Commons Lang 3, Gson)', () => {
    expect(unavailable).toBeUndefined();
  });
});
