// The docs as a test: every shell, JavaScript and TypeScript block of README.md, docs/*.md and
// fixtures/README.md runs word for word, in order, in a fresh directory per file that has the
// packed package installed (as a consumer project has it), with node_modules/.bin on PATH as in
// npm scripts. A script block is written to a module file there and run by Node (TypeScript
// through tsx, which strips the types), so its imports resolve to the installed package. The
// directives a block may carry (expected exit code, output, "cannot run here" with the reason)
// are described in test/e2e/markdown-blocks.ts.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, installed, ROOT } from './install.js';
import { type ShellBlock, shellBlocks } from './markdown-blocks.js';

const FILES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`), 'fixtures/README.md'];
const BLOCKS = new Map(FILES.map((file) => [file, shellBlocks(file, readFileSync(join(ROOT, file), 'utf8'), true)]));
/** The runners of script blocks: this checkout's tsx and vitest, as a developer has them. */
const TSX = join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
const SETUP = [...BLOCKS.values()].flat().filter((block) => block.setup);

interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const BLOCK_TIMEOUT_MS = 180_000;

function shell(script: string, cwd: string, env: NodeJS.ProcessEnv, until?: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let stopping = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out after ${BLOCK_TIMEOUT_MS / 1000} s${until ? ` waiting for "${until}"` : ''}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, BLOCK_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (until !== undefined && !stopping && stdout.includes(until)) {
        stopping = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (until !== undefined && !stopping) reject(new Error(`exited (${code ?? signal}) before printing "${until}"\nstdout:\n${stdout}\nstderr:\n${stderr}`));
      else resolve({ code, signal, stdout, stderr });
    });
  });
}

function describeResult(block: ShellBlock, result: Result): string {
  return `${block.file}:${block.line}\n$ ${block.code}\nexit ${result.code ?? result.signal}\nstdout:\n${result.stdout.slice(-4000)}\nstderr:\n${result.stderr.slice(-4000)}`;
}

/** The shell command of a block: its own text, or the command that runs a script block's module file. */
function command(block: ShellBlock, cwd: string): string {
  if (block.script === undefined) return block.code;
  const name = `${block.file.replace(/\W/g, '-')}-${block.line}${block.vitest ? '.test' : ''}.${block.script}`;
  writeFileSync(join(cwd, name), block.code + '\n');
  return block.vitest ? `node ${VITEST} run --root . --dir . ${name}` : `node ${TSX} ${name}`;
}

async function runBlock(block: ShellBlock, cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  const before = block.before === undefined ? '' : `${block.before}\n`;
  if (block.background) {
    // One server per line; `exec` so that SIGTERM reaches the command itself.
    const commands = block.code.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
    expect(commands.length, `${block.file}:${block.line} has no command`).toBeGreaterThan(0);
    for (const command of commands) {
      const result = await shell(`${before}exec ${command}`, cwd, env, block.background.until);
      expect(result.code, describeResult(block, result)).toBe(block.exit);
    }
    return;
  }
  const result = await shell(before + command(block, cwd), cwd, env);
  expect(result.code, describeResult(block, result)).toBe(block.exit);
  if (block.stdout !== undefined) expect(result.stdout, describeResult(block, result)).toContain(block.stdout);
  if (block.stdoutNot !== undefined) expect(result.stdout, describeResult(block, result)).not.toContain(block.stdoutNot);
  if (block.stderr !== undefined) expect(result.stderr, describeResult(block, result)).toContain(block.stderr);
}

for (const [file, blocks] of BLOCKS) {
  if (blocks.length === 0) continue;
  describe(file, () => {
    let dir: string;
    let env: NodeJS.ProcessEnv;

    beforeAll(async () => {
      const { consumer } = await installed();
      // A consumer project: its package.json and the installed package.
      dir = mkdtempSync(join(tmpdir(), 'idt-readme-'));
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'readme-reader', version: '1.0.0', private: true, type: 'module' }, null, 2));
      // The consumer's packages, and vitest for the blocks that are test files.
      mkdirSync(join(dir, 'node_modules'));
      for (const entry of readdirSync(join(consumer, 'node_modules'))) symlinkSync(join(consumer, 'node_modules', entry), join(dir, 'node_modules', entry));
      symlinkSync(join(ROOT, 'node_modules/vitest'), join(dir, 'node_modules/vitest'));
      env = cleanEnv({ PATH: `${join(dir, 'node_modules/.bin')}:${process.env.PATH ?? ''}`, CI: 'true' });
      for (const setup of SETUP.filter((block) => block.file !== file)) await runBlock(setup, dir, env);
    });
    afterAll(() => {
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    for (const block of blocks) {
      const first = block.code.split('\n').find((l) => l.trim() !== '') ?? '';
      const name = `${file}:${block.line} ${first.trim()}`;
      if (block.skip !== undefined) it.skip(`${name} (not run: ${block.skip})`, () => {});
      else it(name, () => runBlock(block, dir, env), BLOCK_TIMEOUT_MS + 10_000);
    }
  });
}
