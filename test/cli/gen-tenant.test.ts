// `identity-transforms gen-tenant`: its usage errors are coded and in its own words, also for a
// value node:util's parser would call "ambiguous" (a number with a minus sign); --out over an
// existing directory replaces a tenant it wrote whole and refuses anything else.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli as run } from './run.js';

describe('gen-tenant usage errors', () => {
  it.each([
    [['--identities', '-5', '--out', 'x'], 'CLI_USAGE --identities must be a positive integer, got "-5"\n'],
    [['--identities=-5', '--out', 'x'], 'CLI_USAGE --identities must be a positive integer, got "-5"\n'],
    [['--identities', '0', '--out', 'x'], 'CLI_USAGE --identities must be between 1 and 10000000, got 0\n'],
    [['--identites', '5', '--out', 'x'], 'CLI_USAGE unknown option --identites; did you mean --identities? (see identity-transforms gen-tenant --help)\n'],
  ])('%j', async (argv, err) => {
    const r = await run('gen-tenant', ...argv);
    expect(r.code).toBe(2);
    expect(r.err).toBe(err);
  });
});

describe('gen-tenant --out over an existing directory', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'idt-gen-tenant-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('refuses a directory holding files it does not write, and leaves them as they were', async () => {
    const out = join(scratch, 'tenant');
    expect((await run('gen-tenant', '--identities', '3', '--out', out, '--quiet')).code).toBe(0);
    writeFileSync(join(out, 'users.json'), '[]');
    const before = readFileSync(join(out, 'identities.json'), 'utf8');
    const r = await run('gen-tenant', '--identities', '5', '--seed', '2', '--out', out);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`CLI_USAGE --out ${out} holds files gen-tenant does not write ("users.json"): name a new or empty directory, or a tenant gen-tenant wrote (it is replaced whole)\n`);
    expect(readFileSync(join(out, 'identities.json'), 'utf8')).toBe(before);
    expect(readFileSync(join(out, 'users.json'), 'utf8')).toBe('[]');
  });

  it('replaces a tenant it wrote whole: nothing of the old one is left, nothing beside it either', async () => {
    const out = join(scratch, 'replaced');
    expect((await run('gen-tenant', '--identities', '3', '--out', out, '--quiet')).code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['accounts.json', 'identities.json', 'identity-profiles', 'sources.json', 'transforms']);
    expect((await run('gen-tenant', '--identities', '4', '--out', out, '--no-copy', '--quiet')).code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['accounts.json', 'identities.json', 'sources.json']);
    expect((JSON.parse(readFileSync(join(out, 'identities.json'), 'utf8')) as unknown[]).length).toBe(4);
    expect(readdirSync(scratch).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('writes into an empty directory', async () => {
    const out = join(scratch, 'empty');
    mkdirSync(out);
    expect((await run('gen-tenant', '--identities', '2', '--out', out, '--no-copy', '--quiet')).code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['accounts.json', 'identities.json', 'sources.json']);
  });
});
