// The native addons of the installed package (re2; better-sqlite3 for the consumer), given to
// `npm install` the way their own install scripts look for a prebuilt binary, so that each
// exact version is compiled from source once on a machine rather than on every test run.
//
// Both packages try a prebuilt binary before compiling, and both accept a local one:
// - re2 (install-artifact-from-github): RE2_DOWNLOAD_MIRROR may be a directory, read as
//   <mirror>/<version>/<platform>-<arch>-<abi> with RE2_DOWNLOAD_SKIP_PATH set; a binary from a
//   mirror is checked by running the package's verify-build script before it is kept
//   (https://github.com/uhop/install-artifact-from-github#readme);
// - better-sqlite3 (prebuild-install): npm_config_better_sqlite3_local_prebuilds names a directory
//   holding better-sqlite3-v<version>-node-v<abi>-<platform>-<arch>.tar.gz, which is unpacked and
//   required before it is kept (https://github.com/prebuild/prebuild-install#readme).
// A version with no binary here is compiled from source, exactly as on a machine that cannot
// download one; what it compiles is kept afterwards. The store is seeded from this checkout's
// node_modules (built by `npm ci`) and lives in the temporary directory like the Java oracle's
// classes (test/e2e/differential/oracle.ts), keyed by version, Node ABI, platform and
// architecture. IDT_E2E_BUILD_ADDONS=1 compiles every addon from source (and keeps nothing).
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const STORE = process.env.IDT_E2E_ADDON_CACHE ?? join(tmpdir(), 'identity-transforms-addons');
const COMPILE = process.env.IDT_E2E_BUILD_ADDONS === '1';

/** The platform as both install scripts name it: `linux`, or `linux-musl` where glibc is absent. */
function platform(): string {
  if (process.platform !== 'linux') return process.platform;
  const header = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header;
  return header.glibcVersionRuntime === undefined ? 'linux-musl' : 'linux';
}

const ABI = process.versions.modules;
const RE2_DIR = join(STORE, 're2');
const SQLITE_DIR = join(STORE, 'better-sqlite3');
const re2Binary = (version: string) => join(RE2_DIR, version, `${platform()}-${process.arch}-${ABI}`);
const sqliteTarball = (version: string) => {
  // prebuild-install names musl as a libc suffix of the platform: linux + musl.
  const name = platform() === 'linux-musl' ? 'linuxmusl' : platform();
  return join(SQLITE_DIR, `better-sqlite3-v${version}-node-v${ABI}-${name}-${process.arch}.tar.gz`);
};

/** The environment that points both install scripts at the store (nothing when compiling). */
export function addonEnv(): NodeJS.ProcessEnv {
  if (COMPILE) return {};
  return { RE2_DOWNLOAD_MIRROR: RE2_DIR, RE2_DOWNLOAD_SKIP_PATH: '1', npm_config_better_sqlite3_local_prebuilds: SQLITE_DIR };
}

const version = (dir: string) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;

/** Keep the compiled addons of a node_modules directory that the store has not got yet. */
export async function keepAddons(nodeModules: string): Promise<void> {
  if (COMPILE) return;
  const re2 = join(nodeModules, 're2');
  const re2Node = join(re2, 'build/Release/re2.node');
  if (existsSync(re2Node) && !existsSync(re2Binary(version(re2)))) {
    const target = re2Binary(version(re2));
    mkdirSync(join(target, '..'), { recursive: true });
    // Copied then renamed: a concurrent run sees the whole binary or none.
    const partial = `${target}.${process.pid}`;
    copyFileSync(re2Node, partial);
    renameSync(partial, target);
  }
  const sqlite = join(nodeModules, 'better-sqlite3');
  if (existsSync(join(sqlite, 'build/Release/better_sqlite3.node')) && !existsSync(sqliteTarball(version(sqlite)))) {
    const target = sqliteTarball(version(sqlite));
    mkdirSync(SQLITE_DIR, { recursive: true });
    const staging = mkdtempSync(join(SQLITE_DIR, '.staging-'));
    try {
      const partial = join(staging, 'addon.tar.gz');
      // The layout prebuild-install unpacks into the package directory.
      await run('tar', ['-czf', partial, '-C', sqlite, 'build/Release/better_sqlite3.node']);
      renameSync(partial, target);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
}
