// Issue 7 CLI: `identity-transforms serve` prints exactly one `listening {…}` line on stdout,
// the admin PAT once on stderr, and keeps a file store across restarts.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../src/cli/serve.js';
import { ALICE, ALICE_PAT, FIXTURES } from './helpers.js';

const ROOT = join(FIXTURES, '..', '..', '..');

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  urls: { baseUrl: string; loginUrl: string; nonEmployeeUrl: string };
}

async function start(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/run.ts'), 'serve', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  const urls = await new Promise<Running['urls']>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += String(d);
      const m = /^listening (\{.*\})\n/.exec(out);
      if (m) resolve(JSON.parse(m[1]!));
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return { child, stdout: () => out, stderr: () => err, urls };
}

async function stop(r: Running): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => r.child.once('exit', (code) => resolve(code)));
  r.child.kill('SIGTERM');
  return exited;
}

async function token(baseUrl: string, id: string, secret: string): Promise<Response> {
  return fetch(`${baseUrl}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }) });
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('identity-transforms serve', () => {
  it('prints one listening line, the admin PAT once on stderr, and serves all three listeners', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'it-serve-'));
    dirs.push(dir);
    const db = join(dir, 'tenant.db');
    const first = await start(['--fixtures', FIXTURES, '--db', db, '--port', '0', '--nonemployee-api-key', 'cli-given-legacy-key-0000000000']);
    let secondCode: number | null = null;
    try {
      expect(first.stdout()).toMatch(/^listening \{"baseUrl":"http:\/\/127\.0\.0\.1:\d+","loginUrl":"http:\/\/127\.0\.0\.1:\d+","nonEmployeeUrl":"http:\/\/127\.0\.0\.1:\d+"\}\n$/);
      const { baseUrl, loginUrl, nonEmployeeUrl } = first.urls;
      expect(new Set([baseUrl, loginUrl, nonEmployeeUrl]).size).toBe(3);
      const admin = JSON.parse(/admin personal access token \(shown once, stored hashed\) (\{.*\})/.exec(first.stderr())![1]!) as { clientId: string; clientSecret: string; owner: string };
      expect(admin.owner).toBe(ALICE.login);
      const t = await token(baseUrl, admin.clientId, admin.clientSecret);
      expect(t.status).toBe(200);
      const access = ((await t.json()) as { access_token: string }).access_token;
      expect((await fetch(`${baseUrl}/v3/oauth-clients`, { headers: { authorization: `Bearer ${access}` } })).status).toBe(200);
      expect((await fetch(`${nonEmployeeUrl}/api/v2025/non-employee-sources`, { headers: { authorization: 'Bearer cli-given-legacy-key-0000000000' } })).status).toBe(200);
      expect((await fetch(`${loginUrl}/oauth/authorize?client_id=8d3a6c2e-5b1f-4c8e-9f7a-1e2d3c4b5a69&response_type=code&redirect_uri=http%3A%2F%2Flocalhost%3A8080%2Fcallback`)).status).toBe(200);
      expect(await stop(first)).toBe(0);
      expect(first.stdout().split('\n').filter((l) => l !== '')).toHaveLength(1);

      // Same file again: no new admin PAT, the old one still works.
      const second = await start(['--fixtures', FIXTURES, '--db', db]);
      try {
        expect(second.stderr()).toMatch(new RegExp(`admin personal access token ${admin.clientId} \\(owner alice.admin\\) exists`));
        expect((await token(second.urls.baseUrl, admin.clientId, admin.clientSecret)).status).toBe(200);
      } finally {
        secondCode = await stop(second);
      }
      expect(secondCode).toBe(0);
    } finally {
      if (first.child.exitCode === null) first.child.kill('SIGKILL');
    }
  });

  it('uses the admin credentials given as flags and prints no secret', async () => {
    const id = '5e1f0000-aaaa-4bbb-8ccc-dddddddddddd';
    const r = await start(['--fixtures', FIXTURES, '--admin-client-id', id, '--admin-client-secret', 'flag-secret-123', '--expires-in', '300', '--tenant-name', 'acme']);
    try {
      expect(r.stderr()).not.toContain('flag-secret-123');
      const res = await token(r.urls.baseUrl, id, 'flag-secret-123');
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ expires_in: 300, org: 'acme', user_id: ALICE.id });
      // The fixture PATs are there too.
      expect((await token(r.urls.baseUrl, ALICE_PAT.id, ALICE_PAT.secret)).status).toBe(200);
    } finally {
      await stop(r);
    }
  });

  it.each([
    ['no --fixtures', [], /needs --fixtures/],
    ['only one admin flag', ['--fixtures', FIXTURES, '--admin-client-id', 'x'], /go together/],
    ['a bad port', ['--fixtures', FIXTURES, '--port', '70000'], /port number/],
    ['a bad lifetime', ['--fixtures', FIXTURES, '--expires-in', '0'], /positive integer/],
    ['a short legacy key', ['--fixtures', FIXTURES, '--nonemployee-api-key', 'short'], /24 characters/],
  ])('refuses %s as a usage error', async (_name, argv, message) => {
    await expect(serveCommand(argv, { out: () => {}, err: () => {} })).rejects.toMatchObject({ code: 'CLI_USAGE', message: expect.stringMatching(message) });
  });

  it('refuses a missing fixtures directory', async () => {
    await expect(serveCommand(['--fixtures', join(ROOT, 'no-such-dir')], { out: () => {}, err: () => {} })).rejects.toMatchObject({ code: 'CLI_READ' });
  });

  it('stops when its signal aborts, in process', async () => {
    const lines: string[] = [];
    const controller = new AbortController();
    const done = serveCommand(['--fixtures', FIXTURES], { out: (t) => lines.push(t), err: () => {} }, controller.signal);
    while (lines.length === 0) await new Promise((r) => setTimeout(r, 20));
    expect(lines[0]).toMatch(/^listening /);
    controller.abort();
    expect(await done).toBe(0);
  });
});
