// The versions impact compares (src/impact/version.ts): a directory read within the platform's
// 400 KB limit and without leaving itself through a link, and git:<ref>[:<path>] read with one
// `git cat-file --batch`, sizes checked before a blob is read, a path that names nothing refused.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransformsError } from '../../src/errors/index.js';
import { readDirectoryVersion, readGitVersion } from '../../src/impact/version.js';

let repo: string;
let outside: string;
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=CI', '-c', 'user.email=ci@example.com', ...args], { cwd: repo, encoding: 'utf8' });
const transform = (name: string, extra = '') => JSON.stringify({ name, type: 'static', attributes: { value: `v${extra}` } }, null, 2) + '\n';

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'idt-version-'));
  outside = mkdtempSync(join(tmpdir(), 'idt-outside-'));
  mkdirSync(join(repo, 'tenant', 'transforms'), { recursive: true });
  writeFileSync(join(repo, 'tenant', 'transforms', 'a.json'), transform('A'));
  writeFileSync(join(repo, 'tenant', 'transforms', 'b c.json'), '\uFEFF' + transform('B C'));
  mkdirSync(join(repo, 'big', 'transforms'), { recursive: true });
  writeFileSync(join(repo, 'big', 'transforms', 'huge.json'), transform('Huge', 'x'.repeat(500 * 1024)));
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'tenant');
});
afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

function failure(read: () => unknown): TransformsError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(TransformsError);
    return error as TransformsError;
  }
  throw new Error('expected a coded error');
}

describe('git:<ref>:<path>', () => {
  it('reads every file of the layout at the revision, names with spaces and byte-order marks included', () => {
    const version = readGitVersion('git:HEAD:tenant', { cwd: repo });
    expect([...version.transforms.keys()]).toEqual(['A', 'B C']);
    expect(version.transforms.get('B C')!.file).toBe('HEAD:tenant/transforms/b c.json');
  });

  it('refuses a path that names nothing at the revision, instead of an empty version', () => {
    const error = failure(() => readGitVersion('git:HEAD:tenent', { cwd: repo }));
    expect(error.code).toBe('IMPACT_VERSION');
    expect(error.message).toBe('git:HEAD:tenent: HEAD has no file or directory tenent');
  });

  it('refuses a blob over 400 KB from its size, before reading it', () => {
    const error = failure(() => readGitVersion('git:HEAD:big', { cwd: repo }));
    expect(error.code).toBe('IMPACT_VERSION');
    expect(error.message).toMatch(/^HEAD:big\/transforms\/huge\.json is \d+ bytes, over the limit of 409600/);
  });
});

describe('a directory', () => {
  it('refuses a file over 400 KB before reading it', () => {
    const error = failure(() => readDirectoryVersion(join(repo, 'big')));
    expect(error.code).toBe('IMPACT_VERSION');
    expect(error.message).toMatch(/huge\.json is \d+ bytes, over the limit of 409600/);
  });

  it('refuses a link to a file outside the version, and follows one inside it', () => {
    const dir = mkdtempSync(join(repo, 'links-'));
    mkdirSync(join(dir, 'transforms'));
    writeFileSync(join(dir, 'a.json.txt'), transform('Inside'));
    symlinkSync(join(dir, 'a.json.txt'), join(dir, 'transforms', 'inside.json'));
    expect([...readDirectoryVersion(dir).transforms.keys()]).toEqual(['Inside']);
    writeFileSync(join(outside, 'secret.json'), transform('Outside'));
    symlinkSync(join(outside, 'secret.json'), join(dir, 'transforms', 'outside.json'));
    const error = failure(() => readDirectoryVersion(dir));
    expect(error.code).toBe('IMPACT_VERSION');
    expect(error.message).toContain(`is a link to ${join(outside, 'secret.json')}, outside the version's directory`);
  });

  it('leaves out a link to a device, as it leaves out everything that is not a file', () => {
    const dir = mkdtempSync(join(repo, 'device-'));
    mkdirSync(join(dir, 'transforms'));
    writeFileSync(join(dir, 'transforms', 'a.json'), transform('A'));
    symlinkSync('/dev/zero', join(dir, 'transforms', 'zero.json'));
    expect([...readDirectoryVersion(dir).transforms.keys()]).toEqual(['A']);
  });
});
