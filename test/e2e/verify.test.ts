// verify as a user runs it, with the installed command: gen-tenant --stored --plant writes a
// tenant as the platform leaves it and lists what it planted; verify --fixtures --format ndjson
// reports exactly those differences (differ, and the stale one); and verify --tenant against the
// installed `serve` over the same tenant gives the same report; --preview through serve's
// identity preview agrees on every value it previews (our engine on both sides: the plumbing), and
// --cases writes a case file the installed package's runCase reproduces.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installed, ROOT, type Installed } from './install.js';

const run = promisify(execFile);
const NOW = '2026-03-01T00:00:00Z';
/** The fixture PAT of personal-access-tokens.json. */
const PAT = { IDT_CLIENT_ID: 'e1d2c3b4-a596-4877-8a69-5b4c3d2e1f00', IDT_CLIENT_SECRET: 'fixture-only-admin-pat-secret' };

let pkg: Installed;
let work: string;
let tenant: string;
let planted: Record<string, unknown>[];
let serve: ChildProcess | null = null;
let serveUrl = '';

async function command(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(pkg.bin, args, { cwd: work, env: { ...pkg.env, ...env }, maxBuffer: 64 << 20 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** gen-tenant's "planted <kind> <attribute> of <name> (<id>): platform <json>, ours <json>" lines, as verify's NDJSON lines. */
function plantedLines(stdout: string): Record<string, unknown>[] {
  return [...stdout.matchAll(/^planted (differ|stale) (\S+) of (\S+) \((\w+)\): platform (.*), ours (.*)$/gm)].map((m) => ({
    identityId: m[4],
    identityName: m[3],
    attribute: m[2],
    platform: JSON.parse(m[5]!) as unknown,
    ours: JSON.parse(m[6]!) as unknown,
    kind: m[1],
  }));
}

beforeAll(async () => {
  pkg = await installed();
  work = mkdtempSync(join(tmpdir(), 'idt-verify-e2e-'));
  tenant = join(work, 'tenant');
  const generated = await command(['gen-tenant', '--identities', '400', '--seed', 'e2e', '--out', tenant, '--stored', '--plant']);
  expect(generated.code, generated.stderr).toBe(0);
  planted = plantedLines(generated.stdout);
  for (const f of ['users.json', 'personal-access-tokens.json']) copyFileSync(join(ROOT, 'fixtures', f), join(tenant, f));
}, 30 * 60_000);

afterAll(() => {
  serve?.kill('SIGTERM');
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('identity-transforms verify (installed)', () => {
  it('gen-tenant --stored --plant lists its planted differences, one of them stale', () => {
    expect(planted.filter((p) => p.kind === 'stale')).toHaveLength(1);
    expect(planted.filter((p) => p.kind === 'differ').length).toBeGreaterThanOrEqual(5);
  });

  it('verify --fixtures reports exactly the planted differences, and exits 1 with --fail-on differences', async () => {
    const { code, stdout, stderr } = await command(['verify', '--fixtures', tenant, '--now', NOW, '--format', 'ndjson', '--fail-on', 'differences']);
    expect(code, stderr).toBe(1);
    const lines = stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual(planted);
  }, 300_000);

  it('verify --tenant against serve over the same tenant gives the same report', async () => {
    const child = spawn(pkg.bin, ['serve', '--fixtures', tenant], { cwd: work, env: pkg.env, stdio: ['ignore', 'pipe', 'ignore'] });
    serve = child;
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const m = /^listening (\{.*\})$/m.exec(out);
        if (m) resolve((JSON.parse(m[1]!) as { baseUrl: string }).baseUrl);
      });
      child.on('exit', (code) => reject(new Error(`serve exited with ${code} before listening`)));
    });
    serveUrl = baseUrl;
    const overApi = await command(['verify', '--tenant', baseUrl, '--now', NOW, '--format', 'json'], PAT);
    const fromFiles = await command(['verify', '--fixtures', tenant, '--now', NOW, '--format', 'json']);
    expect(overApi.code, overApi.stderr).toBe(0);
    // The API lists identities in id order, the files in their own: a group's examples come in that order.
    const report = (text: string) => {
      const r = JSON.parse(text) as { attributes: { groups: { examples: { identityId: string }[] }[] }[] };
      for (const a of r.attributes) for (const g of a.groups) g.examples.sort((x, y) => x.identityId.localeCompare(y.identityId));
      return { ...r, tenant: '' };
    };
    expect(report(overApi.stdout)).toEqual(report(fromFiles.stdout));
    expect(report(overApi.stdout)).toMatchObject({ identities: { evaluated: 400, compared: 400, stale: 1 }, totals: { differ: planted.length - 1 } });
  }, 600_000);

  it('verify --tenant --preview asks serve\'s identity preview, and --cases writes cases that run on their own', async () => {
    expect(serveUrl).not.toBe('');
    const cases = join(work, 'cases.json');
    const { code, stdout, stderr } = await command(['verify', '--tenant', serveUrl, '--now', NOW, '--format', 'json', '--preview', '5', '--cases', cases], PAT);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as { preview: { asked: number; identities: number; totals: { compared: number; differ: number } } };
    expect(report.preview).toMatchObject({ asked: 5, identities: 5, totals: { differ: 0 } });
    expect(report.preview.totals.compared).toBeGreaterThan(0);
    expect(stderr).toContain('personal data');
    const file = JSON.parse(readFileSync(cases, 'utf8')) as { now: string; cases: { ours: string | null }[] };
    expect(file.cases).toHaveLength(planted.filter((p) => p.kind === 'differ').length);
    // The installed package's runCase computes each case's value again from the file alone (the
    // script sits in the consumer project, so that it imports the installed package).
    const script = join(pkg.consumer, `verify-cases-${process.pid}.mjs`);
    writeFileSync(script, `import { readFileSync } from 'node:fs';\nimport { runCase } from 'identity-transforms';\nconst f = JSON.parse(readFileSync(process.argv[2], 'utf8'));\nconst out = [];\nfor (const c of f.cases) out.push(await runCase(c, f.now));\nconsole.log(JSON.stringify(out));\n`);
    try {
      const { stdout: values } = await run(process.execPath, [script, cases], { cwd: pkg.consumer, env: pkg.env });
      expect(JSON.parse(values)).toEqual(file.cases.map((c) => c.ours));
    } finally {
      rmSync(script, { force: true });
    }
  }, 600_000);
});
