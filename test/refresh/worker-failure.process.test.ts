// A refresh worker thread that dies — its heap limit reached, or process.exit in a rules module —
// ends the run with REFRESH_WORKER_FAILED naming the batch, the process exiting normally (exit
// code 1, one line on stderr, --out not written), and no thread is started in its place: re2
// would abort the process (src/refresh/pool.ts, worker-gate.ts). Each case runs in a process
// of its own, as users run it, since a death marks the process.

import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { built, CLI, ROOT } from '../e2e/install.js';
import { cleanUp, handTenant, hrAccount, profile, tempDir } from './tenants.js';

// The command as a user runs it: this checkout's build (test/e2e/install.ts).
beforeAll(built);
afterAll(cleanUp);


interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

function node(args: string[]): Promise<Exit> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += String(chunk)));
  child.stderr.on('data', (chunk) => (err += String(chunk)));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, out, err })));
}

const ids = Array.from({ length: 80 }, (_, i) => `id-${String(i).padStart(2, '0')}`);

/**
 * 80 identities whose `note` pads identities.json past 1 MiB, and a profile whose attribute is
 * the rule `rule` of the module `rules`.
 */
function tenant(rule: string, rules: string): { dir: string; rulesFile: string } {
  const dir = handTenant({
    identities: ids.map((id) => ({ id, name: id, attributes: { note: 'x'.repeat(14_000) }, managerId: null })),
    accounts: ids.map((id) => hrAccount(id, { first: 'John' })),
    profiles: [profile('P', { x: { type: 'rule', attributes: { name: rule } } })],
  });
  const rulesFile = join(tempDir('idt-rules-'), 'rules.mjs');
  writeFileSync(rulesFile, rules);
  return { dir, rulesFile };
}

/** Identity id-40 is in batch 2 with batches of 16; threads evaluate nothing else that calls the rule with it. */
const GROW = `const kept = [];
export default { Grow: ({ identity }) => { if (identity.name === 'id-40') for (;;) kept.push(new Array(1000).fill(identity.name)); return 'ok'; } };
`;
const EXIT = `export default { Exit: ({ identity }) => { if (identity.name === 'id-40') process.exit(7); return 'ok'; } };
`;

describe('a refresh worker thread that dies', () => {
  it('reaching its heap limit ends the run with REFRESH_WORKER_FAILED naming the batch; --out keeps the existing file', async () => {
    const { dir, rulesFile } = tenant('Grow', GROW);
    const outDir = tempDir('idt-out-');
    const out = join(outDir, 'out.ndjson');
    writeFileSync(out, 'the previous run\n');
    const r = await node([CLI, 'refresh', '--fixtures', dir, '--rules', rulesFile, '--workers', '2', '--worker-heap', '32', '--batch-size', '16', '--out', out]);
    expect(r).toMatchObject({ code: 1, signal: null, out: '' });
    expect(r.err).toBe(
      'REFRESH_WORKER_FAILED a refresh worker thread died on batch 2 (its first identity is element 32 of identities.json): the thread reached its heap limit of 32 MB and was stopped; raise it (--worker-heap, the option workerHeapMb) or refresh with workers 0\n',
    );
    expect(readFileSync(out, 'utf8')).toBe('the previous run\n');
    expect(readdirSync(outDir)).toEqual(['out.ndjson']);
  });

  it('exiting (process.exit in a rules module) ends the run so too, with --format json', async () => {
    const { dir, rulesFile } = tenant('Exit', EXIT);
    const out = join(tempDir('idt-out-'), 'out.ndjson');
    const r = await node([CLI, 'refresh', '--fixtures', dir, '--rules', rulesFile, '--workers', '2', '--batch-size', '16', '--out', out, '--format', 'json']);
    expect(r).toMatchObject({ code: 1, signal: null, err: '' });
    expect(JSON.parse(r.out)).toEqual({
      complete: false,
      error: {
        code: 'REFRESH_WORKER_FAILED',
        message: 'a refresh worker thread died on batch 2 (its first identity is element 32 of identities.json): the thread exited with code 7',
        details: { batch: 2, element: 32, reason: 'exit' },
        cause: { message: 'worker exited with code: 7' },
      },
    });
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dirname(out))).toEqual([]);
  });

  it('exiting on the main thread (workers 0) exits with its code and leaves no hidden .partial file beside --out', async () => {
    const { dir, rulesFile } = tenant('Exit', EXIT);
    const outDir = tempDir('idt-out-');
    const out = join(outDir, 'out.ndjson');
    writeFileSync(out, 'the previous run\n');
    const r = await node([CLI, 'refresh', '--fixtures', dir, '--rules', rulesFile, '--workers', '0', '--batch-size', '16', '--out', out]);
    expect(r).toMatchObject({ code: 7, signal: null });
    expect(readFileSync(out, 'utf8')).toBe('the previous run\n');
    expect(readdirSync(outDir)).toEqual(['out.ndjson']);
  });

  it('starts no thread again in the process: workers auto then refresh on the calling thread, an explicit count fails at once', async () => {
    const { dir, rulesFile } = tenant('Exit', EXIT);
    const runner = pathToFileURL(join(ROOT, 'dist/refresh/runner.js')).href;
    const script = `
      const { RefreshRunner } = await import(${JSON.stringify(runner)});
      const attempt = async (options) => {
        const run = new RefreshRunner({ fixtures: ${JSON.stringify(dir)}, batchSize: 16, ...options });
        let lines = 0;
        try {
          for await (const batch of run.batches()) lines += batch.text.split('\\n').length - 1;
          return { lines, workers: run.summary().workers };
        } catch (error) {
          return { code: error.code, message: error.message };
        }
      };
      const results = [await attempt({ rules: ${JSON.stringify(rulesFile)}, workers: 2 })];
      const harmless = { name: 'Q', identityAttributeConfig: { enabled: true, attributeTransforms: [
        { identityAttributeName: 'x', transformDefinition: { type: 'identityAttribute', attributes: { name: 'note' } } }] } };
      results.push(await attempt({ profile: harmless, workers: 'auto' }));
      results.push(await attempt({ profile: harmless, workers: 1 }));
      console.log(JSON.stringify(results));`;
    const r = await node(['--input-type=module', '-e', script]);
    expect(r).toMatchObject({ code: 0, signal: null, err: '' });
    expect(JSON.parse(r.out)).toEqual([
      { code: 'REFRESH_WORKER_FAILED', message: 'a refresh worker thread died on batch 2 (its first identity is element 32 of identities.json): the thread exited with code 7' },
      { lines: 80, workers: 0 },
      {
        code: 'REFRESH_WORKER_FAILED',
        message: 'a refresh worker thread of this process died earlier, and no thread is started again in this process (re2 would crash it): refresh with workers 0',
      },
    ]);
  });
});
