// Ctrl-C (SIGINT) or SIGTERM (a Kubernetes Job being stopped) during `refresh --out`: the
// command, spawned as a user runs it, removes its hidden .partial file, keeps an older output,
// says how many identities were done and that the output was not written, and exits 130 / 143.

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, generatedTenant, tempDir } from '../refresh/tenants.js';
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

async function interrupt(signal: 'SIGINT' | 'SIGTERM', workers: string) {
  const dir = tempDir('idt-signal-');
  const out = join(dir, 'out.ndjson');
  writeFileSync(out, 'previous run\n');
  const child = spawn(process.execPath, [CLI, 'refresh', '--fixtures', bigTenant(), '--out', out, '--workers', workers, '--batch-size', '8', '--no-progress'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (chunk) => (err += String(chunk)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, sig) => resolve({ code, signal: sig })));
  // Mid-run: the partial file has lines in it.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [partial] = partials(dir);
    if (partial && statSync(join(dir, partial)).size > 0) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the refresh never got going: ${err}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill(signal);
  const result = await exited;
  return { ...result, err, dir, out };
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
    expect(r.err).toMatch(new RegExp(`^refresh interrupted by ${signal} after [\\d,]+ of 12,000 identities; ${r.out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was not written \\(the partial output was removed; the existing file is unchanged\\)\\n$`));
    const done = Number(/after ([\d,]+) of/.exec(r.err)![1]!.replace(/,/g, ''));
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(12_000);
  }, 120_000);
});
