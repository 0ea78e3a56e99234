// The README's pull-request workflow, run step by step as GitHub's runner would run it, in a
// repository with two commits (the base branch, and a change to one transform on top of it).
// The repository's node_modules is the packed package installed as a consumer installs it
// (test/e2e/install.ts): `npm ci` stands for that installation, `npx identity-transforms` finds
// the command in node_modules/.bin, and `gh` is a stand-in that records what it was asked to post.

import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installed, runCommand, type Installed } from './install.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(ROOT, 'fixtures');

/** The `run:` commands of the README's workflow, in order. */
function workflowSteps(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- impact-workflow -->\n```yaml\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('README.md has no impact-workflow block');
  return [...block[1]!.matchAll(/^\s+(?:- )?run: (.*)$/gm)].map((m) => m[1]!);
}

let repo: string;
let bin: string;
let pkg: Installed;
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=CI', '-c', 'user.email=ci@example.com', ...args], { cwd: repo, encoding: 'utf8' });

beforeAll(async () => {
  pkg = await installed();
  repo = mkdtempSync(join(tmpdir(), 'idt-workflow-'));
  cpSync(join(FIXTURES, 'transforms'), join(repo, 'transforms'), { recursive: true });
  cpSync(join(FIXTURES, 'identity-profiles'), join(repo, 'identity-profiles'), { recursive: true });
  cpSync(FIXTURES, join(repo, 'fixtures'), { recursive: true });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'tenant as saved');
  git('update-ref', 'refs/remotes/origin/main', 'HEAD');
  git('checkout', '-q', '-b', 'change-region');
  const file = join(repo, 'transforms', 'location-region.json');
  const transform = JSON.parse(readFileSync(file, 'utf8')) as { attributes: { table: Record<string, string> } };
  transform.attributes.table.LON = 'UK';
  writeFileSync(file, JSON.stringify(transform, null, 2) + '\n');
  git('commit', '-q', '-am', 'London is its own region');
  // The installed package (ignored by git, as node_modules is), and a gh that records its
  // arguments and the body it was given.
  writeFileSync(join(repo, 'package.json'), '{ "name": "tenant-config", "private": true }\n');
  writeFileSync(join(repo, '.gitignore'), 'node_modules\n');
  symlinkSync(join(pkg.consumer, 'node_modules'), join(repo, 'node_modules'));
  bin = mkdtempSync(join(tmpdir(), 'idt-gh-'));
  writeFileSync(join(bin, 'gh'), '#!/bin/sh\necho "$@" > "$GH_LOG"\nwhile [ $# -gt 0 ]; do if [ "$1" = --body-file ]; then cp "$2" "$GH_LOG.body"; fi; shift; done\n');
  chmodSync(join(bin, 'gh'), 0o755);
}, 30 * 60_000);

afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(bin, { recursive: true, force: true });
});

describe('the README pull-request workflow', () => {
  it('validates, annotates the changed transform, writes the step summary and posts the comment', async () => {
    const steps = workflowSteps();
    expect(steps[0]).toBe('npm ci');
    const summary = join(repo, '..', `${repo.split('/').pop()}-summary.md`);
    const log = join(bin, 'gh.log');
    const env = { ...pkg.env, PATH: `${bin}:${process.env.PATH}`, GITHUB_BASE_REF: 'main', GITHUB_STEP_SUMMARY: summary, GH_TOKEN: 'token', PR: '7', GH_LOG: log, CI: 'true' };
    const outputs: string[] = [];
    for (const step of steps.slice(1)) {
      const run = await runCommand('bash', ['-e', '-c', step], repo, env);
      expect({ step, status: run.code, stderr: run.stderr }).toMatchObject({ step, status: 0 });
      outputs.push(run.stdout);
    }
    const [validate, annotations] = outputs;
    expect(validate).not.toContain('::error');
    expect(annotations).toMatch(/^::notice file=transforms\/location-region\.json,title=impact of changed transform Location Region::changes `region` for \d+ of 209 identities$/m);
    const markdown = readFileSync(join(repo, 'impact.md'), 'utf8');
    expect(markdown).toContain('| Location Region | changed | transforms/location-region.json |');
    expect(markdown).toMatch(/\| region \| 209 \| \d+ \| 0 \| 0 \| 0 \| 0 \| changed transform "Location Region" \|/);
    expect(readFileSync(summary, 'utf8')).toBe(markdown);
    expect(readFileSync(log, 'utf8').trim()).toBe('pr comment 7 --body-file impact.md');
    expect(readFileSync(`${log}.body`, 'utf8')).toBe(markdown);
    rmSync(summary, { force: true });
  });

  it('fails the job when the change brings new errors (--fail-on errors, the default)', async () => {
    // department maps straight to "Clean Department": a regex the platform rejects fails it for everyone.
    const file = join(repo, 'transforms', 'clean-department.json');
    writeFileSync(file, JSON.stringify({ name: 'Clean Department', type: 'replace', attributes: { regex: '(unclosed', replacement: '' } }));
    const run = await runCommand('npx', ['identity-transforms', 'impact', '--base', 'git:origin/main', '--fixtures', 'fixtures', '--format', 'markdown'], repo, pkg.env);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/\| department \| 209 \| 0 \| 0 \| 0 \| \d+ \| 0 \|/);
    expect(run.stdout).toContain('**209** new errors');
    git('checkout', '--', 'transforms/clean-department.json');
  });
});
