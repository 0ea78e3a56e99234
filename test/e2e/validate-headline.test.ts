// The README's headline, word for word, run as a user runs it in a repository laid out like the
// bundled fixtures: transforms/*.json next to profiles/*.json (identity profiles).

import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { built, CLI } from './install.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

let repo: string;
beforeAll(async () => {
  // The command as a user runs it: this checkout's build (test/e2e/install.ts).
  await built();
  repo = mkdtempSync(join(tmpdir(), 'idt-headline-'));
  cpSync(join(FIXTURES, 'transforms'), join(repo, 'transforms'), { recursive: true });
  cpSync(join(FIXTURES, 'identity-profiles'), join(repo, 'profiles', 'hr'), { recursive: true });
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

function identityTransforms(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: repo, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("validate transforms/ 'profiles/**/*.json' --format github --strict", () => {
  it('validates the transforms and the identity profile together: no error, the one lookup-without-default warning fails --strict', () => {
    const r = identityTransforms('validate', 'transforms/', 'profiles/**/*.json', '--format', 'github', '--strict');
    expect(r.err).toBe('');
    expect(r.out).toBe(
      '::warning file=transforms/location-region.json,line=5,col=5,title=VALIDATE_LOOKUP_NO_DEFAULT::VALIDATE_LOOKUP_NO_DEFAULT lookup table has no "default": an unmatched input is an error (/attributes/table)\n',
    );
    expect(r.code).toBe(1);
  });

  it('passes without --strict, the profile counted as valid', () => {
    const r = identityTransforms('validate', 'transforms/', 'profiles/**/*.json');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^\d+ files checked: \d+ valid, 0 invalid \(0 errors, 1 warning\)\n$/m);
  });

  it('annotates an error inside the profile at its line and column', () => {
    writeFileSync(
      join(repo, 'profiles', 'broken.json'),
      '{\n  "name": "Broken",\n  "identityAttributeConfig": {\n    "attributeTransforms": [\n      {\n        "identityAttributeName": "uid",\n        "transformDefinition": { "type": "lower", "attributes": { "input": "x", "flags": "g" } }\n      }\n    ]\n  }\n}\n',
    );
    try {
      const r = identityTransforms('validate', 'transforms/', 'profiles/**/*.json', '--format', 'github', '--strict');
      expect(r.code).toBe(1);
      expect(r.out).toContain(
        '::error file=profiles/broken.json,line=7,col=81,title=SCHEMA_UNKNOWN_PROPERTY::SCHEMA_UNKNOWN_PROPERTY unknown attribute "flags" (/identityAttributeConfig/attributeTransforms/0/transformDefinition/attributes/flags)\n',
      );
    } finally {
      rmSync(join(repo, 'profiles', 'broken.json'));
    }
  });

  it('says "no files matched" (exit 2) for a glob that matches nothing and for an empty directory alike', () => {
    const glob = identityTransforms('validate', 'transforms/', 'nothing/**/*.json');
    expect(glob.code).toBe(2);
    expect(glob.err).toBe('CLI_USAGE no files matched: nothing matches nothing/**/*.json\n');
    mkdirSync(join(repo, 'empty', 'nested'), { recursive: true });
    writeFileSync(join(repo, 'empty', 'notes.txt'), 'no transforms here\n');
    const empty = identityTransforms('validate', 'empty');
    expect(empty.code).toBe(2);
    expect(empty.err).toBe('CLI_USAGE no files matched: the directory empty holds no .json file\n');
  });

  it('suggests the option meant', () => {
    const r = identityTransforms('validate', 'transforms/', '--stric');
    expect(r.code).toBe(2);
    expect(r.err).toBe('CLI_USAGE unknown option --stric; did you mean --strict? (see identity-transforms validate --help)\n');
  });
});
