// A project that only validates, evaluates or runs impact: `npm install identity-transforms` and
// nothing else (the light project of test/e2e/install.ts, from the packed tarball). The server's
// packages are optional peer dependencies, so none is installed; those commands work without
// them, and `serve` says exactly what to install.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installed, ROOT, runCommand, type Installed } from './install.js';

const run = runCommand;

/** The packages a validate-only project must not have (the server's, and the assistant adapter's). */
const HEAVY = /^(fastify|@fastify\/.+|better-sqlite3|@types\/better-sqlite3|pino|jose|@modelcontextprotocol\/sdk)$/;

/** Every installed package's name, nested node_modules included. */
function installedPackages(nodeModules: string): string[] {
  const names: string[] = [];
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      if (entry.name.startsWith('@')) {
        for (const scoped of readdirSync(join(dir, entry.name))) {
          names.push(`${entry.name}/${scoped}`);
          visit(join(dir, entry.name, scoped, 'node_modules'));
        }
      } else {
        names.push(entry.name);
        visit(join(dir, entry.name, 'node_modules'));
      }
    }
  };
  visit(nodeModules);
  return names;
}

const PEERS = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> }).peerDependencies;

let pkg: Installed;
let bin: string;
let work: string;
const cli = (args: string[]) => run(bin, args, pkg.light, pkg.env);

beforeAll(async () => {
  pkg = await installed();
  bin = join(pkg.light, 'node_modules/.bin/identity-transforms');
  work = mkdtempSync(join(tmpdir(), 'idt-light-'));
});
afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('a project that installed identity-transforms alone', () => {
  it('has none of the server packages nor the MCP SDK in node_modules, however deep', () => {
    const names = installedPackages(join(pkg.light, 'node_modules'));
    expect(names).toContain('identity-transforms');
    expect(names).toContain('re2');
    expect(names.filter((n) => HEAVY.test(n))).toEqual([]);
  });

  it('validates', async () => {
    const result = await cli(['validate', 'node_modules/identity-transforms/fixtures/transforms/', '--format', 'github']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^::warning file=node_modules\/identity-transforms\/fixtures\/transforms\/location-region\.json,line=5,col=5,title=VALIDATE_LOOKUP_NO_DEFAULT::/m);
  });

  it('evaluates a transform for an identity of the bundled tenant', async () => {
    const transform = join(work, 'upper-department.json');
    writeFileSync(transform, JSON.stringify({ name: 'Upper Department', type: 'upper', attributes: { input: { type: 'identityAttribute', attributes: { name: 'department' } } } }));
    const result = await cli(['evaluate', transform, '--fixtures', 'node_modules/identity-transforms/fixtures', '--identity', 'fatima.schroder']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toBe('EXECUTIVE');
  });

  it('runs impact', async () => {
    const base = join(work, 'base');
    const head = join(work, 'head');
    for (const dir of [base, head]) await run('cp', ['-r', 'node_modules/identity-transforms/fixtures/transforms', dir], pkg.light, pkg.env);
    const file = join(head, 'location-region.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('EMEA', 'Europe'));
    const result = await cli(['impact', '--base', base, '--head', head, '--fixtures', 'node_modules/identity-transforms/fixtures', '--fail-on', 'changes', '--workers', '0']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain('Location Region');
  });

  it('serve says, coded, which packages to install and the npm command that installs them', async () => {
    const result = await cli(['serve', '--fixtures', 'node_modules/identity-transforms/fixtures']);
    expect(result.code).toBe(2);
    const names = ['fastify', '@fastify/formbody', '@fastify/multipart', '@fastify/rate-limit', 'better-sqlite3', 'jose', 'pino'];
    expect(result.stderr).toBe(
      `CLI_MISSING_PEER serve needs ${names.join(', ')}, optional peer dependencies of identity-transforms that are not installed: run npm install ${names.map((n) => `'${n}@${PEERS[n]}'`).join(' ')}\n`,
    );
    expect(result.stdout).toBe('');
  });
});
