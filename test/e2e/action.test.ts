// action.yml run as GitHub's runner runs a composite action, without a runner: each step's
// `run:` written to a file and run with `bash --noprofile --norc -eo pipefail <file>` (the runner's
// `shell: bash`), its `env:` expressions evaluated from the inputs (defaults as action.yml gives
// them), the github context and the earlier steps' outputs; GITHUB_OUTPUT and GITHUB_STEP_SUMMARY
// are a file per step, GITHUB_WORKSPACE a git repository with a pull request's change, and
// GITHUB_ACTION_PATH this checkout. The package comes from the packed tarball: the workspace's
// node_modules is the light install of test/e2e/install.ts, where `npx --yes
// identity-transforms@<version>` finds it (npm is offline: nothing is fetched). The test reads
// what GitHub would read: the step outputs, the summary files, the SARIF file and the log.

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Log } from 'sarif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { sarifSchemaErrors } from '../cli/sarif-schema.js';
import { installed, ROOT, runCommand, type Installed } from './install.js';
import { changeLondonRegion, createTenantRepository, gitIn } from './tenant-repository.js';

interface Step {
  id: string;
  shell: string;
  env?: Record<string, string>;
  run: string;
}
interface Action {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: Step[] };
}

const ACTION = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** The bundled tenant's transform and profile files, all valid, one with a warning. */
const TRANSFORMS = readdirSync(join(ROOT, 'fixtures/transforms')).length;
const FILES = TRANSFORMS + readdirSync(join(ROOT, 'fixtures/identity-profiles')).length;

interface WorkflowStep {
  id?: string;
  uses?: string;
  if?: string;
  with?: Record<string, string | boolean>;
}

/** The steps of README's example workflow (the yaml block after `<!-- action-workflow -->`). */
function readmeWorkflow(): WorkflowStep[] {
  const block = /<!-- action-workflow -->\n```yaml\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  if (!block) throw new Error('README.md has no action-workflow block');
  const workflow = parse(block[1]!) as { jobs: Record<string, { steps: WorkflowStep[] }> };
  return Object.values(workflow.jobs)[0]!.steps;
}

interface Context {
  inputs: Record<string, string>;
  github: Record<string, string>;
  steps: Record<string, Record<string, string>>;
}

/** The expressions action.yml may use, evaluated as the runner does; any other is an error here. */
function expand(text: string, context: Context): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    let m: RegExpExecArray | null;
    if ((m = /^inputs\.([\w-]+)$/.exec(expression))) return context.inputs[m[1]!] ?? '';
    if ((m = /^github\.(\w+)$/.exec(expression))) return context.github[m[1]!] ?? '';
    if ((m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression))) return context.steps[m[1]!]?.[m[2]!] ?? '';
    throw new Error(`action.yml uses an expression this test cannot evaluate: ${expression}`);
  });
}

/** A GITHUB_OUTPUT file: `name=value` lines and `name<<DELIMITER` blocks. */
function readOutputs(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(file)) return out;
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const block = /^([\w-]+)<<(.+)$/.exec(lines[i]!);
    if (block) {
      const end = lines.indexOf(block[2]!, i + 1);
      out[block[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (lines[i]!.includes('=')) {
      const at = lines[i]!.indexOf('=');
      out[lines[i]!.slice(0, at)] = lines[i]!.slice(at + 1);
    }
  }
  return out;
}

interface Job {
  steps: { id: string; status: number | null; stdout: string; stderr: string }[];
  /** What each step wrote to GITHUB_OUTPUT. */
  stepOutputs: Record<string, Record<string, string>>;
  /** The action's outputs, as `steps.<this action>.outputs` in the calling workflow. */
  outputs: Record<string, string>;
  /** The job summary: the steps' GITHUB_STEP_SUMMARY files one after the other. */
  summary: string;
  /** The job's result: the first failing step's status, else 0. */
  status: number | null;
}

let pkg: Installed;
let workspace: string;
let scratch: string;

// Each step runs as a child process awaited, never a synchronous spawn: a job takes up to a
// minute, and a test worker blocked that long misses vitest's own messages and fails the run.
async function runAction(inputs: Record<string, string>): Promise<Job> {
  const github = { base_ref: 'main', action_path: ROOT, workspace };
  const context: Context = { inputs: {}, github, steps: {} };
  for (const [name, input] of Object.entries(ACTION.inputs)) {
    if (input.required && inputs[name] === undefined) throw new Error(`input ${name} is required`);
    context.inputs[name] = inputs[name] ?? expand(input.default ?? '', context);
  }
  const job: Job = { steps: [], stepOutputs: context.steps, outputs: {}, summary: '', status: 0 };
  for (const step of ACTION.runs.steps) {
    const files = mkdtempSync(join(scratch, `${step.id}-`));
    const script = join(files, 'script.sh');
    writeFileSync(script, step.run);
    const env: NodeJS.ProcessEnv = {
      ...pkg.env,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_ACTION_PATH: ROOT,
      GITHUB_BASE_REF: github.base_ref,
      GITHUB_OUTPUT: join(files, 'output'),
      GITHUB_STEP_SUMMARY: join(files, 'summary'),
      RUNNER_TEMP: files,
      // Nothing may come from the registry: npx must find the installed package.
      npm_config_offline: 'true',
    };
    for (const [name, value] of Object.entries(step.env ?? {})) env[name] = expand(value, context);
    expect(step.shell).toBe('bash');
    const run = await runCommand('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], workspace, env);
    job.steps.push({ id: step.id, status: run.code, stdout: run.stdout, stderr: run.stderr });
    context.steps[step.id] = readOutputs(join(files, 'output'));
    if (existsSync(join(files, 'summary'))) job.summary += readFileSync(join(files, 'summary'), 'utf8');
    if (run.code !== 0) {
      job.status = run.code;
      break;
    }
  }
  for (const [name, output] of Object.entries(ACTION.outputs)) job.outputs[name] = expand(output.value, context);
  return job;
}

const git = (...args: string[]) => gitIn(workspace)(...args);
const step = (job: Job, id: string) => job.steps.find((s) => s.id === id)!;

beforeAll(async () => {
  pkg = await installed();
  scratch = mkdtempSync(join(tmpdir(), 'idt-action-'));
  // The repository of a pull request: the bundled tenant's transforms, profile and fixtures on
  // main, and a change of London's region on top.
  workspace = join(scratch, 'repo');
  mkdirSync(workspace);
  createTenantRepository(workspace, { '.gitignore': 'node_modules\n*.sarif\n' });
  git('update-ref', 'refs/remotes/origin/main', 'HEAD');
  git('checkout', '-q', '-b', 'change-region');
  changeLondonRegion(workspace);
  git('commit', '-q', '-am', 'London is its own region');
  symlinkSync(join(pkg.light, 'node_modules'), join(workspace, 'node_modules'));
}, 30 * 60_000);

afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe('action.yml', () => {
  it('is a composite action of bash steps whose inputs reach them through env, never spliced into a script', () => {
    expect(ACTION.runs.using).toBe('composite');
    for (const s of ACTION.runs.steps) {
      expect(s.shell, s.id).toBe('bash');
      expect(s.run, s.id).not.toMatch(/\$\{\{/);
    }
    expect(Object.keys(ACTION.inputs)).toEqual(['paths', 'strict', 'format', 'sarif-file', 'fixtures', 'base-ref', 'fail-on']);
  });

  it('runs the package at its own version', async () => {
    const job = await runAction({ paths: 'transforms/' });
    expect(job.stepOutputs.package).toEqual({ spec: `identity-transforms@${VERSION}` });
  });

  it("runs README's workflow: validates, annotates, writes SARIF for its upload step, the counts and the impact table, and passes a change without new errors", async () => {
    const steps = readmeWorkflow();
    const ours = steps.find((s) => s.uses?.startsWith('identity-transforms/identity-transforms@'))!;
    expect(ours.uses).toBe(`identity-transforms/identity-transforms@v${VERSION}`);
    const upload = steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))!;
    expect(upload.with?.sarif_file).toBe(`\${{ steps.${ours.id}.outputs.sarif-file }}`);
    const job = await runAction(Object.fromEntries(Object.entries(ours.with ?? {}).map(([k, v]) => [k, String(v)])));
    expect(job.steps.map((s) => [s.id, s.status])).toEqual([['package', 0], ['validate', 0], ['impact', 0], ['result', 0]]);
    expect(job.status).toBe(0);
    // The log: validate's annotations, as the runner reads them from stdout.
    expect(step(job, 'validate').stdout).toMatch(/^::warning file=transforms\/location-region\.json,line=5,col=5,title=VALIDATE_LOOKUP_NO_DEFAULT::/m);
    expect(step(job, 'validate').stdout).not.toContain('::error');
    expect(job.outputs).toEqual({ files: `${FILES}`, valid: `${FILES}`, invalid: '0', errors: '0', warnings: '1', 'exit-code': '0', 'impact-exit-code': '0', 'sarif-file': 'identity-transforms.sarif' });
    // The SARIF file for github/codeql-action/upload-sarif.
    const log = JSON.parse(readFileSync(join(workspace, 'identity-transforms.sarif'), 'utf8')) as Log;
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.runs[0]!.originalUriBaseIds).toEqual({ SRCROOT: { uri: pathToFileURL(workspace).href + '/' } });
    expect(log.runs[0]!.results!.map((r) => [r.ruleId, r.level, r.locations![0]!.physicalLocation!.artifactLocation])).toEqual([
      ['VALIDATE_LOOKUP_NO_DEFAULT', 'warning', { uri: 'transforms/location-region.json', uriBaseId: 'SRCROOT' }],
    ]);
    // The job summary: validate's counts, then impact's table per attribute with examples.
    expect(job.summary).toContain(`## Transforms validated\n\n| Files | Valid | Invalid | Errors | Warnings |\n| ---: | ---: | ---: | ---: | ---: |\n| ${FILES} | ${FILES} | 0 | 0 | 1 |\n`);
    expect(job.summary).toContain('| Location Region | changed | transforms/location-region.json |');
    expect(job.summary).toMatch(/\| region \| 209 \| [1-9]\d* \| 0 \| 0 \| 0 \| 0 \| changed transform "Location Region" \|/);
    expect(job.summary).toContain('<details><summary>Examples for <code>region</code></summary>');
  });

  it('fails the job on an invalid transform, with its annotation, SARIF result and counts', async () => {
    writeFileSync(join(workspace, 'transforms/username.json'), JSON.stringify({ name: 'Username', type: 'lower', attributes: { flags: 'x', input: 'a' } }, null, 2));
    try {
      const job = await runAction({ paths: 'transforms/', 'sarif-file': 'results.sarif' });
      expect(job.steps.map((s) => [s.id, s.status])).toEqual([['package', 0], ['validate', 0], ['impact', 0], ['result', 1]]);
      expect(step(job, 'validate').stdout).toMatch(/^::error file=transforms\/username\.json,line=5,col=5,title=SCHEMA_UNKNOWN_PROPERTY::/m);
      expect(job.outputs).toMatchObject({ files: `${TRANSFORMS + 1}`, valid: `${TRANSFORMS}`, invalid: '1', errors: '1', warnings: '1', 'exit-code': '1', 'impact-exit-code': '', 'sarif-file': 'results.sarif' });
      const log = JSON.parse(readFileSync(join(workspace, 'results.sarif'), 'utf8')) as Log;
      expect(log.runs[0]!.results!.map((r) => [r.ruleId, r.level])).toEqual([
        ['VALIDATE_LOOKUP_NO_DEFAULT', 'warning'],
        ['SCHEMA_UNKNOWN_PROPERTY', 'error'],
      ]);
      expect(job.summary).toContain('| transforms/username.json | 5:5 | error | SCHEMA_UNKNOWN_PROPERTY | unknown attribute "flags" (/attributes/flags) |');
      expect(job.summary).not.toContain('Impact of this change');
    } finally {
      rmSync(join(workspace, 'transforms/username.json'));
    }
  });

  it('fails on warnings with strict, and on a usage error at once (exit 2, no later step)', async () => {
    const strict = await runAction({ paths: 'transforms/', strict: 'true', format: 'text' });
    expect(strict.status).toBe(1);
    expect(step(strict, 'validate').stdout).toContain('transforms/location-region.json:5:5 warning VALIDATE_LOOKUP_NO_DEFAULT');
    expect(strict.outputs).toMatchObject({ invalid: '1', warnings: '1', 'exit-code': '1' });
    const missing = await runAction({ paths: 'no-such-dir/' });
    expect(missing.steps.map((s) => [s.id, s.status])).toEqual([['package', 0], ['validate', 2]]);
    expect(step(missing, 'validate').stderr).toContain('CLI_USAGE no such file or directory: no-such-dir/');
    expect(missing.outputs['exit-code']).toBe('2');
  });

  it('takes paths one per line from a multi-line value, so a path may hold spaces, and splits a single line at spaces', async () => {
    const spaced = join(workspace, 'transforms/My Lower.json');
    writeFileSync(spaced, JSON.stringify({ name: 'My Lower', type: 'lower', attributes: { flags: 'x' } }, null, 2));
    try {
      const lines = await runAction({ paths: '  transforms/My Lower.json\n\ntransforms/location-region.json\n', format: 'text' });
      expect(step(lines, 'validate').stdout).toContain('transforms/My Lower.json:5:5 error SCHEMA_UNKNOWN_PROPERTY');
      expect(lines.outputs).toMatchObject({ files: '2', invalid: '1', errors: '1', warnings: '1', 'exit-code': '1' });
      const words = await runAction({ paths: 'transforms/location-region.json  transforms/active-hire-date.json', format: 'text' });
      expect(words.outputs).toMatchObject({ files: '2', invalid: '0', warnings: '1', 'exit-code': '0' });
    } finally {
      rmSync(spaced);
    }
  });
});
