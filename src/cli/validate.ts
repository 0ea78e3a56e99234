// `identity-transforms validate <files|dirs|globs|->`: schema + compile + set checks, reported
// as text (file:line:column), GitHub workflow commands, SARIF (code scanning), Markdown (a job
// summary) or JSON. Exit codes follow ajv-cli and
// check-jsonschema: 0 valid, 1 invalid, 2 usage error or unreadable input.

import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createEngine } from '../engine/engine.js';
import { MAX_DEPTH_LIMIT } from '../engine/options.js';
import { terminalLines } from '../errors/terminal.js';
import { workflowCommand } from '../errors/workflow-commands.js';
import type { ValidationIssue } from '../schema/issues.js';
import { createSetValidator, MAX_TRANSFORM_BYTES, tooLargeIssue, type SetResult } from '../engine/validate.js';
import { markdownText } from '../errors/markdown.js';
import { isDirectory, pathInside, realPathOf } from '../json/paths.js';
import { renderSarif } from './sarif.js';
import { checkTenantNames } from '../engine/validate-tenant.js';
import { loadTenantModel, type TenantModel } from '../language/tenant-model.js';
import {
  EXIT_INVALID,
  EXIT_OK,
  integerOption,
  listJsonFiles,
  locatePointer,
  positionTree,
  readStdin,
  readText,
  syntaxError,
  UsageError,
  type Output,
  type Position,
  parseCommandLine,
} from './io.js';

export const VALIDATE_HELP = `Usage: identity-transforms validate <file|dir|glob|->... [options]

Validate transform JSON files: the JSON Schema built from the operation registry, then each
operation's compile step (regexes, templates, filters), then checks across the whole set
(duplicate names, unknown references, reference cycles, the 400 KB limit, nesting depth).
Identity profiles (identityAttributeConfig.attributeTransforms[].transformDefinition) and source
create profiles (fields[].transform) are recognised and the transforms inside them validated,
each finding pointing into the profile. Any other JSON document is VALIDATE_UNKNOWN_DOCUMENT.

Only regular files are read (a link is followed to one): a device, a FIFO or a socket is an
unreadable input (exit 2). A file over 400 KB is VALIDATE_TOO_LARGE without being read.

A directory is searched for *.json files (dot files left out). Every argument must match at
least one file: a directory without .json files and a glob that matches nothing are usage
errors (exit 2), like a missing file. A symbolic link found in a directory (or by a glob) that
leads to a file outside it (or outside the working directory) is VALIDATE_LINK_OUTSIDE, not read.

Options:
  --format <format>            Report format: text (default), github (workflow commands:
                               annotations), sarif (SARIF 2.1.0 for code scanning), markdown
                               (counts and findings, for $GITHUB_STEP_SUMMARY) or json
  --strict                     Warnings fail validation too
  --external-references        Allow references to transforms outside the validated set
  --max-depth <n>              Maximum transform nesting depth, 1 to 246 (default: 64)
  --fixtures <dir>             Check names against a fixture or snapshot directory: a source
                               no source has is VALIDATE_UNKNOWN_SOURCE (error), an attributeName
                               no account of that source carries VALIDATE_UNKNOWN_ACCOUNT_ATTRIBUTE
                               (warning), each with the closest name
  -h, --help                   Show this help

Exit codes: 0 valid, 1 invalid, 2 usage error or unreadable input.
`;

interface FileReport {
  file: string;
  /** transform, identity-profile, create-profile or unknown (absent when the file did not parse). */
  kind?: string;
  valid: boolean;
  issues: (ValidationIssue & Position)[];
}

/** A file to validate; `outside` names the tree it was found in when a link led out of it (not read). */
interface Input {
  file: string;
  outside?: string;
}

/**
 * Whether `file`, found by searching `root`, is reached through a link to a regular file outside
 * that tree. A directory or a glob of a pull request can hold such a link (git keeps links), and
 * what validate says of a file (an unknown type, a syntax error) quotes it: the file a link points
 * to on the machine running the check is not read. A file named outright is read, link or not; a
 * link to a device, a FIFO or a socket is refused by the reader, unread, as anywhere (CLI_READ).
 */
function leadsOutside(file: string, root: string): boolean {
  // No real path (a dangling link): reading it reports the error.
  const real = realPathOf(file);
  const base = realPathOf(root);
  if (real === undefined || base === undefined || real === resolve(file)) return false;
  return pathInside(base, real) === undefined && statSync(real).isFile();
}

async function expand(args: readonly string[]): Promise<Input[]> {
  const files: Input[] = [];
  const add = (paths: readonly string[], root: string, base?: string) => {
    for (const p of paths) {
      const file = base === undefined ? p : join(base, p);
      files.push(leadsOutside(file, root) ? { file, outside: root } : { file });
    }
  };
  // The glob library loads only for a glob, or a directory tree with links or special files.
  const glob = async (patterns: string[], options: { cwd?: string; dot: boolean }) => (await import('tinyglobby')).globSync(patterns, options).sort();
  for (const arg of args) {
    if (arg === '-') {
      files.push({ file: '-' });
    } else if (isDirectory(arg)) {
      const listed = listJsonFiles(arg) ?? (await glob(['**/*.json'], { cwd: arg, dot: false }));
      if (listed.length === 0) throw new UsageError(`no files matched: the directory ${arg} holds no .json file`);
      add(listed, arg, arg);
    } else if (existsSync(arg)) {
      files.push({ file: arg });
    } else if (/[*?[\]{}]/.test(arg)) {
      const matched = await glob([arg], { dot: false });
      if (matched.length === 0) throw new UsageError(`no files matched: nothing matches ${arg}`);
      add(matched, '.');
    } else {
      throw new UsageError(`no such file or directory: ${arg}`);
    }
  }
  // One file named twice (a directory and its absolute path, or reached through a link) is
  // validated once, under the first name: validated twice, its name would be its own duplicate.
  const seen = new Set<string>();
  return files.filter(({ file }) => {
    // Unreadable: reading it reports the error under the name given.
    const key = file === '-' ? file : (realPathOf(file) ?? file);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export async function validateCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseCommandLine('validate', {
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      format: { type: 'string', default: 'text' },
      strict: { type: 'boolean', default: false },
      'external-references': { type: 'boolean', default: false },
      'max-depth': { type: 'string' },
      fixtures: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    io.out(VALIDATE_HELP);
    return EXIT_OK;
  }
  const format = values.format;
  if (!isFormat(format)) throw new UsageError(`--format must be ${FORMATS.join(', ')}, not "${format}"`);
  if (positionals.length === 0) throw new UsageError('validate needs at least one file, directory, glob or - (see --help)');
  const maxDepth = values['max-depth'] === undefined ? undefined : integerOption('max-depth', values['max-depth'], 1, MAX_DEPTH_LIMIT);

  // One file at a time: read, parse, validate, and keep only the text (for line:column
  // positions) and the result; the checks across the set run once every file is in.
  // The tenant model the language server uses, read before any file (a wrong directory is a usage error).
  const tenant = values.fixtures === undefined ? undefined : await tenantModel(values.fixtures);
  const engine = createEngine(maxDepth === undefined ? {} : { limits: { maxDepth } });
  const set = createSetValidator({ engine, ...(values['external-references'] ? { knownNames: [] } : {}) });
  const reports: FileReport[] = [];
  const validated: { report: FileReport; result: SetResult; text: string }[] = [];
  for (const { file: input, outside } of await expand(positionals)) {
    const file = input === '-' ? '<stdin>' : input;
    const report: FileReport = { file, valid: true, issues: [] };
    reports.push(report);
    if (outside !== undefined) {
      const message = `a symbolic link to a file outside ${outside === '.' ? 'the working directory' : outside}, the tree searched: not read (name the file itself to validate it)`;
      report.issues.push({ severity: 'error', code: 'VALIDATE_LINK_OUTSIDE', message, path: '', line: 1, column: 1 });
      continue;
    }
    const text = input === '-' ? await readStdin(MAX_TRANSFORM_BYTES) : readText(input, MAX_TRANSFORM_BYTES);
    if (typeof text !== 'string') {
      // Over the platform's limit, known from the file's size: not read, let alone parsed.
      report.issues.push({ ...tooLargeIssue(text.bytes, { unread: true, atLeast: input === '-' }), line: 1, column: 1 });
      continue;
    }
    if (text.trim() === '') {
      report.issues.push({ severity: 'error', code: 'VALIDATE_EMPTY_FILE', message: 'the file is empty', path: '', line: 1, column: 1 });
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      const found = syntaxError(text);
      report.issues.push({
        severity: 'error',
        code: 'VALIDATE_JSON_SYNTAX',
        message: `invalid JSON: ${found?.message ?? (error as Error).message}`,
        path: '',
        ...(found?.position ?? { line: 1, column: 1 }),
      });
      continue;
    }
    const result = set.add({ source: file, json, sourceBytes: Buffer.byteLength(text, 'utf8') });
    if (tenant) {
      const found = checkTenantNames(json, tenant);
      result.issues.push(...found.map(({ suggestion: _, ...issue }) => issue));
      if (found.some((i) => i.severity === 'error')) result.valid = false;
    }
    validated.push({ report, result, text });
  }
  set.finish();

  for (const { report, result, text } of validated) {
    report.kind = result.kind;
    let issues = result.issues;
    if (values['external-references']) issues = issues.filter((x) => x.code !== 'VALIDATE_UNKNOWN_REFERENCE');
    if (issues.length === 0) continue;
    // Positions cost a parse with a position-keeping parser: only files with findings pay it.
    const tree = positionTree(text);
    for (const issue of issues) report.issues.push({ ...issue, ...locatePointer(text, tree, issue.path) });
  }

  let failed = false;
  for (const report of reports) {
    report.valid = !report.issues.some((i) => i.severity === 'error' || (values.strict && i.severity === 'warning'));
    if (!report.valid) failed = true;
  }
  io.out(render(format, reports));
  return failed ? EXIT_INVALID : EXIT_OK;
}

async function tenantModel(dir: string): Promise<TenantModel> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--fixtures: no such directory: ${dir}`);
  return loadTenantModel(dir);
}

const FORMATS = ['text', 'github', 'sarif', 'markdown', 'json'] as const;
type Format = (typeof FORMATS)[number];
const isFormat = (f: string): f is Format => (FORMATS as readonly string[]).includes(f);

function render(format: Format, reports: FileReport[]): string {
  const errors = reports.reduce((n, r) => n + r.issues.filter((i) => i.severity === 'error').length, 0);
  const warnings = reports.reduce((n, r) => n + r.issues.filter((i) => i.severity === 'warning').length, 0);
  const invalid = reports.filter((r) => !r.valid).length;
  if (format === 'json') {
    return JSON.stringify({ valid: invalid === 0, summary: { files: reports.length, invalid, errors, warnings }, files: reports }, null, 2) + '\n';
  }
  if (format === 'sarif') return JSON.stringify(renderSarif(reports), null, 2) + '\n';
  if (format === 'markdown') {
    const out = ['## Transforms validated', '', '| Files | Valid | Invalid | Errors | Warnings |', '| ---: | ---: | ---: | ---: | ---: |'];
    out.push(`| ${reports.length} | ${reports.length - invalid} | ${invalid} | ${errors} | ${warnings} |`, '');
    const findings = reports.flatMap((r) => r.issues.map((i) => ({ file: r.file, ...i })));
    if (findings.length > 0) {
      out.push('| File | Line:column | Severity | Code | Message |', '| --- | --- | --- | --- | --- |');
      for (const i of findings) out.push(`| ${markdownText(i.file)} | ${i.line}:${i.column} | ${i.severity} | ${i.code} | ${markdownText(i.message)}${i.path === '' ? '' : ` (${markdownText(i.path)})`} |`);
      out.push('');
    }
    return out.join('\n') + '\n';
  }
  let out = '';
  for (const r of reports) {
    for (const i of r.issues) {
      const pointer = i.path === '' ? '' : ` (${i.path})`;
      if (format === 'github') {
        const kind = i.severity === 'error' ? 'error' : 'warning';
        out += `${workflowCommand(kind, { file: r.file, line: i.line, col: i.column, title: i.code }, `${i.code} ${i.message}${pointer}`)}\n`;
      } else {
        out += terminalLines([`${r.file}:${i.line}:${i.column} ${i.severity} ${i.code} ${i.message}${pointer}`]);
      }
    }
  }
  if (format === 'text') {
    out += `${reports.length} file${reports.length === 1 ? '' : 's'} checked: ${reports.length - invalid} valid, ${invalid} invalid (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'})\n`;
  }
  return out;
}
