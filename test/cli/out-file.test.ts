// refresh --out that names an input of the run (src/cli/out-file.ts): refused before the run,
// the input left as it was. An --out beside the inputs, in the fixtures directory, is written.

import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli as run } from './run.js';
import { cleanUp, FIXTURES, tempDir } from '../refresh/tenants.js';

afterAll(cleanUp);

function tenant(): string {
  const dir = join(tempDir('idt-out-input-'), 'tenant');
  cpSync(FIXTURES, dir, { recursive: true });
  return dir;
}

describe('refresh --out over an input', () => {
  it.each(['identities.json', 'accounts.json', 'sources.json', 'transforms/ad-username.json', 'identity-profiles/default.json'])('refuses --out <fixtures>/%s (CLI_USAGE) and leaves it unchanged', async (file) => {
    const dir = tenant();
    const before = readFileSync(join(dir, file), 'utf8');
    const r = await run('refresh', '--fixtures', dir, '--out', join(dir, file), '--workers', '0', '--no-progress');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^CLI_USAGE --out .* of this run: writing it would replace it; name another file\n$/);
    expect(readFileSync(join(dir, file), 'utf8')).toBe(before);
  });

  it('refuses a link to identities.json and the rules module', async () => {
    const dir = tenant();
    const link = join(tempDir('idt-out-link-'), 'out.ndjson');
    symlinkSync(join(dir, 'identities.json'), link);
    expect((await run('refresh', '--fixtures', dir, '--out', link, '--workers', '0')).err).toBe(`CLI_USAGE --out ${link} is ${join(dir, 'identities.json')}, an input of this run: writing it would replace it; name another file\n`);
    const rules = join(dir, 'rules.mjs');
    writeFileSync(rules, 'export default {};\n');
    expect((await run('refresh', '--fixtures', dir, '--rules', rules, '--out', rules, '--workers', '0')).code).toBe(2);
    expect(readFileSync(rules, 'utf8')).toBe('export default {};\n');
  });

  it('writes an --out beside the inputs', async () => {
    const dir = tenant();
    const r = await run('refresh', '--fixtures', dir, '--out', join(dir, 'out.ndjson'), '--workers', '0', '--no-progress');
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(join(dir, 'out.ndjson'), 'utf8').split('\n')).toHaveLength(210);
  });
});
