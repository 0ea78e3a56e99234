// Reading a batch of tenant records from where the pre-pass found them:
// the same code on the main thread (no workers) and in each worker thread, which reads its
// batches' bytes from the files itself, so that the main thread only indexes and posts a few
// numbers per identity.

import { closeSync, openSync, readSync } from 'node:fs';
import { LRUCache } from 'lru-cache';
import { codedError } from '../../errors/index.js';
import { identityHead } from './element-heads.js';
import { ManagerIndex, type SharedManagerIndex } from './manager-index.js';

/** One identity with everything a refresh evaluation reads, as JSON text. */
export interface TenantRecord {
  /** Position in identities.json. */
  ordinal: number;
  identityId: string;
  identity: string;
  /** The identity's accounts as the text of a JSON array. */
  accounts: string;
  /** The manager identity's text, or null (no managerId, or a managerId that names nobody). */
  manager: string | null;
  /** Where the record is, to locate an error in it: the identity's byte offset in identities.json… */
  offset?: number;
  /** …and the plan holding its accounts' byte ranges (`ranges` pairs from `rangesAt`). */
  plan?: BatchPlan;
  rangesAt?: number;
}

/**
 * Where a batch's records are, as one Float64Array (transferred to a worker, not copied): per
 * record `ordinal, identity offset, identity length, n`, then `n` byte ranges `offset, length`
 * of its accounts in accounts.json. A range may start with the array's separator (a comma and
 * whitespace): a merge join's single range is the identity's whole run of accounts, from the
 * end of the previous identity's run.
 */
export type BatchPlan = Float64Array;

/** What a reader needs: the two files and the managers' index (shared memory, so cheap to post). */
export interface TenantFiles {
  identities: string;
  accounts: string;
  managers: SharedManagerIndex;
}

/** Builds a BatchPlan. */
export class PlanBuilder {
  private data = new Float64Array(4096);
  private size = 0;
  records = 0;

  /** Start a record; its account ranges follow with range(). */
  record(ordinal: number, offset: number, length: number, ranges: number): void {
    this.reserve(4 + 2 * ranges);
    const d = this.data;
    d[this.size++] = ordinal;
    d[this.size++] = offset;
    d[this.size++] = length;
    d[this.size++] = ranges;
    this.records++;
  }

  range(offset: number, length: number): void {
    this.data[this.size++] = offset;
    this.data[this.size++] = length;
  }

  /** The plan, exactly sized (its buffer can be transferred); the builder starts over. */
  take(): BatchPlan {
    const plan = this.data.slice(0, this.size);
    this.size = 0;
    this.records = 0;
    return plan;
  }

  private reserve(n: number): void {
    if (this.size + n <= this.data.length) return;
    const bigger = new Float64Array(Math.max(this.data.length * 2, this.size + n));
    bigger.set(this.data.subarray(0, this.size));
    this.data = bigger;
  }
}

const COMMA = 0x2c;
function isSeparator(b: number): boolean {
  return b === COMMA || b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/** A batch's span of a file is read at once up to this size (a shard's batch spans more of it). */
const SPAN_BYTES = 16 << 20;

/**
 * Reads increasing byte ranges of a file through a forward-moving window of at least 1 MiB, or
 * exactly a batch's span of the file, so that a batch's identities (or runs of accounts), which
 * follow each other, cost one read. The descriptor is opened on first use and closed by close()
 * (the window is read again after).
 */
export class FileWindow {
  private descriptor = -1;
  private buf = Buffer.allocUnsafe(1 << 20);
  private start = 0;
  private end = 0;

  constructor(readonly file: string) {}

  get fd(): number {
    if (this.descriptor === -1) {
      try {
        this.descriptor = openSync(this.file, 'r');
      } catch (error) {
        throw codedError('CLI_READ', `cannot read ${this.file}: ${(error as Error).message}`, { cause: error, details: { file: this.file } });
      }
    }
    return this.descriptor;
  }

  /** Bytes [offset, offset + length) as UTF-8 text. */
  text(offset: number, length: number): string {
    if (length <= 0) return '';
    if (offset < this.start || offset + length > this.end) this.fill(offset, length);
    const from = offset - this.start;
    return this.buf.toString('utf8', from, from + length);
  }

  /** Copy bytes [offset, offset + length), leading array separators left out, into `target` at `at`; returns the end. */
  copy(offset: number, length: number, target: Buffer, at: number): number {
    if (length <= 0) return at;
    if (offset < this.start || offset + length > this.end) this.fill(offset, length);
    let from = offset - this.start;
    const to = from + length;
    while (from < to && isSeparator(this.buf[from]!)) from++;
    return at + this.buf.copy(target, at, from, to);
  }

  /** Read bytes [from, to) now, when they are not in the window and not too many. */
  span(from: number, to: number): void {
    if (to > from && to - from <= SPAN_BYTES && (from < this.start || to > this.end)) this.fill(from, to - from, to - from);
  }

  private fill(offset: number, length: number, read = Math.max(length, 1 << 20)): void {
    if (this.buf.length < read) this.buf = Buffer.allocUnsafe(read);
    const n = readSync(this.fd, this.buf, 0, read, offset);
    if (n < length) throw codedError('CLI_READ', `${this.file} changed while it was being read (byte ${offset + n})`, { details: { file: this.file, offset: offset + n } });
    this.start = offset;
    this.end = offset + n;
  }

  close(): void {
    if (this.descriptor !== -1) closeSync(this.descriptor);
    this.descriptor = -1;
    this.start = this.end = 0;
  }
}

/**
 * A copy of a string that does not keep its source alive: a regex capture is a slice of the
 * whole identity's text, which an LRU key would otherwise keep in memory.
 */
function ownString(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}

/** Turns batch plans into records: the identities' and accounts' texts, and each manager's. */
export class RecordReader {
  private readonly identities: FileWindow;
  private readonly accounts: FileWindow;
  private readonly managers: ManagerIndex;
  // Reports of one manager tend to be listed together; null (no such identity) is cached too.
  private readonly recent = new LRUCache<string, { text: string | null }>({ max: 1024 });
  private readonly idOf: (text: string) => string;
  /** Where accountsArray() gathers an identity's accounts. */
  private gathered = Buffer.allocUnsafeSlow(1 << 14);

  constructor(readonly files: TenantFiles) {
    this.identities = new FileWindow(files.identities);
    this.accounts = new FileWindow(files.accounts);
    this.managers = ManagerIndex.fromShared(files.managers);
    this.idOf = (text) => identityHead(files.identities, { text, offset: 0, length: text.length }, 0).id;
  }

  /** The plan's records, read one at a time as the iteration asks for them. */
  *records(plan: BatchPlan): Generator<TenantRecord, void, undefined> {
    this.readSpans(plan);
    for (let i = 0; i < plan.length; ) {
      const ordinal = plan[i]!;
      const offset = plan[i + 1]!;
      const length = plan[i + 2]!;
      const ranges = plan[i + 3]!;
      i += 4;
      const identity = this.identities.text(offset, length);
      const { id, managerId } = identityHead(this.files.identities, { text: identity, offset, length }, ordinal);
      const rangesAt = i;
      const accounts = ranges === 0 ? '[]' : this.accountsArray(plan, i, ranges);
      i += 2 * ranges;
      yield { ordinal, identityId: id, identity, accounts, manager: managerId === null ? null : this.manager(managerId), offset, plan, rangesAt };
    }
  }

  /**
   * The identity's accounts as the text of one JSON array, decoded once from bytes gathered in
   * a reused buffer: brackets and commas joined to decoded text would make a string that
   * JSON.parse copies flat again, twice the text's bytes of garbage for every identity.
   */
  private accountsArray(plan: BatchPlan, at: number, ranges: number): string {
    let bytes = 2 + ranges - 1;
    for (let r = 0; r < ranges; r++) bytes += Math.max(0, plan[at + 2 * r + 1]!);
    if (this.gathered.length < bytes) this.gathered = Buffer.allocUnsafeSlow(Math.max(bytes, 2 * this.gathered.length));
    const target = this.gathered;
    target[0] = 0x5b;
    let end = 1;
    for (let r = 0; r < ranges; r++) {
      if (r > 0) target[end++] = 0x2c;
      end = this.accounts.copy(plan[at + 2 * r]!, plan[at + 2 * r + 1]!, target, end);
    }
    target[end++] = 0x5d;
    return target.toString('utf8', 0, end);
  }

  /** Read the plan's span of each file at once: for a merge join's batch, one read per file. */
  private readSpans(plan: BatchPlan): void {
    let identitiesFrom = Infinity;
    let identitiesTo = 0;
    let accountsFrom = Infinity;
    let accountsTo = 0;
    for (let i = 0; i < plan.length; ) {
      identitiesFrom = Math.min(identitiesFrom, plan[i + 1]!);
      identitiesTo = Math.max(identitiesTo, plan[i + 1]! + plan[i + 2]!);
      const ranges = plan[i + 3]!;
      for (let r = i + 4; r < i + 4 + 2 * ranges; r += 2) {
        accountsFrom = Math.min(accountsFrom, plan[r]!);
        accountsTo = Math.max(accountsTo, plan[r]! + plan[r + 1]!);
      }
      i += 4 + 2 * ranges;
    }
    this.identities.span(identitiesFrom, identitiesTo);
    this.accounts.span(accountsFrom, accountsTo);
  }

  private manager(managerId: string): string | null {
    let hit = this.recent.get(managerId);
    if (hit === undefined) this.recent.set(ownString(managerId), (hit = { text: this.managers.read(this.identities.fd, managerId, this.idOf) }));
    return hit.text;
  }

  /** Close the files (they are opened again by the next read). */
  close(): void {
    this.identities.close();
    this.accounts.close();
  }
}
