// `identity-transforms snapshot` as a user runs it: a separate process against serve, stopped
// with Ctrl-C (SIGINT) at a random moment of the copy, then run again: it resumes and writes the
// same data files as an uninterrupted copy. `--rate` slows the copy so that the signal lands in
// the middle of it.

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { snapshotTenant } from '../../src/snapshot/index.js';
import { ADMIN_PAT, resourceServer, type ResourceServer } from '../api/resources-server.js';
import { built, CLI } from './install.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'idt-snapshot-cli-'));
let server: ResourceServer;
let baseUrl: string;

beforeAll(async () => {
  // The command runs from this checkout's build (test/e2e/install.ts), as a user runs it.
  await built();
  server = await resourceServer();
  baseUrl = await server.listen();
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

function cli(args: string[]) {
  const proc = spawn(process.execPath, [CLI, 'snapshot', ...args], {
    cwd: root,
    env: { ...process.env, IDT_CLIENT_ID: ADMIN_PAT.id, IDT_CLIENT_SECRET: ADMIN_PAT.secret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr!.on('data', (d) => (err += String(d)));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, err: () => err, exited };
}

const data = (dir: string) => ['sources.json', 'identities.json', 'accounts.json'].map((f) => readFileSync(join(dir, f), 'utf8'));

it('resumes after Ctrl-C at a random moment and writes the same data as an uninterrupted copy', async () => {
  const out = join(tmp, 'snap');
  // 209 identities in pages of 20, 5 requests a second: about 40 requests, 8 seconds.
  const args = ['--tenant', baseUrl, '--out', out, '--page-size', '20', '--rate', '5', '--no-progress'];
  const first = cli(args);
  // Once the copy has started (its checkpoint exists; on a loaded machine loading the CLI takes
  // seconds), Ctrl-C at a random moment of the next few seconds.
  const checkpoint = join(tmp, '.snap.snapshot-partial', 'checkpoint.json');
  for (let waited = 0; !existsSync(checkpoint) && waited < 120_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  const delay = Math.floor(Math.random() * 4000);
  setTimeout(() => first.proc.kill('SIGINT'), delay);
  const code = await first.exited;
  expect(code, `${first.err()} (SIGINT ${delay} ms after the copy started)`).toBe(130);
  expect(first.err()).toContain('SNAPSHOT_ABORTED');
  expect(existsSync(out)).toBe(false);
  expect(readdirSync(tmp)).toContain('.snap.snapshot-partial');

  const second = cli(['--tenant', baseUrl, '--out', out, '--page-size', '20', '--no-progress']);
  expect(await second.exited, second.err()).toBe(0);
  expect(second.err()).toMatch(/^snapshot full \(resumed\) of /);

  await snapshotTenant({ tenant: { baseUrl, clientId: ADMIN_PAT.id, clientSecret: ADMIN_PAT.secret }, out: join(tmp, 'whole') });
  expect(data(out)).toEqual(data(join(tmp, 'whole')));
}, 180_000);

it('ends on Ctrl-C while its key file is a pipe nobody writes to, having written nothing', async () => {
  // Opening a FIFO without a writer blocks the process in open(2); the key is read before the
  // command's own signal handlers exist, so Ctrl-C ends it as it ends any program.
  const fifo = join(tmp, 'key.fifo');
  execFileSync('mkfifo', [fifo]);
  const out = join(tmp, 'never');
  const proc = spawn(process.execPath, [CLI, 'snapshot', '--tenant', baseUrl, '--out', out, '--pseudonymize', '--key-file', fifo, '--no-progress'], {
    cwd: root,
    env: { ...process.env, IDT_CLIENT_ID: ADMIN_PAT.id, IDT_CLIENT_SECRET: ADMIN_PAT.secret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ended = new Promise<NodeJS.Signals | number | null>((resolve) => proc.once('exit', (code, signal) => resolve(signal ?? code)));
  // Long enough for the CLI to load and block in the open, on a loaded machine.
  await new Promise((r) => setTimeout(r, 3000));
  proc.kill('SIGINT');
  const timeout = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 20_000).unref());
  const result = await Promise.race([ended, timeout]);
  if (result === 'still running') proc.kill('SIGKILL');
  expect(result).toBe('SIGINT');
  expect(existsSync(out)).toBe(false);
  expect(readdirSync(tmp).filter((f) => f.startsWith('.never'))).toEqual([]);
}, 60_000);
