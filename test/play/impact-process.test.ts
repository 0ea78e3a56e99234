// A playground impact run under the budget of one request: a pasted profile that spends every
// evaluation's whole budget, or fills memory with values each within its limits, is stopped with
// PLAY_IMPACT_BUDGET, and a cancelled run's process is gone — whatever it was doing.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { codedError } from '../../src/errors/index.js';
import { readVersion, type TransformVersion } from '../../src/impact/index.js';
import { impactInProcess, type ChildOptions } from '../../src/play/impact-process.js';
import { SERVER_EVALUATION_LIMITS } from '../../src/api/evaluation-limits.js';
import { HEAVY, WIDE, impactChildren } from './impact-children.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures');
const poll = <T>(read: () => T) => expect.poll(read, { timeout: 30_000, interval: 50 });

describe('an impact run in a process of its own', { timeout: 120_000 }, () => {
  let base: TransformVersion;
  /** The fixtures' version with the default profile's mappings replaced. */
  const headWith = (mappings: unknown[]): TransformVersion => ({
    label: 'pasted',
    transforms: base.transforms,
    profiles: base.profiles.map((p) => ({ file: p.file, doc: { ...p.doc, identityAttributeConfig: { ...p.doc.identityAttributeConfig, attributeTransforms: mappings } } as typeof p.doc })),
  });
  const options = (mappings: unknown[], more: Partial<ChildOptions> = {}): ChildOptions => ({ base, head: headWith(mappings), fixtures: FIXTURES, workers: 0, limits: SERVER_EVALUATION_LIMITS, ...more });
  const slow = Array.from({ length: 30 }, (_, k) => ({ identityAttributeName: `slow${k}`, transformDefinition: HEAVY }));

  beforeAll(() => {
    base = readVersion(FIXTURES, { cwd: FIXTURES });
  });

  it('answers impact\'s report when the run fits its budget', async () => {
    // The library's own evaluation limits: a machine that stalls for a tenth of a second does not make this value an EVAL_LIMIT_TIME.
    const greeting = [{ identityAttributeName: 'greeting', transformDefinition: { type: 'static', attributes: { value: 'hi' } } }];
    const report = await impactInProcess(options(greeting, { limits: {} }), { maxTime: 60_000, maxHeapMb: 512 }, new AbortController().signal);
    expect(report.totals).toMatchObject({ identities: 209, attributes: expect.any(Number) });
    expect(report.profiles[0]!.attributes.find((a) => a.attribute === 'greeting')).toMatchObject({ identities: 209, stoppedBeingNull: 209 });
  });

  it('stops a run past its time with PLAY_IMPACT_BUDGET (maxTime), and leaves no process behind', async () => {
    // 30 attributes of a tenth of a second each, for each of 209 identities: ten minutes of work.
    await expect(impactInProcess(options(slow), { maxTime: 3_000, maxHeapMb: 512 }, new AbortController().signal)).rejects.toMatchObject({
      code: 'PLAY_IMPACT_BUDGET',
      details: { limit: 'maxTime', max: 3_000 },
    });
    await poll(impactChildren).toEqual([]);
  });

  it('stops a run past its memory with PLAY_IMPACT_BUDGET (maxHeapMb)', async () => {
    // 400 attributes of 64 Ki characters each, for every identity of a batch: gigabytes.
    const wide = Array.from({ length: 400 }, (_, k) => ({ identityAttributeName: `wide${k}`, transformDefinition: WIDE }));
    await expect(impactInProcess(options(wide), { maxTime: 60_000, maxHeapMb: 64 }, new AbortController().signal)).rejects.toMatchObject({
      code: 'PLAY_IMPACT_BUDGET',
      details: { limit: 'maxHeapMb', max: 64 },
    });
  });

  it('is cancelled at once in the middle of its work: the signal\'s reason, and its process gone', async () => {
    const cancel = new AbortController();
    const run = impactInProcess(options(slow), { maxTime: 600_000, maxHeapMb: 512 }, cancel.signal);
    await poll(() => impactChildren().length).toBe(1);
    cancel.abort(codedError('PLAY_IMPACT_CANCELLED', 'the impact run was cancelled: its request was'));
    await expect(run).rejects.toMatchObject({ code: 'PLAY_IMPACT_CANCELLED' });
    await poll(impactChildren).toEqual([]);
  });

  it('ends with the process that started it: a play command killed leaves no run behind', async () => {
    // A play command of its own, started through tsx, which starts a run of ten minutes and is killed once the run is at work.
    const script = `import { impactInProcess } from ${JSON.stringify(resolve(import.meta.dirname, '../../src/play/impact-process.ts'))};
      import { readVersion } from ${JSON.stringify(resolve(import.meta.dirname, '../../src/impact/index.ts'))};
      const base = readVersion(${JSON.stringify(FIXTURES)}, { cwd: ${JSON.stringify(FIXTURES)} });
      const mappings = ${JSON.stringify(slow)};
      const head = { label: 'pasted', transforms: base.transforms, profiles: base.profiles.map((p) => ({ file: p.file, doc: { ...p.doc, identityAttributeConfig: { ...p.doc.identityAttributeConfig, attributeTransforms: mappings } } })) };
      await impactInProcess({ base, head, fixtures: ${JSON.stringify(FIXTURES)}, workers: 0 }, { maxTime: 600000, maxHeapMb: 512 }, new AbortController().signal);`;
    const play = spawn(process.execPath, ['--import', createRequire(import.meta.url).resolve('tsx'), '--input-type=module', '-e', script], { stdio: 'ignore' });
    await poll(() => impactChildren(play.pid).length).toBe(1);
    const [run] = impactChildren(play.pid);
    play.kill('SIGKILL');
    await poll(() => {
      try {
        process.kill(run!, 0);
        return 'running';
      } catch {
        return 'gone';
      }
    }).toBe('gone');
  });

  it('passes on the run\'s own coded errors', async () => {
    await expect(impactInProcess({ ...options([]), profile: 'No such profile' }, { maxTime: 60_000, maxHeapMb: 512 }, new AbortController().signal)).rejects.toMatchObject({ code: expect.stringMatching(/^IMPACT_/) });
  });
});
