// The limits that guard the process itself (docs/limits.md), seen from the command line: a
// template that exhausted the heap, and a transform nested past the stack, are each a coded error
// of `identity-transforms evaluate` run in a child process (the first with a small heap), so that
// a regression fails the test instead of killing the test runner.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { built, CLI } from '../e2e/install.js';

const ROOT = join(import.meta.dirname, '..', '..');
// The command as a user runs it: this checkout's build (test/e2e/install.ts).
beforeAll(built);

const staticT = (value: string) => ({ name: 't', type: 'static', attributes: { value } });

/** The out-of-memory template: a list of 100,000 distinct strings of 100 KB each. */
const GROW_LIST = '#set($l = [])#set($x = "x")#set($s = $x.repeat(100000))#foreach($i in [1..100000])#set($ok = $l.add("$s$i"))#end$l.size()';

describe('limits: out of memory', () => {
  it('a template growing a list of 100,000 strings of 100 KB stops with EVAL_LIMIT_ALLOCATION (CLI evaluate, 192 MB heap)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'limits-'));
    const file = join(dir, 'grow.json');
    writeFileSync(file, JSON.stringify(staticT(GROW_LIST)));
    const identity = 'fatima.schroder';
    const run = spawnSync(
      process.execPath,
      ['--max-old-space-size=192', CLI, 'evaluate', file, '--fixtures', join(ROOT, 'fixtures'), '--identity', identity],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(run.signal).toBeNull();
    expect(run.stderr).toMatch(/^EVAL_LIMIT_ALLOCATION .*maxAllocation/m);
    expect(run.status).toBe(1);
  });
});

describe('limits: nesting', () => {
  it('a 10,000-level transform in CLI evaluate is a coded error, not "Maximum call stack size exceeded"', () => {
    const dir = mkdtempSync(join(tmpdir(), 'limits-'));
    const file = join(dir, 'deep.json');
    // Written as text: JSON.stringify itself cannot go 10,000 levels deep on a small stack.
    const open = '{"type":"upper","attributes":{"input":'.repeat(10_000);
    writeFileSync(file, `{"name":"deep","type":"upper","attributes":{"input":${open}"x"${'}}'.repeat(10_000)}}}`);
    const run = spawnSync(process.execPath, [CLI, 'evaluate', file, '--fixtures', join(ROOT, 'fixtures'), '--identity', 'fatima.schroder'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.stderr).toMatch(/^COMPILE_TOO_DEEP /);
    expect(run.stderr).not.toMatch(/internal error|call stack/i);
    expect(run.status).toBe(1);
  });
});
