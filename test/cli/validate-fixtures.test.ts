// `validate --fixtures <dir>`: the names of accountAttribute checked against the tenant model
// the language server uses.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures');
const dir = mkdtempSync(join(tmpdir(), 'idt-validate-fixtures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, attributes: Record<string, string>) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ name, type: 'accountAttribute', attributes }));
  return path;
};

describe('identity-transforms validate --fixtures', () => {
  it('fails on a source no source has, naming the closest', async () => {
    const r = await runCli('validate', file('a.json', { sourceName: 'Workdya', attributeName: 'FIRST_NAME' }), '--fixtures', FIXTURES);
    expect(r.code).toBe(1);
    expect(r.out).toContain('error VALIDATE_UNKNOWN_SOURCE no source of the tenant has the sourceName "Workdya"; did you mean "Workday"? (/attributes/sourceName)');
  });

  it('warns of an attribute no account of the source carries, and fails only with --strict', async () => {
    const f = file('b.json', { applicationName: 'Workday [source]', attributeName: 'FIRST_NAM' });
    const r = await runCli('validate', f, '--fixtures', FIXTURES);
    expect(r.code).toBe(0);
    expect(r.out).toContain('warning VALIDATE_UNKNOWN_ACCOUNT_ATTRIBUTE no account of the source "Workday" carries the attribute "FIRST_NAM"; did you mean "FIRST_NAME"? (/attributes/attributeName)');
    expect((await runCli('validate', f, '--fixtures', FIXTURES, '--strict')).code).toBe(1);
  });

  it('finds nothing to say of the bundled transforms against the bundled tenant', async () => {
    const r = await runCli('validate', join(FIXTURES, 'transforms'), '--fixtures', FIXTURES, '--format', 'json');
    const codes = (JSON.parse(r.out) as { files: { issues: { code: string }[] }[] }).files.flatMap((f) => f.issues.map((i) => i.code));
    expect(codes.filter((c) => c.startsWith('VALIDATE_UNKNOWN_'))).toEqual([]);
  });

  it('is a usage error for a directory that does not exist', async () => {
    const r = await runCli('validate', file('c.json', { sourceName: 'Workday', attributeName: 'A' }), '--fixtures', join(dir, 'missing'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^CLI_USAGE --fixtures: no such directory/);
  });
});
