// A record the pre-pass let through (it finds element boundaries without parsing) that is not
// valid JSON: reported at file:line:column of identities.json or accounts.json with a plain
// sentence, on the main thread and in worker threads alike.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli as run } from '../cli/run.js';
import { cleanUp, handTenant, hrAccount, profile, tempDir } from './tenants.js';

afterAll(cleanUp);


const PARSER_CODES = /PropertyNameExpected|ValueExpected|InvalidSymbol|Unexpected token|position \d|byte \d/;

function tenant(): string {
  const ids = Array.from({ length: 40 }, (_, i) => `id-${String(i).padStart(3, '0')}`);
  return handTenant({
    identities: ids.map((id) => ({ id, name: id, attributes: {}, managerId: null })),
    accounts: ids.map((id) => hrAccount(id, { first: `F${id}` })),
    profiles: [profile('P', { firstname: { type: 'accountAttribute', attributes: { sourceName: 'HR', attributeName: 'first' } } })],
  });
}

describe('refresh: a broken record', () => {
  it.each(['0', '2'])('in accounts.json is located at file:line:column (workers %s)', async (workers) => {
    const dir = tenant();
    const file = join(dir, 'accounts.json');
    const lines = (await import('node:fs')).readFileSync(file, 'utf8').split('\n');
    // Line 31 holds account 29: a trailing comma inside its attributes.
    lines[30] = lines[30]!.replace('"attributes":{"first":"Fid-029"}', '"attributes":{"first":"Fid-029",}');
    writeFileSync(file, lines.join('\n'));
    const r = await run('refresh', '--fixtures', dir, '--workers', workers, '--batch-size', '8', '--summary');
    expect(r.code).toBe(2);
    const column = lines[30]!.indexOf(',}') + 2;
    expect(r.err).toBe(`CLI_FIXTURES ${file}:31:${column}: an account of identity 29 (id-029) is not valid JSON: a trailing comma is not allowed before "}"\n`);
    expect(r.err).not.toMatch(PARSER_CODES);
  });

  it.each(['0', '2'])('in identities.json names the file, line and column (workers %s)', async (workers) => {
    const dir = tenant();
    const file = join(dir, 'identities.json');
    const lines = (await import('node:fs')).readFileSync(file, 'utf8').split('\n');
    lines[11] = lines[11]!.replace('"attributes":{}', '"attributes":{"a" 1}');
    writeFileSync(file, lines.join('\n'));
    const r = await run('refresh', '--fixtures', dir, '--workers', workers, '--batch-size', '8', '--summary');
    expect(r.code).toBe(2);
    const column = lines[11]!.indexOf(' 1}') + 2;
    expect(r.err).toBe(`CLI_FIXTURES ${file}:12:${column}: the record of identity 10 (id-010) is not valid JSON: expected ":" after the property name\n`);
  });

  it.each(['0', '2'])('nested deeper than 1,000 levels in identities.json is CLI_FIXTURES at the record\'s file:line:column (workers %s)', async (workers) => {
    const dir = tenant();
    const file = join(dir, 'identities.json');
    const lines = (await import('node:fs')).readFileSync(file, 'utf8').split('\n');
    lines[11] = lines[11]!.replace('"attributes":{}', `"attributes":{"deep":${'['.repeat(1_001)}${']'.repeat(1_001)}}`);
    writeFileSync(file, lines.join('\n'));
    const r = await run('refresh', '--fixtures', dir, '--workers', workers, '--batch-size', '8', '--summary');
    expect(r.code).toBe(2);
    // The pointer of 998 levels below /attributes/deep is cut in its middle, as every JSON_TOO_DEEP message's is.
    expect(r.err).toBe(`CLI_FIXTURES ${file}:12:1: the record of identity 10 (id-010) nests deeper than 1000 levels at /attributes/deep${'/0'.repeat(22)}…${'/0'.repeat(30)}\n`);
  });

  it('reports a missing fixtures directory as missing, not as a tenant without a profile', async () => {
    const missing = join(tempDir(), 'nope');
    const r = await run('refresh', '--fixtures', missing, '--summary');
    expect(r.code).toBe(2);
    expect(r.err).toBe(`CLI_FIXTURES the fixtures directory ${missing} does not exist\n`);
  });
});
