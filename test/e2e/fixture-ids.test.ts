// A fixture directory whose identities.json gives two identities one id, read by the installed
// package's commands as a user runs them: each refuses it with the same CLI_FIXTURES error at the
// second occurrence, naming the first, and exit code 2 — none writes a result for either.

import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installed, type Installed } from './install.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

let pkg: Installed;
let dir: string;
/** The bundled identities.json holds one identity a line after "[": identity i is on line i + 2. */
let error: string;

beforeAll(async () => {
  pkg = await installed();
  dir = mkdtempSync(join(tmpdir(), 'idt-fixture-ids-'));
  for (const name of ['base', 'head']) cpSync(FIXTURES, join(dir, name), { recursive: true });
  const file = join(dir, 'base/identities.json');
  const lines = readFileSync(file, 'utf8').split('\n');
  const idOf = (line: string) => /"id":"([^"]+)"/.exec(line)![1]!;
  // Identity 5 takes the id of identity 2.
  const [first, second] = [idOf(lines[3]!), idOf(lines[6]!)];
  lines[6] = lines[6]!.replace(second, first);
  writeFileSync(file, lines.join('\n'));
  writeFileSync(join(dir, 'head/transforms/clean-department.json'), JSON.stringify({ name: 'Clean Department', type: 'upper', attributes: {} }));
  writeFileSync(join(dir, 'first-name.json'), JSON.stringify({ name: 'First name', type: 'identityAttribute', attributes: { name: 'firstname' } }));
  error = `CLI_FIXTURES base/identities.json:7:1: identity 5 has the id "${first}" of identity 2 (base/identities.json:4:1): every identity in identities.json needs an id of its own\n`;
}, 30 * 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    // The timeout only keeps a regression from hanging the suite; no assertion depends on it.
    execFile(pkg.bin, args, { cwd: dir, env: pkg.env, timeout: 300_000 }, (e, stdout, stderr) => {
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, out: stdout, err: stderr });
    });
  });
}

describe('a fixture directory that gives two identities one id', () => {
  it.each([
    ['refresh', ['refresh', '--fixtures', 'base']],
    ['refresh on worker threads', ['refresh', '--fixtures', 'base', '--workers', '2']],
    ['evaluate', ['evaluate', 'first-name.json', '--fixtures', 'base', '--identity', 'fatima.schroder']],
    ['impact', ['impact', '--base', 'base', '--head', 'head', '--fixtures', 'base']],
    ['validate --fixtures', ['validate', 'head/transforms', '--fixtures', 'base']],
  ])('%s: CLI_FIXTURES at the second occurrence, naming the first, and no result', async (_name, args) => {
    const r = await cli(args);
    // refresh names the directory as it resolved it.
    expect(r.err.replaceAll(`${dir}/`, '')).toBe(error);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
  });
});
