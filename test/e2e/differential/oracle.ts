// The Java side of the differential suite: finds java, javac and the jars (Apache Velocity 1.7,
// Commons Lang 3, Gson — Debian's `velocity`, `libcommons-lang3-java`, `libgoogle-gson-java`),
// compiles oracle/*.java into a cache directory keyed by the sources and the class path (so it is
// recompiled only when they change), and runs one JVM for a whole run, talking JSON lines.

import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** What Java answered: a string, a list of strings (split), or an exception's class name. */
export type JavaOutcome =
  | { readonly ok: string }
  | { readonly list: readonly string[] }
  | { readonly error: string; readonly cause?: string };

const SOURCES = join(dirname(fileURLToPath(import.meta.url)), 'oracle');
const JAR_DIR = process.env.DIFF_JAR_DIR ?? '/usr/share/java';
const JARS = ['velocity.jar', 'commons-collections3.jar', 'commons-lang.jar', 'commons-lang3.jar', 'gson.jar'];

function hasCommand(name: string): boolean {
  return spawnSync(name, ['-version'], { stdio: 'ignore' }).status === 0;
}

/** Why the oracle cannot run here, or undefined when it can. */
export function oracleUnavailable(): string | undefined {
  if (!hasCommand('java') || !hasCommand('javac')) return 'java/javac not found';
  const missing = JARS.filter((j) => !existsSync(join(JAR_DIR, j)));
  return missing.length > 0 ? `missing jars in ${JAR_DIR}: ${missing.join(', ')}` : undefined;
}

function classPath(extra?: string): string {
  return [...(extra ? [extra] : []), ...JARS.map((j) => join(JAR_DIR, j))].join(':');
}

/** Compile the oracle unless a cached build of the same sources and class path exists. */
export function compileOracle(): string {
  const files = readdirSync(SOURCES).filter((f) => f.endsWith('.java')).sort();
  const hash = createHash('sha256').update(classPath());
  for (const f of files) hash.update(f).update(readFileSync(join(SOURCES, f)));
  const root = process.env.DIFF_CACHE_DIR ?? join(tmpdir(), 'identity-transforms-oracle');
  const out = join(root, hash.digest('hex').slice(0, 16));
  if (existsSync(join(out, 'Oracle.class'))) return out;
  const staging = `${out}.${process.pid}`;
  mkdirSync(staging, { recursive: true });
  const r = spawnSync('javac', ['-nowarn', '-d', staging, '-cp', classPath(), ...files.map((f) => join(SOURCES, f))], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`javac failed:\n${r.stderr}`);
  }
  // Another run may have finished the same build meanwhile: either copy is good.
  if (existsSync(out)) rmSync(staging, { recursive: true, force: true });
  else renameSync(staging, out);
  return out;
}

/** One JVM answering cases in order; ask() may be called concurrently (answers match by id). */
export class JavaOracle {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending = new Map<number, (o: JavaOutcome) => void>();
  private nextId = 1;
  private failure: Error | undefined;

  private constructor(classes: string) {
    this.child = spawn('java', ['-Xss8m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-cp', classPath(classes), 'Oracle'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    this.child.stderr.on('data', (d: Buffer) => (stderr += d.toString()).slice(-4000));
    this.child.on('exit', (code) => {
      this.failure = new Error(`the Java oracle exited (${code}): ${stderr}`);
      for (const resolve of this.pending.values()) resolve({ error: 'oracle exited' });
      this.pending.clear();
    });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const { id, ...outcome } = JSON.parse(line) as { id: number } & JavaOutcome;
      const resolve = this.pending.get(id);
      this.pending.delete(id);
      resolve?.(outcome as JavaOutcome);
    });
  }

  static start(): JavaOracle {
    return new JavaOracle(compileOracle());
  }

  ask(kind: string, fields: Record<string, unknown>): Promise<JavaOutcome> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.stdin.write(JSON.stringify({ ...fields, id, kind }) + '\n');
    });
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    await new Promise((resolve) => (this.child.exitCode === null ? this.child.once('exit', resolve) : resolve(undefined)));
  }
}
