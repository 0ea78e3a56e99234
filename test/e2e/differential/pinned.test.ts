// The differential suite's pinned vectors: templates once found answered differently by Velocity
// 1.7 and by our runtime (pinned/velocity.json says where each came from), asked of both at every
// run, so that a fixed divergence stays fixed whatever the generator draws. Runs when the Java
// oracle can (as differential.test.ts).

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOutcome, judge } from './harness.js';
import { velocityKind } from './kinds/velocity.js';
import { JavaOracle, oracleUnavailable } from './oracle.js';

interface Pinned {
  defaults: Record<string, unknown>;
  vectors: { template: string; vars?: Record<string, unknown>; found: string }[];
}

const pinned = JSON.parse(readFileSync(new URL('./pinned/velocity.json', import.meta.url), 'utf8')) as Pinned;

describe.skipIf(oracleUnavailable() !== undefined)('pinned vectors: our runtime against Velocity 1.7', () => {
  let oracle: JavaOracle;
  beforeAll(() => {
    oracle = JavaOracle.start();
  });
  afterAll(async () => {
    await oracle?.close();
  });

  it.each(pinned.vectors)('$template', async ({ template, vars }) => {
    const c = { template, vars: vars ?? pinned.defaults };
    const java = await velocityKind.java(oracle, c);
    const ours = velocityKind.ours(c);
    const verdict = judge(velocityKind, c, java, ours);
    expect(verdict.status, `Java: ${describeOutcome(java)}, ours: ${describeOutcome(ours)}`).toBe('identical');
  });
});
