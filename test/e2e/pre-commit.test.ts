// .pre-commit-hooks.yaml run as pre-commit runs a hook (https://pre-commit.com/#creating-new-hooks):
// the staged files that match the hook's `files` and `types` (json: the .json extension, as
// pre-commit's `identify` tags files) are appended to its `entry` and `args`, unless
// pass_filenames is false, and the command runs at the repository's root with the installed
// package's bin on PATH (pre-commit's Node environment). The package is the packed tarball's
// light install (test/e2e/install.ts); the repository holds the bundled tenant, with a change
// staged on top of its last commit.

import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { installed, ROOT, runCommand, type Installed } from './install.js';
import { changeLondonRegion, createTenantRepository, gitIn } from './tenant-repository.js';

interface Hook {
  id: string;
  entry: string;
  args?: string[];
  language: string;
  types?: string[];
  files?: string;
  pass_filenames?: boolean;
  require_serial?: boolean;
}

const HOOKS = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; repository: { url: string } };

/** README's .pre-commit-config.yaml (the yaml block after `<!-- pre-commit-config -->`). */
function readmeConfig(): { repos: { repo: string; rev: string; hooks: (Partial<Hook> & { id: string })[] }[] } {
  const block = /<!-- pre-commit-config -->\n```yaml\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  if (!block) throw new Error('README.md has no pre-commit-config block');
  return parse(block[1]!) as ReturnType<typeof readmeConfig>;
}

/** A hook as README's configuration uses it: the manifest's, with the configuration's keys over it. */
function hook(id: string): Hook {
  const configured = readmeConfig().repos[0]!.hooks.find((h) => h.id === id)!;
  return { ...HOOKS.find((h) => h.id === id)!, ...configured };
}

let pkg: Installed;
let repo: string;
const git = (...args: string[]) => gitIn(repo)(...args);

/** The files pre-commit would pass to `h`: staged, matching `files` and `types`. */
function filesFor(h: Hook): string[] {
  const staged = git('diff', '--staged', '--name-only', '--diff-filter=ACMRTUXB').split('\n').filter(Boolean);
  const pattern = new RegExp(h.files ?? '');
  return staged.filter((f) => pattern.test(f) && (h.types ?? []).every((t) => t === 'json' && f.endsWith('.json')));
}

/** A hook run as pre-commit runs it, awaited (a synchronous spawn would block the test worker). */
async function runHook(h: Hook): Promise<{ status: number | null; stdout: string; stderr: string; argv: string[] }> {
  // pre-commit splits the entry as a POSIX shell would; these entries are plain words.
  expect(h.entry).toMatch(/^[\w:./ -]+$/);
  const argv = [...h.entry.split(' '), ...(h.args ?? []), ...(h.pass_filenames === false ? [] : filesFor(h))];
  const env = { ...pkg.env, PATH: `${join(pkg.light, 'node_modules/.bin')}:${process.env.PATH ?? ''}` };
  const run = await runCommand(argv[0]!, argv.slice(1), repo, env);
  return { status: run.code, stdout: run.stdout, stderr: run.stderr, argv };
}

beforeAll(async () => {
  pkg = await installed();
  repo = mkdtempSync(join(tmpdir(), 'idt-pre-commit-'));
  createTenantRepository(repo, { 'package.json': '{ "name": "tenant-config", "private": true }\n' });
  symlinkSync(join(pkg.light, 'node_modules'), join(repo, 'node_modules'));
  // The change being committed: London gets its own region; a README and package.json change too.
  changeLondonRegion(repo);
  writeFileSync(join(repo, 'package.json'), '{ "name": "tenant-config", "private": true, "version": "1.0.1" }\n');
  writeFileSync(join(repo, 'fixtures/README.md'), 'The tenant.\n');
  git('add', 'transforms', 'package.json', 'fixtures/README.md');
}, 30 * 60_000);

afterAll(() => {
  if (repo !== undefined) rmSync(repo, { recursive: true, force: true });
});

describe('.pre-commit-hooks.yaml', () => {
  it("is the repository and release README's configuration names", () => {
    const [entry] = readmeConfig().repos;
    expect(entry!.repo).toBe(PKG.repository.url.replace(/^git\+/, '').replace(/\.git$/, ''));
    expect(entry!.rev).toBe(`v${PKG.version}`);
    expect(entry!.hooks.map((h) => h.id)).toEqual(HOOKS.map((h) => h.id));
  });

  it('declares the two hooks as Node hooks on JSON files', () => {
    expect(HOOKS.map((h) => [h.id, h.language, h.types])).toEqual([
      ['identity-transforms-validate', 'node', ['json']],
      ['identity-transforms-impact', 'node', ['json']],
    ]);
  });

  it('validate: passes the staged transform (not package.json or the README) and lets the commit through', async () => {
    const run = await runHook(hook('identity-transforms-validate'));
    expect(run.argv).toEqual(['identity-transforms', 'validate', '--external-references', 'transforms/location-region.json']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('transforms/location-region.json:5:5 warning VALIDATE_LOOKUP_NO_DEFAULT');
    expect(run.stdout).toContain('1 file checked: 1 valid, 0 invalid (0 errors, 1 warning)');
  });

  it('validate: stops the commit of an invalid transform, naming file, line and code; a reference to an unchanged transform is allowed', async () => {
    writeFileSync(join(repo, 'transforms/username.json'), JSON.stringify({ name: 'Username', type: 'lower', attributes: { flags: 'x', input: 'a' } }, null, 2));
    writeFileSync(join(repo, 'transforms/region-upper.json'), JSON.stringify({ name: 'Region Upper', type: 'upper', attributes: { input: { type: 'reference', attributes: { id: 'Location Region' } } } }, null, 2));
    git('add', 'transforms/username.json', 'transforms/region-upper.json');
    try {
      const run = await runHook(hook('identity-transforms-validate'));
      expect(run.argv.slice(3)).toEqual(['transforms/location-region.json', 'transforms/region-upper.json', 'transforms/username.json']);
      expect(run.status).toBe(1);
      expect(run.stdout).toContain('transforms/username.json:5:5 error SCHEMA_UNKNOWN_PROPERTY');
      expect(run.stdout).not.toContain('VALIDATE_UNKNOWN_REFERENCE');
    } finally {
      git('rm', '-q', '--cached', 'transforms/username.json', 'transforms/region-upper.json');
      rmSync(join(repo, 'transforms/username.json'));
      rmSync(join(repo, 'transforms/region-upper.json'));
    }
  });

  it('impact: reports what the staged change does against the last commit, and lets a change without new errors through', async () => {
    const run = await runHook(hook('identity-transforms-impact'));
    expect(run.argv).toEqual(['identity-transforms', 'impact', '--base', 'git:HEAD', '--no-progress', '--fixtures', 'fixtures']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/region/);
    expect(run.stdout).toMatch(/Location Region/);
  });

  it('impact: stops a change that brings new errors', async () => {
    const file = join(repo, 'transforms/clean-department.json');
    const saved = readFileSync(file, 'utf8');
    writeFileSync(file, JSON.stringify({ name: 'Clean Department', type: 'replace', attributes: { regex: '(unclosed', replacement: '' } }));
    try {
      const run = await runHook(hook('identity-transforms-impact'));
      expect(run.status).toBe(1);
      expect(run.stdout).toMatch(/new errors/);
    } finally {
      writeFileSync(file, saved);
    }
  });
});
