// `identity-transforms verify` as a user runs it (in-process): the formats, the lines of
// --format ndjson being the planted differences, the exit codes of --fail-on, and usage errors
// exit 2 with their code.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlantedDifference } from '../../src/testing/generator/index.js';
import type { VerifyReport } from '../../src/verify/index.js';
import { VERIFIED_AT, writePlantedTenant } from '../verify/planted-tenant.js';
import { runCli } from './run.js';

const tmp = mkdtempSync(join(tmpdir(), 'idt-verify-cli-'));
const dir = join(tmp, 'tenant');
let planted: PlantedDifference[];
const verify = (...args: string[]) => runCli('verify', '--fixtures', dir, '--workers', '0', '--now', VERIFIED_AT, ...args);

beforeAll(async () => {
  planted = await writePlantedTenant(dir, 120, 'cli');
}, 300_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('identity-transforms verify', () => {
  it('writes one NDJSON line per differing identity × attribute, the planted ones as differ and stale', async () => {
    const { code, out } = await verify('--format', 'ndjson', '--attributes', [...new Set(planted.map((p) => p.attribute))].join(','));
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual(planted.map(({ identityId, identityName, attribute, platform, ours, kind }) => ({ identityId, identityName, attribute, platform, ours, kind })));
  }, 60_000);

  it('prints the report as text, markdown and json', async () => {
    const text = await verify();
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^verify Employees over .* at 2026-03-01T00:00:00.000Z\n {2}identities: 120 evaluated, 120 compared, 0 with nothing stored, 1 stale, 0 of another profile\n/);
    expect(text.out).toContain('fiveDaysAgo [not comparable: time]: 0 agree, 0 differ; not comparable: time 120');
    const markdown = await verify('--format', 'markdown', '--explain');
    expect(markdown.out).toMatch(/^### verify Employees over /);
    expect(markdown.out).toContain('| Attribute | Agree | Differ | Not comparable |');
    expect(markdown.out).toContain('<details><summary>');
    expect(markdown.out).toContain('How ours was computed for');
    const report = JSON.parse((await verify('--format', 'json')).out) as VerifyReport;
    expect(report.totals.differ).toBe(planted.filter((p) => p.kind === 'differ').length);
    expect(report.identities.stale).toBe(1);
  }, 120_000);

  it('exits 1 with --fail-on differences when a value differs, 0 when none does', async () => {
    expect((await verify('--fail-on', 'differences')).code).toBe(1);
    const clean = ['country', 'region', 'location', 'phone'].find((a) => !planted.some((p) => p.attribute === a))!;
    expect((await verify('--fail-on', 'differences', '--attributes', clean)).code).toBe(0);
  }, 120_000);

  it.each([
    [['--format', 'xml'], 'CLI_USAGE --format must be text, markdown, json or ndjson'],
    [['--fail-on', 'errors'], 'CLI_USAGE --fail-on must be differences or none'],
    [['--attributes', 'emial'], 'VERIFY_ATTRIBUTE_UNKNOWN the profile "Employees" computes no attribute "emial" — did you mean "email"?'],
    [['--examples', '-1'], 'CLI_USAGE'],
    [['extra'], 'CLI_USAGE verify takes no positional arguments'],
    [['--preview', '3'], 'CLI_USAGE --preview asks the tenant\'s identity preview: it needs --tenant <url>'],
  ])('exits 2 for %j', async (args, message) => {
    const { code, err } = await verify(...args);
    expect(code).toBe(2);
    expect(err).toContain(message);
  });

  it('refuses --cases naming a directory before the run, not after it at the write', async () => {
    const { code, out, err } = await verify('--cases', tmp);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe(`CLI_USAGE --cases ${tmp} is a directory: --cases names the JSON file to write, e.g. --cases ${join(tmp, 'cases.json')}\n`);
  });

  it('exits 2 without a tenant, with both, and for --explain with --tenant', async () => {
    expect((await runCli('verify')).err).toContain('verify needs the tenant: --fixtures <dir> or --tenant <url>');
    expect((await runCli('verify', '--fixtures', dir, '--tenant', 'http://127.0.0.1:1')).code).toBe(2);
    const explain = await runCli('verify', '--tenant', 'http://127.0.0.1:1', '--explain');
    expect(explain.code).toBe(2);
    expect(explain.err).toContain('--explain explains the examples against --fixtures');
  });

  it('names file:line:column and a bounded pointer for a --profile file nested 1,500 levels deep', async () => {
    const deep = join(tmp, 'deep1500.json');
    writeFileSync(deep, '{\n  "a": ' + '{"a":'.repeat(1_499) + '1' + '}'.repeat(1_500) + '\n');
    const { code, out, err } = await verify('--profile', deep);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toMatch(new RegExp(`^JSON_TOO_DEEP ${deep.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:5003: the file nests deeper than 1000 levels at (/a){30}…(/a){30}\n$`));
  });

  it('prints an identity named with an escape sequence or a line break escaped in the text report', async () => {
    const hostile = join(tmp, 'hostile');
    cpSync(dir, hostile, { recursive: true });
    const named = planted.find((p) => p.kind === 'differ')!;
    const file = join(hostile, 'identities.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace(JSON.stringify(named.identityName), JSON.stringify('\u001b[2J\nverify forged')));
    const { code, out } = await runCli('verify', '--fixtures', hostile, '--workers', '0', '--now', VERIFIED_AT, '--attributes', named.attribute);
    expect(code).toBe(0);
    expect(out).not.toContain('\u001b');
    expect(out).toContain(`    \\u001b[2J\\nverify forged (${named.identityId}): platform `);
    expect(out.split('\n').filter((l) => l.startsWith('verify '))).toHaveLength(1);
  }, 60_000);

  it('exits 2 with VERIFY_NOTHING_STORED for a tenant without stored attributes', async () => {
    const bare = join(tmp, 'bare');
    cpSync(dir, bare, { recursive: true });
    writeFileSync(join(bare, 'identities.json'), '[\n{"id":"a1","name":"a","attributes":{}}\n]\n');
    const { code, out, err } = await runCli('verify', '--fixtures', bare, '--workers', '0', '--format', 'ndjson');
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/^VERIFY_NOTHING_STORED none of the 1 identities of .* has stored attributes/);
  }, 60_000);
});
