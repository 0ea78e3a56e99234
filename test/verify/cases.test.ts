// verify's cases: each group of differences reduced to a self-contained case that computes ours
// again on its own, keeping only the inputs its evaluation read, with identity ids and names
// replaced; with pseudonymize the input values too, a case computed from them marked not
// reproducible with the platform's value withheld. The same cases over `serve`'s API as from the
// files; the command writes the file whole and says on stderr that it holds personal data.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlantedDifference } from '../../src/testing/generator/index.js';
import { CASE_FORMAT, runCase, verify, type CaseFile, type VerifyOptions } from '../../src/verify/index.js';
import { ADMIN_PAT, resourceServer } from '../api/resources-server.js';
import { runCli } from '../cli/run.js';
import { VERIFIED_AT, writePlantedTenant } from './planted-tenant.js';

const tmp = mkdtempSync(join(tmpdir(), 'idt-verify-cases-'));
const dir = join(tmp, 'tenant');
let planted: PlantedDifference[];
let accounts: { identityId: string; attributes: Record<string, unknown> }[];

beforeAll(async () => {
  planted = await writePlantedTenant(dir, 200);
  accounts = JSON.parse(readFileSync(join(dir, 'accounts.json'), 'utf8')) as typeof accounts;
}, 300_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function casesOf(options: VerifyOptions): Promise<CaseFile> {
  const job = verify({ ...options, cases: true, now: VERIFIED_AT });
  for await (const line of job) void line;
  return job.cases()!;
}

const differ = () => planted.filter((p) => p.kind === 'differ');

describe('verify cases', () => {
  it('one case per group of differences, each computing ours again on its own', async () => {
    const file = await casesOf({ fixtures: dir, workers: 0 });
    expect(file).toMatchObject({ format: CASE_FORMAT, version: 1, profile: 'Employees', now: VERIFIED_AT, pseudonymized: false });
    expect(file.cases.map((c) => [c.attribute, c.platform, c.ours]).sort()).toEqual(differ().map((p) => [p.attribute, p.platform, p.ours]).sort());
    for (const c of file.cases) {
      expect(c).toMatchObject({ status: 'open', reproducible: true, count: 1 });
      expect(await runCase(c, file.now)).toBe(c.ours);
    }
  }, 120_000);

  it('keeps only the inputs read, with the identities\' ids and names replaced and the sources without their owners', async () => {
    const file = await casesOf({ fixtures: dir, workers: 0 });
    const text = JSON.stringify(file);
    for (const p of differ()) {
      expect(text).not.toContain(p.identityId);
      expect(text).not.toContain(`"${p.identityName}"`);
    }
    const firstname = file.cases.find((c) => c.attribute === 'firstname');
    if (firstname !== undefined) {
      // accountAttribute FIRST_NAME of Workday: that account, that attribute.
      expect(firstname.inputs.accounts).toHaveLength(1);
      expect(Object.keys(firstname.inputs.accounts[0]!.attributes)).toEqual(['FIRST_NAME']);
      expect(firstname.inputs.identity).toEqual({ id: 'identity-1', name: 'identity-1', attributes: {} });
      expect(firstname.inputs.manager).toBeNull();
    }
    for (const c of file.cases) for (const s of c.inputs.sources) expect(Object.keys(s).sort()).toEqual(expect.arrayContaining(['id', 'name']));
    expect(text).not.toContain('"owner"');
  }, 120_000);

  it('pseudonymize replaces the input values, and withholds the platform\'s value where it is computed from them', async () => {
    const file = await casesOf({ fixtures: dir, workers: 0, pseudonymize: true });
    expect(file.pseudonymized).toBe(true);
    const text = JSON.stringify(file);
    for (const p of differ()) {
      const values = accounts.filter((a) => a.identityId === p.identityId).flatMap((a) => Object.values(a.attributes)).filter((v): v is string => typeof v === 'string' && v.length > 3);
      for (const v of values) expect(text).not.toContain(JSON.stringify(v));
    }
    for (const c of file.cases) {
      expect(await runCase(c, file.now)).toBe(c.ours);
      if (!c.reproducible) expect(c).toMatchObject({ platform: null, note: expect.stringContaining('withheld') });
    }
    expect(file.cases.some((c) => !c.reproducible)).toBe(true);
  }, 120_000);

  it('makes the same cases over serve\'s API as from the files', async () => {
    const server = await resourceServer({ fixtures: dir });
    try {
      const overApi = await casesOf({ tenant: { baseUrl: await server.listen(), clientId: ADMIN_PAT.id, clientSecret: ADMIN_PAT.secret } });
      const fromFiles = await casesOf({ fixtures: dir, workers: 0 });
      expect(overApi.cases).toEqual(fromFiles.cases);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('VERIFY_OPTION_INVALID for pseudonymize without cases', () => {
    expect(() => verify({ fixtures: dir, pseudonymize: true })).toThrow(expect.objectContaining({ code: 'VERIFY_OPTION_INVALID' }));
  });
});

describe('verify --cases', () => {
  const run = (...args: string[]) => runCli('verify', '--fixtures', dir, '--workers', '0', '--now', VERIFIED_AT, ...args);

  it('writes the case file and says on stderr that it holds personal data', async () => {
    const file = join(tmp, 'cases.json');
    const { code, err } = await run('--cases', file);
    expect(code).toBe(0);
    expect(err).toContain(`to ${file}. They hold the input values the transforms read (identity and account attributes): personal data.`);
    expect((JSON.parse(readFileSync(file, 'utf8')) as CaseFile).cases).toHaveLength(differ().length);
    const pseudonymized = await run('--cases', file, '--pseudonymize');
    expect(pseudonymized.err).toMatch(/identity ids, names and input values replaced; \d+ not reproducible/);
  }, 120_000);

  it('VERIFY_CASES_WRITE when the file cannot be written, after the report; nothing left behind', async () => {
    const file = join(tmp, 'no-such-directory', 'cases.json');
    const { code, out, err } = await run('--cases', file);
    expect(code).toBe(2);
    expect(out).toMatch(/^verify Employees over /);
    expect(err).toMatch(/^VERIFY_CASES_WRITE could not write the cases to /);
    expect(existsSync(join(tmp, 'no-such-directory'))).toBe(false);
  }, 120_000);

  it('exits 2 for --pseudonymize without --cases', async () => {
    const { code, err } = await run('--pseudonymize');
    expect(code).toBe(2);
    expect(err).toContain('--pseudonymize replaces the input values of --cases');
  });
});
