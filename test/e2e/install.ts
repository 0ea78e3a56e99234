// The package as a user installs it: `npm run build`, `npm pack`, and `npm install <tarball>`
// into a fresh project, done once per test run however many e2e files ask for it (a directory
// lock in the run's scratch directory; the first caller does the work, the others wait for its
// result). Two projects: `light` installs the package alone, as a CI job that only validates
// does; `consumer` adds the optional peers (fast-check, the server's packages), as a project that
// serves or writes property tests does. Installing needs re2 (and, for the consumer,
// better-sqlite3) compiled: each version is compiled from source once on a machine and found as
// a prebuilt binary afterwards (test/e2e/prebuilt-addons.ts); the npm cache is reused and only
// the npm registry is reached (`--prefer-offline`).
import { execFile, type ExecFileException } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { addonEnv, keepAddons } from './prebuilt-addons.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

export interface Installed {
  /** The consumer project with every optional peer: package.json, node_modules/identity-transforms, node_modules/.bin. */
  consumer: string;
  /** A project that installed the package alone (`npm install identity-transforms`): no optional peer. */
  light: string;
  /** The same package without its optional peer fast-check (a project that only validates). */
  bare: string;
  /** node_modules/.bin/identity-transforms of the consumer. */
  bin: string;
  tarball: string;
  /** An environment for child processes: npm's variables of the parent `npm test` removed. */
  env: NodeJS.ProcessEnv;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run a command to its end: its exit code (-1 when it was killed or could not start) and its output. */
export function runCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, maxBuffer: 32 * 1024 * 1024 }, (error: ExecFileException | null, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

/** The environment a user's shell would have: without the npm_* variables of `npm test`. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) && key !== 'INIT_CWD' && key !== 'NODE_OPTIONS' && !key.startsWith('VITEST') && key !== 'TEST') env[key] = value;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

const manifest = () => JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string>; peerDependencies: Record<string, string> };

const devVersion = (name: string): string => {
  const version = manifest().devDependencies[name];
  if (version === undefined) throw new Error(`${name} is not a dev dependency`);
  return version;
};

async function npm(args: string[], cwd: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<string> {
  try {
    const { stdout } = await run('npm', args, { cwd, env: cleanEnv(extraEnv), maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm ${args.join(' ')} failed in ${cwd}:\n${stderr ?? ''}\n${stdout ?? ''}`.slice(0, 20_000));
  }
}

async function install(scratch: string): Promise<Installed> {
  // Build from the sources of this checkout, then pack exactly what `files` ships.
  await built();
  const packed = JSON.parse(await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], ROOT)) as [{ filename: string }];
  const tarball = join(scratch, packed[0].filename);

  // The native addons compiled before, by this checkout's `npm ci` or an earlier run, are found
  // by their install scripts as a prebuilt binary (test/e2e/prebuilt-addons.ts).
  await keepAddons(join(ROOT, 'node_modules'));
  const light = join(scratch, 'light');
  mkdirSync(light, { recursive: true });
  writeFileSync(join(light, 'package.json'), JSON.stringify({ name: 'light', version: '1.0.0', private: true, type: 'module' }, null, 2));
  await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel', 'error', tarball], light, addonEnv());
  await keepAddons(join(light, 'node_modules'));

  // The consumer starts as a copy of the light project (re2 is built once; a kept scratch
  // directory keeps its consumer, so better-sqlite3 is built once too) and adds every
  // optional peer at the range package.json gives it, and the types a type-checking consumer of
  // /api installs.
  const consumer = join(scratch, 'consumer');
  if (!existsSync(join(consumer, 'node_modules'))) cpSync(light, consumer, { recursive: true, verbatimSymlinks: true });
  const peers = Object.entries(manifest().peerDependencies).map(([name, range]) => `${name}@${name === 'fast-check' ? devVersion(name) : range}`);
  await npm(
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel', 'error', tarball, ...peers, `@types/node@${devVersion('@types/node')}`, `@types/better-sqlite3@${devVersion('@types/better-sqlite3')}`],
    consumer,
    addonEnv(),
  );
  await keepAddons(join(consumer, 'node_modules'));

  // The same installed package without fast-check: its own copy, every other dependency linked
  // from the consumer (Node resolves a linked package from where it really is).
  const bare = join(scratch, 'bare');
  rmSync(bare, { recursive: true, force: true });
  mkdirSync(join(bare, 'node_modules'), { recursive: true });
  writeFileSync(join(bare, 'package.json'), JSON.stringify({ name: 'bare', version: '1.0.0', private: true, type: 'module' }, null, 2));
  for (const entry of readdirSync(join(consumer, 'node_modules'))) {
    if (entry === 'identity-transforms' || entry === 'fast-check' || entry === '.bin' || entry.startsWith('.')) continue;
    symlinkSync(join(consumer, 'node_modules', entry), join(bare, 'node_modules', entry));
  }
  cpSync(join(consumer, 'node_modules/identity-transforms'), join(bare, 'node_modules/identity-transforms'), { recursive: true });

  return { consumer, light, bare, bin: join(consumer, 'node_modules/.bin/identity-transforms'), tarball, env: cleanEnv() };
}

let mine: Promise<Installed> | undefined;
let build: Promise<void> | undefined;

/** The installed package of this test run (installed by the first caller of any test file). */
export function installed(): Promise<Installed> {
  return (mine ??= once(inject('e2eScratch'), 'install', install));
}

/**
 * This checkout built (`npm run build`: dist/ and the playground's page) once per test run, by
 * the first caller of any test file; the install packs that build. A test that runs the command
 * line as a child process runs this build's bin (CLI), as a user runs the installed one, rather
 * than the sources through tsx, which transpiles every module again in each process.
 */
export function built(): Promise<void> {
  return (build ??= once(inject('e2eScratch'), 'build', async () => {
    await npm(['run', 'build'], ROOT);
    return {};
  }).then(() => undefined));
}

/** The bin of this checkout's build (after built()): node_modules/.bin/identity-transforms of a project that installed it. */
export const CLI = join(ROOT, 'bin/identity-transforms.js');

/**
 * A step shared by every test file of the run (they run in separate processes): a directory lock
 * in the run's scratch directory; the first caller does the work and writes its JSON result, the
 * others wait for that result or its failure.
 */
async function once<T>(scratch: string, step: string, work: (scratch: string) => Promise<T>): Promise<T> {
  const done = join(scratch, `${step}.json`);
  const failed = join(scratch, `${step}-failed.txt`);
  let owner = false;
  try {
    if (!existsSync(done)) {
      mkdirSync(join(scratch, `${step}.lock`));
      owner = true;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (owner) {
    try {
      const result = await work(scratch);
      writeFileSync(done, JSON.stringify(result));
      return result;
    } catch (error) {
      writeFileSync(failed, error instanceof Error ? error.message : String(error));
      throw error;
    }
  }
  for (;;) {
    if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8')) as T;
    if (existsSync(failed)) throw new Error(`the shared ${step} step failed (see the first test that ran it):\n${readFileSync(failed, 'utf8')}`);
    await sleep(500);
  }
}
