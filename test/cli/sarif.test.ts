// `validate --format sarif`: a SARIF 2.1.0 log that the OASIS schema accepts (the schema vendored
// in test/conformance/data/sarif, see SOURCES.md), one rule per error code with its descriptions
// and a link into docs/errors.md, paths relative to the repository root under %SRCROOT%, and
// fingerprints that stay the same when lines are inserted above a finding.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Log, Result } from 'sarif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/errors/index.js';
import { repositoryRoot } from '../../src/cli/sarif.js';
import { runCli } from './run.js';
import { sarifSchemaErrors } from './sarif-schema.js';

const PKG = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string; repository: { url: string } };

const USERNAME = '{\n  "name": "Username",\n  "type": "lower",\n  "attributes": { "flags": "x", "input": "a" }\n}\n';
const REGION = '{\n  "name": "Region",\n  "type": "lookup",\n  "attributes": {\n    "table": { "EMEA": "Europe" }\n  }\n}\n';

let repo: string;
let cwd: string;
beforeAll(() => {
  cwd = process.cwd();
  repo = mkdtempSync(join(tmpdir(), 'idt-sarif-'));
  mkdirSync(join(repo, '.git'));
  mkdirSync(join(repo, 'config', 'transforms'), { recursive: true });
  writeFileSync(join(repo, 'config/transforms/username.json'), USERNAME);
  writeFileSync(join(repo, 'config/transforms/region name.json'), REGION);
  // Run from a folder below the root, as a monorepo's job would: paths are still the root's.
  process.chdir(join(repo, 'config'));
});
afterAll(() => {
  process.chdir(cwd);
  rmSync(repo, { recursive: true, force: true });
});

async function sarif(...args: string[]): Promise<{ code: number; log: Log }> {
  const r = await runCli('validate', ...args, '--format', 'sarif');
  return { code: r.code, log: JSON.parse(r.out) as Log };
}

describe('validate --format sarif', () => {
  it('writes a log the OASIS SARIF 2.1.0 schema accepts, exiting as the other formats do', async () => {
    const { code, log } = await sarif('transforms/');
    expect(code).toBe(1);
    expect(sarifSchemaErrors(log)).toEqual([]);
    // The schema does reject what is not SARIF 2.1.0.
    expect(sarifSchemaErrors({ ...log, runs: [{ ...log.runs[0], results: [{ message: { text: 'x' }, level: 'fatal' }] }] })).not.toEqual([]);
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]!.tool.driver).toMatchObject({ name: 'identity-transforms', version: PKG.version, semanticVersion: PKG.version });
  });

  it('has one rule per error code, described from the catalogue, its help in docs/errors.md at the release tag', async () => {
    const { log } = await sarif('transforms/');
    const repository = PKG.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    expect(log.runs[0]!.tool.driver.rules).toEqual([
      {
        id: 'SCHEMA_UNKNOWN_PROPERTY',
        shortDescription: { text: ERROR_CATALOGUE.SCHEMA_UNKNOWN_PROPERTY.description },
        fullDescription: { text: ERROR_CATALOGUE.SCHEMA_UNKNOWN_PROPERTY.description },
        helpUri: `${repository}/blob/v${PKG.version}/docs/errors.md#schema-validation-schema_`,
        help: { text: expect.stringContaining('SCHEMA_UNKNOWN_PROPERTY: A property the platform does not define') },
      },
      {
        id: 'VALIDATE_LOOKUP_NO_DEFAULT',
        shortDescription: { text: 'Warning: a lookup table without a "default" key errors for every unmatched input.' },
        fullDescription: { text: ERROR_CATALOGUE.VALIDATE_LOOKUP_NO_DEFAULT.description },
        helpUri: `${repository}/blob/v${PKG.version}/docs/errors.md#validation-across-nodes-and-files-validate_`,
        help: { text: expect.stringContaining('VALIDATE_LOOKUP_NO_DEFAULT') },
      },
    ]);
    // The anchors are the headings of the generated docs/errors.md.
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    expect(doc).toContain('\n## Schema validation (`SCHEMA_`)\n');
    expect(doc).toContain('\n## Validation across nodes and files (`VALIDATE_`)\n');
  });

  it('locates each finding by a path from the repository root (%SRCROOT%), line and column; warnings are warnings', async () => {
    const { log } = await sarif('transforms/');
    const run = log.runs[0]!;
    expect(run.originalUriBaseIds).toEqual({ SRCROOT: { uri: pathToFileURL(repo).href + '/' } });
    const located = run.results!.map((r) => ({ ruleId: r.ruleId, level: r.level, text: r.message.text, location: r.locations?.[0]?.physicalLocation }));
    expect(located).toEqual([
      {
        ruleId: 'VALIDATE_LOOKUP_NO_DEFAULT',
        level: 'warning',
        text: 'lookup table has no "default": an unmatched input is an error (/attributes/table)',
        location: { artifactLocation: { uri: 'config/transforms/region%20name.json', uriBaseId: 'SRCROOT' }, region: { startLine: 5, startColumn: 5 } },
      },
      {
        ruleId: 'SCHEMA_UNKNOWN_PROPERTY',
        level: 'error',
        text: 'unknown attribute "flags" (/attributes/flags)',
        location: { artifactLocation: { uri: 'config/transforms/username.json', uriBaseId: 'SRCROOT' }, region: { startLine: 4, startColumn: 19 } },
      },
    ]);
    expect(run.results!.map((r) => run.tool.driver.rules![r.ruleIndex!]!.id)).toEqual(['VALIDATE_LOOKUP_NO_DEFAULT', 'SCHEMA_UNKNOWN_PROPERTY']);
  });

  it('keeps each fingerprint when lines are inserted above the finding, and has none holding a line number', async () => {
    const fingerprints = (results: Result[]) => results.map((r) => r.partialFingerprints);
    const before = (await sarif('transforms/')).log.runs[0]!.results!;
    writeFileSync(join(repo, 'config/transforms/username.json'), '\n\n' + USERNAME.replace('"type": "lower",', '"type":\n    "lower",'));
    try {
      const after = (await sarif('transforms/')).log.runs[0]!.results!;
      expect(after.map((r) => r.locations![0]!.physicalLocation!.region!.startLine)).toEqual([5, 7]);
      expect(fingerprints(after)).toEqual(fingerprints(before));
    } finally {
      writeFileSync(join(repo, 'config/transforms/username.json'), USERNAME);
    }
    for (const value of before.flatMap((r) => Object.values(r.partialFingerprints!))) expect(value).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(before.map((r) => r.partialFingerprints!['identityTransformsFinding/v1'])).size).toBe(2);
  });

  it('writes an empty run for valid files', async () => {
    writeFileSync(join(repo, 'config/ok.json'), JSON.stringify({ name: 'Lower', type: 'lower', attributes: {} }));
    const { code, log } = await sarif('ok.json');
    expect(code).toBe(0);
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.runs[0]!.results).toEqual([]);
    expect(log.runs[0]!.tool.driver.rules).toEqual([]);
  });

  it('reports a file outside the repository by its file: URI', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'idt-sarif-outside-'));
    try {
      writeFileSync(join(outside, 'username.json'), USERNAME);
      const { log } = await sarif(join(outside, 'username.json'));
      expect(sarifSchemaErrors(log)).toEqual([]);
      expect(log.runs[0]!.results![0]!.locations![0]!.physicalLocation!.artifactLocation).toEqual({ uri: pathToFileURL(join(outside, 'username.json')).href });
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('keeps a file whose name starts with two dots under %SRCROOT%: it is inside the repository, not above it', async () => {
    writeFileSync(join(repo, '..username.json'), USERNAME);
    try {
      const { log } = await sarif(join(repo, '..username.json'));
      expect(sarifSchemaErrors(log)).toEqual([]);
      expect(log.runs[0]!.results![0]!.locations![0]!.physicalLocation!.artifactLocation).toEqual({ uri: '..username.json', uriBaseId: 'SRCROOT' });
    } finally {
      rmSync(join(repo, '..username.json'));
    }
  });

  it('takes the root from the nearest .git up from the working directory, else the directory itself', () => {
    expect(repositoryRoot(join(repo, 'config', 'transforms'))).toBe(repo);
    const bare = mkdtempSync(join(tmpdir(), 'idt-sarif-bare-'));
    try {
      expect(repositoryRoot(bare)).toBe(bare);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
