// Where a snapshot is written: a work directory beside the output, replaced into place only when
// the copy is complete (a failed or interrupted run leaves the previous snapshot as it was), the
// checkpoint that lets an interrupted copy resume, and the manifest of a complete one.

import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { codedError } from '../errors/index.js';
import { readRegularFile } from '../json/read-file.js';
import { writeError } from './array-file-writer.js';
import { CHECKPOINT, MANIFEST } from './layout.js';
import type { MergeProgress } from './records.js';
import { MAX_JSON_DEPTH, checkJsonDepth } from '../json/depth.js';
import { keepMode, replaceDirectory, siblingOf, writeFileWhole } from '../json/write-file.js';

export type SnapshotPart = 'sources' | 'identities' | 'accounts' | 'transforms' | 'profiles';
export const SNAPSHOT_PARTS: readonly SnapshotPart[] = ['sources', 'identities', 'accounts', 'transforms', 'profiles'];

/** What makes two snapshots comparable: --since and a resume require the same. */
export interface SnapshotIdentity {
  tenant: string;
  parts: SnapshotPart[];
  profile: string | null;
  /** A fingerprint of the pseudonymization key (never the key), or null for a plain copy. */
  pseudonymized: string | null;
}

export interface Manifest extends SnapshotIdentity {
  format: 1;
  /** When the copy started (ISO 8601): a later --since fetches what changed from then on. */
  takenAt: string;
  counts: { sources: number; identities: number; accounts: number; transforms: number; profiles: number };
}

export interface Checkpoint extends SnapshotIdentity {
  format: 1;
  takenAt: string;
  done: SnapshotPart[];
  identities: { bytes: number; count: number; lastId: string | null };
  accounts: { bytes: number; count: number };
  counts: Manifest['counts'];
  /** A --since copy: the previous snapshot (its directory and takenAt) and how far the merge got; null for a full copy. */
  since?: { previous: string; previousTakenAt: string; progress: MergeProgress } | null;
}

/** Whether a checkpoint is of the same --since copy (the same previous snapshot), or both are full copies. */
export const sameSince = (checkpoint: Checkpoint, previous: { dir: string; manifest: Manifest } | null): boolean =>
  previous === null ? (checkpoint.since ?? null) === null : checkpoint.since?.previous === previous.dir && checkpoint.since.previousTakenAt === previous.manifest.takenAt;

export const sameIdentity = (a: SnapshotIdentity, b: SnapshotIdentity): boolean =>
  a.tenant === b.tenant && a.profile === b.profile && a.pseudonymized === b.pseudonymized && a.parts.join(',') === b.parts.join(',');

/** The output directory, checked: absent, empty, or a snapshot (never a user's other directory). */
export function checkOutput(out: string): string {
  const dir = resolve(out);
  if (!existsSync(dir)) return dir;
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) throw codedError('SNAPSHOT_OUT', `${out} exists and is not a directory`, { details: { file: out } });
  if (readdirSync(dir).length > 0 && !existsSync(join(dir, MANIFEST))) {
    throw codedError('SNAPSHOT_OUT', `${out} is not empty and holds no ${MANIFEST}: a snapshot replaces only an earlier snapshot or an empty directory`, { details: { file: out } });
  }
  return dir;
}

/** The work directory of an output: beside it (same file system, so the final rename is atomic), a dot name. */
export function workDirectory(out: string): string {
  return siblingOf(out, 'snapshot-partial');
}

/** The hidden directory of an interrupted or failed copy into `out` that can resume (it holds a checkpoint), or null. */
export function partialCopy(out: string): string | null {
  const work = workDirectory(resolve(out));
  return existsSync(join(work, CHECKPOINT)) ? work : null;
}

/**
 * A failed copy's error, saying what became of the copy so far: kept, hidden, with how to resume
 * it or discard it — so that no checkpoint is left behind unannounced.
 */
export function announcePartialCopy<E extends Error>(error: E, out: string): E {
  const work = partialCopy(out);
  if (work !== null) error.message += `; the copy so far is kept in ${work}: the same command resumes it, --restart (resume: false) discards it`;
  return error;
}

/**
 * Bytes a manifest or a checkpoint may hold: each is a few hundred bytes of counts and names.
 * Either is read only when it is a regular file of at most this size: a FIFO in its place held
 * the command in a read that not even SIGTERM ended, and a link to /dev/zero grew it by gigabytes.
 */
export const MAX_STATE_FILE_BYTES = 1024 * 1024;

export function readManifest(dir: string): Manifest {
  const file = join(dir, MANIFEST);
  const notComplete = (why: string, cause?: unknown) => codedError('SNAPSHOT_PREVIOUS', `${dir} is not a complete snapshot: cannot read ${MANIFEST} (${why})`, { cause, details: { file } });
  // A byte-order mark an editor saved is skipped (readRegularFile), as in every JSON file the CLI reads (decision C4).
  const read = readRegularFile(file, MAX_STATE_FILE_BYTES);
  if (!read.ok) throw notComplete(read.message, 'cause' in read ? read.cause : undefined);
  let data: unknown;
  try {
    data = JSON.parse(read.text);
  } catch (error) {
    throw notComplete((error as Error).message, error);
  }
  checkJsonDepth(data, MAX_JSON_DEPTH, file);
  const m = data as Partial<Manifest> | null;
  if (m === null || typeof m !== 'object' || m.format !== 1 || typeof m.takenAt !== 'string' || Number.isNaN(Date.parse(m.takenAt)) || typeof m.tenant !== 'string' || !Array.isArray(m.parts)) {
    throw codedError('SNAPSHOT_PREVIOUS', `${file} is not a snapshot manifest of this version`, { details: { file } });
  }
  return m as Manifest;
}

export function readCheckpoint(work: string): Checkpoint | null {
  try {
    const read = readRegularFile(join(work, CHECKPOINT), MAX_STATE_FILE_BYTES);
    if (!read.ok) return null;
    const c = JSON.parse(read.text) as Checkpoint;
    if (c?.format !== 1 || !Array.isArray(c.done) || typeof c.identities?.bytes !== 'number' || typeof c.accounts?.bytes !== 'number') return null;
    // Files shorter than recorded (written data that never reached the disk, or cut by hand)
    // cannot be continued: extending them would write NUL bytes into the JSON.
    for (const [file, bytes] of [['identities.json', c.identities.bytes], ['accounts.json', c.accounts.bytes]] as const) {
      if (bytes > 0 && (statSync(join(work, file), { throwIfNoEntry: false })?.size ?? 0) < bytes) return null;
    }
    return c;
  } catch {
    return null;
  }
}

/** Write a small JSON file through a temporary name, so that it is either the old or the new one. */
export function writeJsonAtomically(file: string, value: unknown): void {
  try {
    writeFileWhole(file, JSON.stringify(value, null, 2) + '\n');
  } catch (error) {
    throw writeError(file, error);
  }
}

/** An empty directory at `dir`; with `replacing`, with the permissions of the directory it will replace. */
export function freshDirectory(dir: string, replacing?: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    if (replacing !== undefined) keepMode(replacing, dir);
  } catch (error) {
    throw writeError(dir, error);
  }
}

/**
 * Put the completed work directory in place of the output: the old snapshot is renamed aside,
 * the new one renamed in, then the old one removed. Each rename is atomic; if the second fails,
 * the old snapshot is renamed back.
 */
export function replaceOutput(work: string, out: string): void {
  replaceDirectory(work, out, siblingOf(out, 'snapshot-previous'), (message, cause) => codedError('SNAPSHOT_OUT', message, { cause, details: { file: out } }));
}
