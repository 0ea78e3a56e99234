// `identity-transforms gen-tenant`: its usage errors are coded and in its own words, also for a
// value node:util's parser would call "ambiguous" (a number with a minus sign); --out over an
// existing directory replaces a tenant it wrote whole, and in a directory holding other files
// (the API server's users.json, a README) replaces only its own parts and keeps the rest.

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

  it('keeps the files of a directory it does not write, names them, and replaces its own parts whole', async () => {
    const out = join(scratch, 'tenant');
    expect((await run('gen-tenant', '--identities', '3', '--out', out, '--quiet')).code).toBe(0);
    writeFileSync(join(out, 'users.json'), '[]');
    writeFileSync(join(out, 'README.md'), '# mine\n');
    const r = await run('gen-tenant', '--identities', '5', '--seed', '2', '--out', out, '--no-copy');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`gen-tenant: kept what ${out} held besides the tenant: "README.md", "users.json"\n`);
    // transforms/ and identity-profiles/ of the old tenant are gone with --no-copy: no part of it is left.
    expect(readdirSync(out).sort()).toEqual(['README.md', 'accounts.json', 'identities.json', 'sources.json', 'users.json']);
    expect((JSON.parse(readFileSync(join(out, 'identities.json'), 'utf8')) as unknown[]).length).toBe(5);
    expect(readFileSync(join(out, 'users.json'), 'utf8')).toBe('[]');
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toBe('# mine\n');
    expect(readdirSync(scratch).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('refuses an --out that is a file, before writing anything', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'x');
    const r = await run('gen-tenant', '--identities', '2', '--out', file);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`CLI_USAGE --out ${file} exists and is not a directory\n`);
    expect(readFileSync(file, 'utf8')).toBe('x');
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
