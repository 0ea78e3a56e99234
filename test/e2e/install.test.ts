// The package as a user installs it: packed, installed into a fresh project (test/e2e/install.ts),
// and used the ways its README says — the command through node_modules/.bin and npx, every
// sub-path imported from ESM (and require()), a consumer's strict type check, and the optional
// peer dependency and server dependencies staying out of the way of a project that validates.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Installed, installed, ROOT, type Run, runCommand } from './install.js';
import { moduleTrace } from './module-trace.js';

const run = runCommand;

let pkg: Installed;
let project: string;
const scratchDirs: string[] = [];
afterAll(() => {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const cli = (args: string[], cwd = project) => run(pkg.bin, args, cwd, pkg.env);
const node = (args: string[], cwd = pkg.consumer) => run(process.execPath, args, cwd, pkg.env);

const VALID = { name: 'Lower Department', type: 'lower', attributes: { input: { type: 'identityAttribute', attributes: { name: 'department' } } } };
const INVALID = { name: 'Username', type: 'lower', attributes: { flags: 'x', input: 'a' } };

beforeAll(async () => {
  pkg = await installed();
  // A user's repository that installed the package, with transforms/ holding one valid and one
  // invalid transform.
  project = mkdtempSync(join(tmpdir(), 'idt-install-'));
  scratchDirs.push(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user-repo', version: '1.0.0', private: true }));
  symlinkSync(join(pkg.consumer, 'node_modules'), join(project, 'node_modules'));
  mkdirSync(join(project, 'good'));
  mkdirSync(join(project, 'transforms'));
  writeFileSync(join(project, 'good/department.json'), JSON.stringify(VALID, null, 2));
  writeFileSync(join(project, 'transforms/department.json'), JSON.stringify(VALID, null, 2));
  writeFileSync(join(project, 'transforms/username.json'), JSON.stringify(INVALID, null, 2));
});

describe('the installed command (node_modules/.bin/identity-transforms)', () => {
  it('prints the package version', async () => {
    const result = await cli(['--version']);
    expect(result).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('exits 0 on valid transforms', async () => {
    const result = await cli(['validate', 'good/']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('1 file checked: 1 valid');
  });

  it('exits 1 on invalid ones, naming the file, line and code', async () => {
    const result = await cli(['validate', 'transforms/']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/transforms\/username\.json:\d+:\d+ error SCHEMA_UNKNOWN_PROPERTY/);
  });

  it('exits 2 on a usage error and on no command', async () => {
    const unknown = await cli(['validate', '--no-such-option', 'good/']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('CLI_USAGE');
    expect((await cli([])).code).toBe(2);
    expect((await cli(['no-such-command'])).code).toBe(2);
  });

  it('fails the CI job through npx with GitHub annotations (validate --format github --strict)', async () => {
    // --no: never fetch a package of that name from the registry; the project's own must run.
    const result = await run('npx', ['--no', 'identity-transforms', 'validate', 'transforms/', '--format', 'github', '--strict'], project, pkg.env);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/^::error file=transforms\/username\.json,line=\d+,col=\d+,title=SCHEMA_UNKNOWN_PROPERTY::/m);
  });

  it('refreshes the bundled tenant shipped in node_modules/identity-transforms/fixtures', async () => {
    const result = await cli(['refresh', '--fixtures', 'node_modules/identity-transforms/fixtures', '--summary', '--workers', '0'], pkg.consumer);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/identities +209,/);
  });

  it('refreshes on worker threads, which load the one-file worker module, to the same bytes as on the main thread', async () => {
    const fixtures = 'node_modules/identity-transforms/fixtures';
    const out = (workers: string) => join(project, `refresh-${workers}.ndjson`);
    for (const workers of ['0', '2']) {
      const result = await cli(['refresh', '--fixtures', fixtures, '--out', out(workers), '--workers', workers, '--no-progress'], pkg.consumer);
      expect(result.code, result.stderr).toBe(0);
    }
    expect(readFileSync(out('2'), 'utf8')).toBe(readFileSync(out('0'), 'utf8'));
    // The module the installed pool points its threads at, however npm timed the files it unpacked.
    const refresh = join(pkg.consumer, 'node_modules/identity-transforms/dist/refresh');
    const chosen = await run(process.execPath, ['--input-type=module', '-e', `import { compiledWorker } from ${JSON.stringify(pathToFileURL(join(refresh, 'worker-bundle.js')).href)}; console.log(compiledWorker(${JSON.stringify(pathToFileURL(join(refresh, 'pool.js')).href)}))`], pkg.consumer, pkg.env);
    expect(chosen.stdout.trim(), chosen.stderr).toBe('./worker.bundle.js');
  });

  it('generates a tenant with gen-tenant', async () => {
    const out = join(project, 'tenant');
    const result = await cli(['gen-tenant', '--identities', '20', '--seed', 'install', '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/wrote 20 identities/);
    expect(existsSync(join(out, 'identity-profiles'))).toBe(true);
    expect((await cli(['gen-tenant', '--out', out])).code).toBe(2);
  });
});

describe('the packed files', () => {
  it('ship the bundled tenant, the bin, the playground\'s built page and no source maps pointing at unshipped sources', async () => {
    const listing = await run('tar', ['-tzf', pkg.tarball], ROOT, pkg.env);
    const files = listing.stdout.split('\n').filter(Boolean);
    expect(files).toContain('package/bin/identity-transforms.js');
    expect(files).toContain('package/fixtures/identities.json');
    expect(files).toContain('package/fixtures/identity-profiles/default.json');
    expect(files).toContain('package/schemas/transform.schema.json');
    // The refresh workers' one-file module (scripts/build-worker-bundle.ts).
    expect(files).toContain('package/dist/refresh/worker.bundle.js');
    // The playground's page, built at `npm run build`: the command serves these and nothing else.
    expect(files.filter((f) => f.startsWith('package/dist/play/page/')).sort()).toEqual(['package/dist/play/page/app.css', 'package/dist/play/page/app.js', 'package/dist/play/page/index.html']);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => /sourceMappingURL/.test(f))).toEqual([]);
  });
});

describe('importing the package', () => {
  it('gives every sub-path from ESM', async () => {
    const script = [
      "const root = await import('identity-transforms');",
      "const filter = await import('identity-transforms/filter');",
      "const api = await import('identity-transforms/api');",
      "const testing = await import('identity-transforms/testing');",
      'console.log(JSON.stringify([typeof root.createEngine, typeof root.validateTransform, typeof filter.parseObjectFilter, typeof api.buildServer, typeof testing.arbitraryTransform, typeof testing.writeTenant]));',
    ].join('\n');
    const result = await node(['--input-type=module', '-e', script]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(['function', 'function', 'function', 'function', 'function', 'function']);
  });

  it('evaluates a transform through the root entry', async () => {
    const script = `import { createEngine } from 'identity-transforms';
const engine = createEngine();
console.log(await engine.evaluate({ name: 'Upper', type: 'upper', attributes: { input: 'abc' } }, {}));`;
    const result = await node(['--input-type=module', '-e', script]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('ABC\n');
  });

  it('works with require() where Node can require an ES module, and says to use import for /testing', async () => {
    const ok = await node(['-e', "console.log(typeof require('identity-transforms').createEngine, typeof require('identity-transforms/filter').compilePredicate)"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe('function function\n');
    const testing = await node(['-e', "require('identity-transforms/testing')"]);
    expect(testing.code).toBe(1);
    expect(testing.stderr).toContain("identity-transforms/testing is an ES module and cannot be loaded with require() (it has a top-level await): use import");
  });

  it('says to install fast-check when /testing is imported without it', async () => {
    const result = await node(['--input-type=module', '-e', "await import('identity-transforms/testing')"], pkg.bare);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("identity-transforms/testing needs the fast-check package (an optional peer dependency, >= 4): run 'npm install --save-dev fast-check'");
    // The rest of the package does not need it.
    const root = await node(['--input-type=module', '-e', "const { createEngine } = await import('identity-transforms'); console.log(typeof createEngine)"], pkg.bare);
    expect(root.stdout, root.stderr).toBe('function\n');
  });
});

describe('what a job that only validates loads', () => {
  // Every module Node resolves, recorded by a module hook (it runs before each resolution).
  const SERVER_PACKAGES = /\/node_modules\/(fastify|@fastify\/[^/]+|better-sqlite3|jose|pino|fast-check)\//;
  async function loaded(args: string[], cwd: string): Promise<{ result: Run; urls: string[] }> {
    const dir = mkdtempSync(join(tmpdir(), 'idt-trace-'));
    scratchDirs.push(dir);
    const trace = moduleTrace(dir);
    const result = await run(process.execPath, ['--import', trace.register, ...args], cwd, pkg.env);
    return { result, urls: trace.urls() };
  }

  it('runs validate without loading Fastify, better-sqlite3, jose, pino or fast-check', async () => {
    const { result, urls } = await loaded([pkg.bin, 'validate', 'transforms/', '--format', 'github'], project);
    expect(result.code, result.stderr).toBe(1);
    expect(urls.some((url) => url.includes('/identity-transforms/dist/cli/validate.js'))).toBe(true);
    expect(urls.filter((url) => SERVER_PACKAGES.test(url))).toEqual([]);
  });

  it('imports the root entry and validates without them either', async () => {
    const script = `import { validateTransform } from 'identity-transforms';
console.log(validateTransform(${JSON.stringify(VALID)}).valid);`;
    const { result, urls } = await loaded(['--input-type=module', '-e', script], pkg.consumer);
    expect(result.stdout, result.stderr).toBe('true\n');
    expect(urls.some((url) => url.includes('/identity-transforms/dist/index.js'))).toBe(true);
    expect(urls.filter((url) => SERVER_PACKAGES.test(url))).toEqual([]);
  });

  it('loads them for /api (the hook sees what it should)', async () => {
    const { result, urls } = await loaded(['--input-type=module', '-e', "await import('identity-transforms/api')"], pkg.consumer);
    expect(result.code, result.stderr).toBe(0);
    expect(urls.some((url) => /\/node_modules\/fastify\//.test(url))).toBe(true);
  });
});

describe("a consumer's type check", () => {
  it('passes with moduleResolution nodenext and skipLibCheck false, every sub-path imported', async () => {
    const dir = join(pkg.consumer, 'typed');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, skipLibCheck: false, noEmit: true, types: ['node'] },
        include: ['consumer.ts'],
      }),
    );
    writeFileSync(
      join(dir, 'consumer.ts'),
      `import { createEngine, loadFixtures, validateTransform, type TransformDocument, type Engine } from 'identity-transforms';
import { compilePredicate, parseObjectFilter } from 'identity-transforms/filter';
import { buildServer, type ServerOptions, Store } from 'identity-transforms/api';
import { arbitraryTransform, checkTransform, writeTenant } from 'identity-transforms/testing';

const transform: TransformDocument = { name: 'Lower', type: 'lower', attributes: { input: 'A' } };
const engine: Engine = createEngine();
const valid: boolean = validateTransform(transform).valid;
const predicate = compilePredicate(parseObjectFilter('nativeIdentity == "x"'));
const options: ServerOptions | undefined = undefined;
export { engine, valid, predicate, options, buildServer, Store, arbitraryTransform, checkTransform, writeTenant, loadFixtures };
`,
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await node([tsc, '-p', join(dir, 'tsconfig.json')], dir);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});
