// One version of a tenant's transforms and identity profiles, as impact analysis compares two:
// a directory laid out like a fixture tenant (transforms/*.json, identity-profiles/*.json; its
// other files ignored), a directory of transform and profile files told apart by their shape,
// or `git:<ref>[:<path>]`, the same layout read with git from the repository the command runs in.
// Every file is read within the platform's 400 KB limit for a transform, its size known before
// it is read (a regular file's from fstat, a blob's from git ls-tree); a git version's blobs are
// read by one `git cat-file --batch`, not one process per file.

import { execFileSync } from 'node:child_process';
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { MAX_TRANSFORM_BYTES } from '../engine/validate.js';
import { codedError } from '../errors/index.js';
import { isDirectory, pathInside } from '../json/paths.js';
import { readRegularFile } from '../json/read-file.js';
import { checkIdentityProfile } from '../providers/fixtures.js';
import type { IdentityProfile } from '../providers/types.js';
import type { TransformDocument } from '../providers/types.js';
import { MAX_JSON_DEPTH, checkJsonDepth } from '../json/depth.js';

/** A transform as a version holds it: its name is its key. */
export type NamedTransform = TransformDocument & { name: string };

export interface VersionFile<T> {
  readonly doc: T;
  /** Where it was read: a path relative to the working directory, or `<ref>:<path>` for git. */
  readonly file: string;
}

export interface TransformVersion {
  /** What the user named: a directory or git:<ref>. */
  readonly label: string;
  readonly transforms: ReadonlyMap<string, VersionFile<NamedTransform>>;
  /** Empty when the version holds transforms only; the tenant's profiles are used then. */
  readonly profiles: readonly VersionFile<IdentityProfile>[];
}

/**
 * A file's text as a JSON document, or IMPACT_VERSION naming file:line:column, or JSON_TOO_DEEP.
 * JSON.parse reads first (it reads any depth); jsonc-parser, recursive, only locates an error.
 */
function parseDocument(text: string, file: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    const errors: ParseError[] = [];
    try {
      parseTree(body, errors, { allowTrailingComma: false, disallowComments: true });
    } catch {
      // Nested too deeply for the recursive parser to find where: the file is still not JSON.
    }
    if (errors.length === 0) throw codedError('IMPACT_VERSION', `${file}: not valid JSON`, { details: { file } });
    const { error, offset } = errors[0]!;
    const before = body.slice(0, offset).split('\n');
    const line = before.length;
    const column = before[before.length - 1]!.length + 1;
    throw codedError('IMPACT_VERSION', `${file}:${line}:${column}: not valid JSON (${describeJsonError(printParseErrorCode(error))})`, { details: { file, line, column } });
  }
  checkJsonDepth(value, MAX_JSON_DEPTH, file, body);
  return value;
}

function describeJsonError(code: string): string {
  // jsonc-parser's codes (PropertyNameExpected, …) split into words a person reads.
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

type Kind = 'transform' | 'profile' | 'other';

function kindOf(doc: unknown): Kind {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return 'other';
  const o = doc as Record<string, unknown>;
  if (o.identityAttributeConfig !== null && typeof o.identityAttributeConfig === 'object') return 'profile';
  if (typeof o.type === 'string' && typeof o.name === 'string') return 'transform';
  return 'other';
}

function checkProfileShape(doc: IdentityProfile, file: string): void {
  const problem = checkIdentityProfile(doc);
  if (problem !== null) throw codedError('IMPACT_VERSION', `${file}: the identity profile ${problem.message}`, { path: problem.pointer, details: { file } });
  if (typeof doc.name !== 'string') (doc as { name: string }).name = file.replace(/^.*[\\/:]/, '').replace(/\.json$/, '');
}

/** Files of a version, as (path, text) pairs, before their documents are sorted into kinds. */
interface RawFile {
  file: string;
  text: string;
  /** Where the layout says the file belongs; undefined when its shape decides. */
  expected?: 'transform' | 'profile';
}

function build(label: string, files: readonly RawFile[]): TransformVersion {
  const transforms = new Map<string, VersionFile<NamedTransform>>();
  const profiles: VersionFile<IdentityProfile>[] = [];
  for (const { file, text, expected } of files) {
    const doc = parseDocument(text, file);
    const kind = kindOf(doc);
    if (expected !== undefined && kind !== expected) {
      throw codedError('IMPACT_VERSION', `${file}: expected ${expected === 'transform' ? 'a transform ({"name", "type", "attributes"})' : 'an identity profile (with "identityAttributeConfig")'}`, { details: { file } });
    }
    if (kind === 'transform') {
      const transform = doc as NamedTransform;
      const earlier = transforms.get(transform.name);
      if (earlier) throw codedError('IMPACT_VERSION', `${file}: transform "${transform.name}" is also defined in ${earlier.file}`, { path: '/name', details: { file } });
      transforms.set(transform.name, { doc: transform, file });
    } else if (kind === 'profile') {
      checkProfileShape(doc as IdentityProfile, file);
      profiles.push({ doc: doc as IdentityProfile, file });
    }
  }
  return { label, transforms, profiles };
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}


/** A directory: a fixture-tenant layout when it has transforms/ or identity-profiles/, else its *.json files by shape. */
export function readDirectoryVersion(dir: string, cwd = process.cwd()): TransformVersion {
  const root = resolve(cwd, dir);
  if (!isDirectory(root)) throw codedError('IMPACT_VERSION', `${dir} is not a directory`, { details: { file: dir } });
  // Paths as the user would type them: relative below the working directory, absolute elsewhere.
  const shown = (f: string) => {
    const r = relative(cwd, f);
    return r === '' ? '.' : (pathInside(cwd, f) ?? f);
  };
  // Links are followed only within the version's directory: a version is what its tree holds.
  const realRoot = realpathSync(root);
  const read = (f: string): string => {
    const real = realpathSync(f);
    if (pathInside(realRoot, real) === undefined) {
      throw codedError('IMPACT_VERSION', `${shown(f)} is a link to ${real}, outside the version's directory ${dir}`, { details: { file: shown(f) } });
    }
    const found = readRegularFile(f, MAX_TRANSFORM_BYTES);
    if (found.ok) return found.text;
    throw codedError('IMPACT_VERSION', `${shown(f)} ${found.message}${found.reason === 'too-large' ? ' (the platform rejects transforms above 400 KB)' : ''}`, { details: { file: shown(f) } });
  };
  const transformsDir = join(root, 'transforms');
  const profilesDir = join(root, 'identity-profiles');
  const files: RawFile[] = [];
  if (isDirectory(transformsDir) || isDirectory(profilesDir)) {
    if (isDirectory(transformsDir)) for (const f of jsonFiles(transformsDir)) files.push({ file: shown(f), text: read(f), expected: 'transform' });
    if (isDirectory(profilesDir)) for (const f of jsonFiles(profilesDir)) files.push({ file: shown(f), text: read(f), expected: 'profile' });
  } else {
    for (const f of jsonFiles(root)) files.push({ file: shown(f), text: read(f) });
  }
  return build(dir, files);
}

function git(args: string[], cwd: string): string {
  return gitBytes(args, cwd).toString('utf8');
}

function gitBytes(args: string[], cwd: string, input?: string, maxBuffer = 1 << 30): Buffer {
  try {
    return execFileSync('git', args, { cwd, maxBuffer, ...(input === undefined ? { stdio: ['ignore', 'pipe', 'pipe'] } : { input, stdio: ['pipe', 'pipe', 'pipe'] }) });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim().split('\n')[0] || (error as Error).message;
    throw codedError('IMPACT_VERSION', `git ${args[0]} failed: ${stderr}`, { cause: error });
  }
}

/**
 * `git:<ref>` or `git:<ref>:<path>`: the files under <path> at <ref> (default: the directory
 * `relativeTo` names, as a path inside the repository), laid out as readDirectoryVersion reads a
 * directory.
 */
export function readGitVersion(spec: string, options: { cwd?: string; relativeTo?: string } = {}): TransformVersion {
  const cwd = options.cwd ?? process.cwd();
  const rest = spec.slice('git:'.length);
  const colon = rest.indexOf(':');
  const ref = colon < 0 ? rest : rest.slice(0, colon);
  if (ref === '' || ref.startsWith('-') || /[\s\0]/.test(ref)) throw codedError('IMPACT_OPTION_INVALID', `"${spec}" does not name a git revision (git:<ref> or git:<ref>:<path>)`, { details: { option: 'base' } });
  const top = git(['rev-parse', '--show-toplevel'], cwd).trim();
  let path: string;
  if (colon >= 0) path = rest.slice(colon + 1);
  else path = relative(top, resolve(cwd, options.relativeTo ?? '.'));
  path = path.replace(/\\/g, '/').replace(/^\.\/?/, '').replace(/\/+$/, '');
  const commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], top).trim();
  const prefix = path === '' ? '' : `${path}/`;
  // Each entry: "<mode> <type> <object> <size>\t<path>" (git ls-tree --long), so sizes are known before reading.
  const entries = git(['ls-tree', '-r', '-z', '--long', commit, '--', path === '' ? '.' : path], top)
    .split('\0')
    .filter((line) => line !== '')
    .map((line) => {
      const tab = line.indexOf('\t');
      const [, type, object, size] = line.slice(0, tab).split(/ +/);
      return { file: line.slice(tab + 1), type: type!, object: object!, size: Number(size) };
    });
  // A path named outright must be there: a typo is not the empty version (which falls back to the tenant's transforms).
  if (colon >= 0 && path !== '' && entries.length === 0) {
    throw codedError('IMPACT_VERSION', `${spec}: ${ref} has no file or directory ${path}`, { details: { file: `${ref}:${path}` } });
  }
  const listed = entries.filter((e) => e.type === 'blob' && e.file.endsWith('.json') && e.file.startsWith(prefix));
  const below = (f: string) => f.slice(prefix.length);
  const layout = listed.some((e) => /^(transforms|identity-profiles)\//.test(below(e.file)));
  const wanted = listed.filter((e) => (layout ? /^(transforms|identity-profiles)\/[^/]+$/.test(below(e.file)) : !below(e.file).includes('/'))).sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  for (const e of wanted) {
    if (!(e.size <= MAX_TRANSFORM_BYTES)) {
      throw codedError('IMPACT_VERSION', `${ref}:${e.file} is ${e.size} bytes, over the limit of ${MAX_TRANSFORM_BYTES} (the platform rejects transforms above 400 KB)`, { details: { file: `${ref}:${e.file}` } });
    }
  }
  const texts = readBlobs(wanted, top);
  const files = wanted.map((e, i): RawFile => {
    const expected = !layout ? undefined : below(e.file).startsWith('transforms/') ? 'transform' : 'profile';
    return { file: `${ref}:${e.file}`, text: texts[i]!, ...(expected ? { expected } : {}) };
  });
  return build(spec, files);
}

/**
 * The blobs' texts, in order, from one `git cat-file --batch`: each answer is
 * "<object> blob <size>\n", the content, and "\n" (https://git-scm.com/docs/git-cat-file#_batch_output).
 */
function readBlobs(blobs: readonly { object: string; size: number }[], cwd: string): string[] {
  if (blobs.length === 0) return [];
  const expected = blobs.reduce((n, b) => n + b.size + b.object.length + 32, 0);
  const out = gitBytes(['cat-file', '--batch'], cwd, blobs.map((b) => b.object).join('\n') + '\n', expected + 1024);
  const texts: string[] = [];
  let at = 0;
  for (const blob of blobs) {
    const end = out.indexOf(10, at);
    const header = out.toString('latin1', at, end).split(' ');
    const size = Number(header[2]);
    if (header[0] !== blob.object || header[1] !== 'blob' || size !== blob.size) {
      throw codedError('IMPACT_VERSION', `git cat-file answered "${out.toString('utf8', at, Math.min(end, at + 200))}" for ${blob.object}`);
    }
    texts.push(out.toString('utf8', end + 1, end + 1 + size));
    at = end + 1 + size + 1;
  }
  return texts;
}

/** A version named as the CLI names one: `git:<ref>[:<path>]` or a directory. */
export function readVersion(spec: string, options: { cwd?: string; relativeTo?: string } = {}): TransformVersion {
  return spec.startsWith('git:') ? readGitVersion(spec, options) : readDirectoryVersion(spec, options.cwd);
}
