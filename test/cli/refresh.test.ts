// `identity-transforms refresh` (src/cli/refresh.ts): NDJSON on stdout or --out (atomically),
// the summary on stderr, --summary for a readable summary on stdout, usage errors exit 2.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli as run } from './run.js';
import { shardOf } from '../../src/refresh/shard.js';
import { cleanUp, FIXTURES, generatedTenant, identityIds, NOW, tempDir } from '../refresh/tenants.js';

afterAll(cleanUp);


function ndjson(text: string): { identityId: string; attributes: Record<string, unknown>; errors: unknown[] }[] {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { identityId: string; attributes: Record<string, unknown>; errors: unknown[] });
}

describe('identity-transforms refresh', () => {
  it('writes one NDJSON line per identity to stdout, in input order, and the summary to stderr', async () => {
    const r = await run('refresh', '--fixtures', FIXTURES, '--now', NOW);
    expect(r.code).toBe(0);
    const lines = ndjson(r.out);
    expect(lines.map((l) => l.identityId)).toEqual(identityIds(FIXTURES));
    expect(Object.keys(lines[0]!).sort()).toEqual(['attributes', 'errors', 'identityId']);
    expect(r.err).toContain('Identity refresh of');
    expect(r.err).toMatch(/identities +\d/);
    expect(r.err).toContain('cache hits');
  });

  it('with --summary prints a readable summary on stdout and no NDJSON (npm start)', async () => {
    const r = await run('refresh', '--fixtures', FIXTURES, '--summary');
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('"identityId"');
    const count = identityIds(FIXTURES).length;
    expect(r.out).toContain(`Identity refresh of ${FIXTURES} with profile "Employees"`);
    expect(r.out).toMatch(new RegExp(`identities +${count.toLocaleString('en-US')},`));
    expect(r.out).toMatch(/attributes +[\d,]+ computed, [\d,]+ errors/);
    expect(r.out).toMatch(/throughput +[\d,]+ identities\/s/);
    expect(r.out).toMatch(/cache hits +transforms (\d+(\.\d)?%|n\/a)/);
    expect(r.err).toBe('');
  });

  it('with --summary and --out writes the NDJSON to the file and the summary to stdout', async () => {
    const out = join(tempDir(), 'result.ndjson');
    const r = await run('refresh', '--fixtures', FIXTURES, '--summary', '--out', out, '--now', NOW);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Identity refresh of');
    expect(ndjson(readFileSync(out, 'utf8')).length).toBe(identityIds(FIXTURES).length);
  });

  it('writes the same bytes with --out as on stdout, and with workers as without', async () => {
    const fixtures = generatedTenant(300);
    const stdout = await run('refresh', '--fixtures', fixtures, '--now', NOW, '--workers', '0');
    const file = join(tempDir(), 'out.ndjson');
    const pooled = await run('refresh', '--fixtures', fixtures, '--now', NOW, '--workers', '2', '--batch-size', '32', '--out', file);
    expect(pooled.code).toBe(0);
    expect(pooled.out).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(stdout.out);
    expect(pooled.err).toContain('2 workers, batches of 32');
  });

  it('--shard i/n writes only the identities of that shard', async () => {
    const r = await run('refresh', '--fixtures', FIXTURES, '--shard', '1/3', '--now', NOW);
    expect(r.code).toBe(0);
    const ids = ndjson(r.out).map((l) => l.identityId);
    expect(ids).toEqual(identityIds(FIXTURES).filter((id) => shardOf(id, 3) === 1));
    expect(r.err).toContain('shard 1/3');
  });

  it('leaves no output file (and keeps an older one) when the run fails', async () => {
    const fixtures = generatedTenant(40);
    const ids = identityIds(fixtures);
    // Valid up to the last identity, so that lines have been written before the failure.
    writeFileSync(
      join(fixtures, 'identities.json'),
      `[\n${ids.map((id) => JSON.stringify({ id, name: id, attributes: {} })).join(',\n')},\n{"id":"x","name":"x"}{]\n`,
    );
    const dir = tempDir();
    const out = join(dir, 'out.ndjson');
    writeFileSync(out, 'previous run\n');
    const r = await run('refresh', '--fixtures', fixtures, '--out', out, '--workers', '0', '--batch-size', '8');
    expect(r.code).toBe(2);
    expect(r.err).toContain('CLI_FIXTURES');
    expect(readFileSync(out, 'utf8')).toBe('previous run\n');
    expect(readdirSync(dir)).toEqual(['out.ndjson']);
  });

  it('refuses an --out that is a directory before the run (exit 2), and writes nothing', async () => {
    const dir = tempDir();
    const r = await run('refresh', '--fixtures', FIXTURES, '--out', dir, '--workers', '0');
    expect(r.code).toBe(2);
    expect(r.err).toBe(`CLI_READ --out ${dir} is a directory: --out names the NDJSON file to write, e.g. --out ${join(dir, 'identities.ndjson')}\n`);
    expect(r.out).toBe('');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('does not create the output file when the tenant cannot be read', async () => {
    const dir = tempDir();
    const out = join(dir, 'out.ndjson');
    const r = await run('refresh', '--fixtures', join(dir, 'missing'), '--out', out);
    expect(r.code).toBe(2);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['no --fixtures', [], 'needs --fixtures'],
    ['an unknown flag', ['--fixtures', FIXTURES, '--colour'], 'CLI_USAGE'],
    ['a positional argument', ['--fixtures', FIXTURES, 'extra'], 'no positional arguments'],
    ['a malformed shard', ['--fixtures', FIXTURES, '--shard', '3'], '--shard must look like i/n'],
    ['a shard index out of range', ['--fixtures', FIXTURES, '--shard', '2/2'], 'shard index'],
    ['non-numeric workers', ['--fixtures', FIXTURES, '--workers', 'many'], '--workers must be'],
    ['a zero batch size', ['--fixtures', FIXTURES, '--batch-size', '0'], '--batch-size must be'],
    ['an unknown profile', ['--fixtures', FIXTURES, '--profile', 'No Such Profile'], 'is neither a file nor a profile'],
    ['an invalid --now', ['--fixtures', FIXTURES, '--now', 'soon'], 'now must be'],
    ['a missing fixtures directory', ['--fixtures', '/nonexistent/tenant'], 'CLI_FIXTURES'],
  ])('exits 2 for %s', async (_label, args, message) => {
    const r = await run('refresh', ...args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(r.out).toBe('');
  });

  it('prints its help with --help', async () => {
    const r = await run('refresh', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain('--shard <i/n>');
    expect(r.out).toContain('--summary');
  });
});
