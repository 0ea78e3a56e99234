// Ctrl-C (SIGINT) or SIGTERM (a Kubernetes Job being stopped) during `refresh --out`: the
// command, spawned as a user runs it, removes its hidden .partial file, keeps an older output,
// says how many identities were done and that the output was not written, and exits 130 / 143.

import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, generatedTenant, profile, tempDir } from '../refresh/tenants.js';
import { built, CLI } from './install.js';

// The command as a user runs it: this checkout's build (test/e2e/install.ts).
beforeAll(built);
afterAll(cleanUp);


let tenant: string | undefined;
/** Big enough that the run is still going when the first lines are on disk (many small batches). */
function bigTenant(): string {
  return (tenant ??= generatedTenant(12_000, 'signals'));
}

function partials(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith('.partial'));
}

/** Run a refresh and send `signal` mid-run: once lines are in the partial file, and `ready` (a file) exists when given. */
async function interrupt(signal: 'SIGINT' | 'SIGTERM', workers: string, extra: string[] = [], ready?: string) {
  const dir = tempDir('idt-signal-');
  const out = join(dir, 'out.ndjson');
  writeFileSync(out, 'previous run\n');
  const child = spawn(process.execPath, [CLI, 'refresh', '--fixtures', bigTenant(), '--out', out, '--workers', workers, '--batch-size', '8', '--no-progress', ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (chunk) => (err += String(chunk)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, sig) => resolve({ code, signal: sig })));
  // Mid-run: the partial file has lines in it.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [partial] = partials(dir);
    if (partial && statSync(join(dir, partial)).size > 0 && (ready === undefined || existsSync(ready))) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the refresh never got going: ${err}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill(signal);
  // A run the signal did not stop is ended, so that the test fails rather than leaves it spinning.
  const stopped = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const result = await exited;
  clearTimeout(stopped);
  return { ...result, err, dir, out };
}

/** The message of an interrupted run, for `out` and the signal. */
function interruptedMessage(signal: string, out: string): RegExp {
  return new RegExp(`^refresh interrupted by ${signal} after [\\d,]+ of 12,000 identities; ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was not written \\(the partial output was removed; the existing file is unchanged\\)\\n$`);
}

describe('refresh --out interrupted', () => {
  it.each([
    ['SIGINT', '0', 130],
    ['SIGTERM', '0', 143],
    ['SIGTERM', '2', 143],
  ] as const)('by %s with --workers %s: removes the .partial file, keeps the old output, exits %i', async (signal, workers, code) => {
    const r = await interrupt(signal, workers);
    expect(r.code).toBe(code);
    expect(partials(r.dir)).toEqual([]);
    expect(readFileSync(r.out, 'utf8')).toBe('previous run\n');
    expect(r.err).toMatch(interruptedMessage(signal, r.out));
    const done = Number(/after ([\d,]+) of/.exec(r.err)![1]!.replace(/,/g, ''));
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(12_000);
  }, 120_000);

  it('by SIGINT with --workers 0 while a rule never returns: the rule is stopped where it is, with the same clean-up and exit code 130', async () => {
    const dir = tempDir('idt-stuck-rule-');
    // The rule answers for the first identities, so that lines reach the partial file, then says
    // it is stuck (a file) and never returns.
    const rules = join(dir, 'rules.mjs');
    const stuckNow = join(dir, 'stuck-now');
    writeFileSync(
      rules,
      `import { writeFileSync } from 'node:fs';\nlet calls = 0;\nexport default { Stuck: () => { if (++calls > 100) { writeFileSync(${JSON.stringify(stuckNow)}, ''); for (;;) {} } return 'ok'; } };\n`,
    );
    const stuck = join(dir, 'stuck-profile.json');
    writeFileSync(stuck, JSON.stringify(profile('Stuck', { stuck: { type: 'rule', attributes: { name: 'Stuck' } } })));
    const r = await interrupt('SIGINT', '0', ['--rules', rules, '--profile', stuck], stuckNow);
    expect(r.code).toBe(130);
    expect(partials(r.dir)).toEqual([]);
    expect(readFileSync(r.out, 'utf8')).toBe('previous run\n');
    expect(r.err).toMatch(interruptedMessage('SIGINT', r.out));
    // The batches before the one that holds the hundred-and-first call were written, then dropped with the partial file.
    const done = Number(/after ([\d,]+) of/.exec(r.err)![1]!.replace(/,/g, ''));
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThanOrEqual(100);
  }, 120_000);
});
