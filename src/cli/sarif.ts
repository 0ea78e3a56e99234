// validate's findings as a SARIF 2.1.0 log (https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html),
// the format GitHub code scanning uploads (https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning).
// One rule per error code, its descriptions from the error catalogue and its help a link into
// docs/errors.md at the release's tag; paths relative to the repository root under %SRCROOT%;
// fingerprints built from the file, the code and the JSON Pointer, so that they survive lines
// inserted above a finding.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Log, ReportingDescriptor, Result } from 'sarif';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors/index.js';
import { errorsDocSection } from '../schema/artefacts.js';
import type { Position } from './io.js';
import { pathInside } from '../json/paths.js';
import { packageManifest } from './io.js';
import type { ValidationIssue } from '../schema/issues.js';

/** One validated file and its findings, as validate reports them. */
export interface SarifFileReport {
  file: string;
  issues: readonly (ValidationIssue & Position)[];
}

/** The key of validate's partial fingerprint (versioned: a change of its recipe is a new key). */
export const FINGERPRINT_KEY = 'identityTransformsFinding/v1';

/** The root a SARIF log's paths are relative to: the nearest directory up from `start` holding .git, else `start`. */
export function repositoryRoot(start: string): string {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    if (existsSync(resolve(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return resolve(start);
  }
}

export function renderSarif(reports: readonly SarifFileReport[], cwd = process.cwd()): Log {
  const pkg = packageManifest();
  const root = repositoryRoot(cwd);
  const repository = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  const codes = [...new Set(reports.flatMap((r) => r.issues.map((i) => i.code)))].sort();
  const rules: ReportingDescriptor[] = codes.map((code) => rule(code, `${repository}/blob/v${pkg.version}/docs/errors.md`));
  const seen = new Map<string, number>();
  const results: Result[] = [];
  for (const report of reports) {
    const uri = report.file === '<stdin>' ? undefined : artifactUri(resolve(cwd, report.file), root);
    for (const issue of report.issues) {
      const pointer = issue.path === '' ? '' : ` (${issue.path})`;
      // Identical findings (a file's code at one pointer) are told apart by their order.
      const identity = `${uri?.uri ?? report.file}\u0000${issue.code}\u0000${issue.path}`;
      const nth = seen.get(identity) ?? 0;
      seen.set(identity, nth + 1);
      results.push({
        ruleId: issue.code,
        ruleIndex: codes.indexOf(issue.code),
        level: issue.severity === 'error' ? 'error' : 'warning',
        message: { text: `${issue.message}${pointer}` },
        ...(uri === undefined
          ? {}
          : { locations: [{ physicalLocation: { artifactLocation: uri, region: { startLine: issue.line, startColumn: issue.column } } }] }),
        partialFingerprints: { [FINGERPRINT_KEY]: createHash('sha256').update(`${identity}\u0000${nth}`).digest('hex') },
      });
    }
  }
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'identity-transforms', version: pkg.version, semanticVersion: pkg.version, informationUri: pkg.homepage, rules } },
        originalUriBaseIds: { SRCROOT: { uri: pathToFileURL(root + sep).href } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}

function rule(code: ErrorCode, errorsDoc: string): ReportingDescriptor {
  const description = ERROR_CATALOGUE[code].description;
  // The first sentence is the short description (a sentence ends at a full stop and a space).
  const short = /^.*?\.(?=\s|$)/.exec(description)?.[0] ?? description;
  return {
    id: code,
    shortDescription: { text: short },
    fullDescription: { text: description },
    helpUri: `${errorsDoc}#${errorsDocSection(code).anchor}`,
    help: { text: `${code}: ${description} See ${errorsDoc}.` },
  };
}

/** A file under the root as a %SRCROOT%-relative URI; a file outside it as an absolute file: URI. */
function artifactUri(absolute: string, root: string): { uri: string; uriBaseId?: string } {
  const inside = pathInside(root, absolute);
  if (inside === undefined || inside === '') return { uri: pathToFileURL(absolute).href };
  return { uri: inside.split(sep).map(encodeURIComponent).join('/'), uriBaseId: 'SRCROOT' };
}
