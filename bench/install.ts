// `npm run bench:install`: what a project that only validates installs, against what it installed
// when the server's packages were runtime dependencies. The package is built and packed from this
// checkout, then installed into two fresh projects, one after the other:
//
//   light: `npm install <tarball>`, what a validate/evaluate/impact project installs now;
//   full:  `npm install <tarball> <every server peer at its range>`: the same packages a
//          project got from every release before the split (the peers were dependencies).
//
// For each: packages installed (folders with a package.json under node_modules, nested ones
// included), the size of node_modules on disk, and the wall time of `npm install`. npm's cache is
// the user's (warm after the first run: registry metadata and tarballs are not downloaded again,
// native modules are compiled again every time), and `--prefer-offline` keeps it so. The load
// average is printed: on a loaded machine the times say little, the counts and sizes do not move.
//
//   npx tsx bench/install.ts [--runs R] [--tarball file.tgz] [--ignore-scripts]
//
// --tarball installs a tarball already packed instead of building and packing this checkout;
// --ignore-scripts leaves out the native builds (re2 in both projects, better-sqlite3 in the
// full one), to compare what npm downloads and unpacks on a machine too loaded to compile.

import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { benchArgs, count, flag, text } from './args.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const values = benchArgs({ runs: count(1), tarball: text(), 'ignore-scripts': flag() });
const { runs } = values;

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> };
// fast-check is the optional peer of /testing, which neither project installed before the split;
// the MCP SDK is the assistant adapter's, which came after it (it was never a dependency).
const NOT_SERVER = new Set(['fast-check', '@modelcontextprotocol/sdk']);
const serverPeers = Object.entries(pkg.peerDependencies).filter(([name]) => !NOT_SERVER.has(name)).map(([name, range]) => `${name}@${range}`);

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', args, { cwd, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

function packages(nodeModules: string): number {
  let count = 0;
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || !entry.isDirectory()) continue;
      const paths = entry.name.startsWith('@') ? readdirSync(join(dir, entry.name)).map((s) => join(dir, entry.name, s)) : [join(dir, entry.name)];
      for (const path of paths) {
        if (existsSync(join(path, 'package.json'))) count++;
        visit(join(path, 'node_modules'));
      }
    }
  };
  visit(nodeModules);
  return count;
}

async function measure(tarball: string, extra: string[]): Promise<{ packages: number; bytes: number; seconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'idt-bench-install-'));
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bench-consumer', version: '1.0.0', private: true }));
    const start = process.hrtime.bigint();
    const scripts = values['ignore-scripts'] ? ['--ignore-scripts'] : [];
    await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel', 'error', ...scripts, tarball, ...extra], dir);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const du = await run('du', ['-sb', join(dir, 'node_modules')]);
    return { packages: packages(join(dir, 'node_modules')), bytes: Number(du.stdout.split('\t')[0]), seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'idt-bench-pack-'));
try {
  let tarball = values.tarball;
  if (tarball === undefined) {
    await npm(['run', 'build'], root);
    const packed = JSON.parse(await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], root)) as [{ filename: string }];
    tarball = join(scratch, packed[0].filename);
  }
  console.log(`# ${values['ignore-scripts'] ? 'native builds left out (--ignore-scripts); ' : ''}${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the start`);
  console.log('| project | packages | node_modules | npm install |');
  console.log('| --- | ---: | ---: | ---: |');
  for (let i = 0; i < runs; i++) {
    for (const [name, extra] of [['light (validate only)', []], ['full (with the server peers)', serverPeers]] as const) {
      const m = await measure(tarball, [...extra]);
      console.log(`| ${name} | ${m.packages} | ${(m.bytes / 1024 / 1024).toFixed(1)} MB | ${m.seconds.toFixed(1)} s |`);
    }
  }
  console.log(`# load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the end`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
