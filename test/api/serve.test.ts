// The CLI: `identity-transforms serve` prints exactly one `listening {…}` line on stdout,
// the admin PAT once on stderr, and keeps a file store across restarts.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCommand } from '../../src/cli/serve.js';
import { built, CLI } from '../e2e/install.js';
import { contractFetch } from './contract-http.js';
import { ALICE, ALICE_PAT, FIXTURES } from './helpers.js';

const ROOT = join(FIXTURES, '..', '..', '..');

// The command as a user runs it: this checkout's build (test/e2e/install.ts).
beforeAll(built);

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  urls: { baseUrl: string; loginUrl: string; nonEmployeeUrl: string };
  /** fetch, each answer of this server checked against its /openapi.json (contract-http.ts). */
  fetch: typeof fetch;
}

async function start(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
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
  return { child, stdout: () => out, stderr: () => err, urls, fetch: contractFetch(urls) };
}

/** Run serve to its exit (for the refusals). */
async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

async function stop(r: Running): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => r.child.once('exit', (code) => resolve(code)));
  r.child.kill('SIGTERM');
  return exited;
}

async function token(r: Running, id: string, secret: string): Promise<Response> {
  return r.fetch(`${r.urls.baseUrl}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }) });
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('identity-transforms serve', { timeout: 180_000 }, () => {
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
      const t = await token(first, admin.clientId, admin.clientSecret);
      expect(t.status).toBe(200);
      const access = ((await t.json()) as { access_token: string }).access_token;
      expect((await first.fetch(`${baseUrl}/v3/oauth-clients`, { headers: { authorization: `Bearer ${access}` } })).status).toBe(200);
      expect((await first.fetch(`${nonEmployeeUrl}/api/v2025/non-employee-sources`, { headers: { authorization: 'Bearer cli-given-legacy-key-0000000000' } })).status).toBe(200);
      expect((await first.fetch(`${loginUrl}/oauth/authorize?client_id=8d3a6c2e-5b1f-4c8e-9f7a-1e2d3c4b5a69&response_type=code&redirect_uri=http%3A%2F%2Flocalhost%3A8080%2Fcallback`)).status).toBe(200);
      expect(await stop(first)).toBe(0);
      expect(first.stdout().split('\n').filter((l) => l !== '')).toHaveLength(1);

      // Same file again: no new admin PAT, the old one still works.
      const second = await start(['--fixtures', FIXTURES, '--db', db]);
      try {
        expect(second.stderr()).toMatch(new RegExp(`admin personal access token ${admin.clientId} \\(owner alice.admin\\) exists`));
        expect(second.stderr()).toContain(`${db} holds a store: --fixtures ${FIXTURES} is not seeded again`);
        expect((await token(second, admin.clientId, admin.clientSecret)).status).toBe(200);
      } finally {
        secondCode = await stop(second);
      }
      expect(secondCode).toBe(0);

      // An existing store needs no fixtures.
      const third = await start(['--db', db]);
      try {
        expect((await token(third, admin.clientId, admin.clientSecret)).status).toBe(200);
      } finally {
        expect(await stop(third)).toBe(0);
      }
    } finally {
      if (first.child.exitCode === null) first.child.kill('SIGKILL');
    }
  });

  it('uses the admin credentials given as flags and prints no secret', async () => {
    const id = '5e1f0000-aaaa-4bbb-8ccc-dddddddddddd';
    const r = await start(['--fixtures', FIXTURES, '--admin-client-id', id, '--admin-client-secret', 'flag-secret-123', '--expires-in', '300', '--tenant-name', 'acme']);
    try {
      expect(r.stderr()).not.toContain('flag-secret-123');
      const res = await token(r, id, 'flag-secret-123');
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ expires_in: 300, org: 'acme', user_id: ALICE.id });
      // The fixture PATs are there too.
      expect((await token(r, ALICE_PAT.id, ALICE_PAT.secret)).status).toBe(200);
    } finally {
      await stop(r);
    }
  });

  it.each([
    ['no --fixtures', [], /needs --fixtures/],
    ['only one admin flag', ['--fixtures', FIXTURES, '--admin-client-id', 'x'], /go together/],
    ['a bad port', ['--fixtures', FIXTURES, '--port', '70000'], /port number/],
    ['a bad lifetime', ['--fixtures', FIXTURES, '--expires-in', '0'], /^--expires-in must be an integer from 1 to 2147483648, not "0"$/],
    // Past the server's bound, said in the option's words, not as API_OPTIONS accessTokenTtlSeconds.
    ['a lifetime past the server\'s bound', ['--fixtures', FIXTURES, '--expires-in', '999999999999999'], /^--expires-in must be an integer from 1 to 2147483648, not "999999999999999"$/],
    ['a short legacy key', ['--fixtures', FIXTURES, '--nonemployee-api-key', 'short'], /24 characters/],
    ['an unknown log level', ['--fixtures', FIXTURES, '--log-level', 'loud'], /--log-level must be one of silent, error, warn, info, debug/],
    ['an unknown log format', ['--fixtures', FIXTURES, '--log-format', 'xml'], /--log-format must be one of text, json/],
  ])('refuses %s as a usage error', async (_name, argv, message) => {
    await expect(serveCommand(argv, { out: () => {}, err: () => {} })).rejects.toMatchObject({ code: 'CLI_USAGE', message: expect.stringMatching(message) });
  });

  it('refuses --db naming no store (without --fixtures) or another program\'s file, and leaves the file alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'it-serve-'));
    dirs.push(dir);
    const missing = await run(['--db', join(dir, 'none.db')]);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toBe(`CLI_STORE there is no store at ${join(dir, 'none.db')}; add --fixtures <dir> to create it\n`);
    expect(existsSync(join(dir, 'none.db'))).toBe(false);

    const other = join(dir, 'notes.db');
    writeFileSync(other, 'not a database');
    const foreign = await run(['--db', other]);
    expect(foreign).toMatchObject({ code: 2, stdout: '' });
    expect(foreign.stderr).toMatch(/^CLI_STORE .*notes\.db is not a store of identity-transforms serve/);
    const seeding = await run(['--fixtures', FIXTURES, '--db', other]);
    expect(seeding).toMatchObject({ code: 2, stdout: '' });
    expect(seeding.stderr).toMatch(/^CLI_STORE .*notes\.db is not a store of identity-transforms serve and is left as it is; name a new file\n$/);
    expect(readFileSync(other, 'utf8')).toBe('not a database');
  });

  it('reports a port in use as a coded error before it creates the store or an admin secret', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'it-serve-'));
    dirs.push(dir);
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const r = await run(['--fixtures', FIXTURES, '--db', join(dir, 't.db'), '--login-port', String(port)]);
      expect(r).toMatchObject({ code: 2, stdout: '' });
      expect(r.stderr).toBe(`CLI_LISTEN port ${port} on 127.0.0.1 is already in use (--login-port); stop what listens there, or pick another port (0 picks a free one)\n`);
      expect(existsSync(join(dir, 't.db'))).toBe(false);
    } finally {
      blocker.close();
    }
    const same = await run(['--fixtures', FIXTURES, '--port', '18080', '--login-port', '18080']);
    expect(same.code).toBe(2);
    expect(same.stderr).toMatch(/^CLI_USAGE --port and --login-port name the same port 18080/);
  });

  it('logs one readable, redacted line per request; JSON lines and levels on request', async () => {
    const secretQuery = `grant_type=client_credentials&client_id=${ALICE_PAT.id}&client_secret=${ALICE_PAT.secret}`;
    const text = await start(['--fixtures', FIXTURES]);
    try {
      expect((await text.fetch(`${text.urls.baseUrl}/oauth/token?${secretQuery}`, { method: 'POST' })).status).toBe(200);
      expect((await text.fetch(`${text.urls.baseUrl}/v3/sources`)).status).toBe(401);
      await new Promise((r) => setTimeout(r, 200));
      const lines = text.stderr().split('\n');
      expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3} INFO  API listening at http:\/\/127\.0\.0\.1:\d+$/));
      expect(lines).toContainEqual(
        expect.stringMatching(new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  POST /oauth/token\\?grant_type=client_credentials&client_id=${ALICE_PAT.id}&client_secret=\\[REDACTED\\] 200 [\\d.]+ ms$`)),
      );
      expect(lines).toContainEqual(expect.stringMatching(/^[\d:.]+ WARN  GET \/v3\/sources 401 [\d.]+ ms API_UNAUTHORIZED: .* \(trackingId [0-9a-f]{32}\)$/));
      expect(text.stderr()).not.toContain(ALICE_PAT.secret);
      expect(text.stderr()).not.toContain('{"level"');
    } finally {
      await stop(text);
    }

    const json = await start(['--fixtures', FIXTURES, '--log-format', 'json', '--log-level', 'warn']);
    try {
      await json.fetch(`${json.urls.baseUrl}/oauth/token?${secretQuery}`, { method: 'POST' });
      await json.fetch(`${json.urls.baseUrl}/v3/sources`);
      await new Promise((r) => setTimeout(r, 200));
      const records = json
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      // warn: the successful token request and the listening lines are below the level.
      expect(records).toEqual([expect.objectContaining({ level: 40, method: 'GET', url: '/v3/sources', statusCode: 401, code: 'API_UNAUTHORIZED' })]);
      expect(json.stderr()).not.toContain(ALICE_PAT.secret);
    } finally {
      await stop(json);
    }
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
