// The refresh pre-pass over a fixture tenant (memory stays flat whatever the tenant size): one walk of
// identities.json, joined to accounts.json as it goes, keeps per identity only numbers in
// typed arrays:
//  - where the identity is in identities.json (12 bytes), so that records are read back by
//    position: on the main thread, or by each worker thread for its own batches;
//  - for accounts, when accounts.json lists accounts grouped by identity in the order of
//    identities.json (what gen:tenant and the bundled tenant do), where the identity's run of
//    accounts ends (8 bytes): a merge join, each run read back as one slice. Otherwise byte
//    ranges per account, grouped by identity after a second walk of accounts.json;
//  - the managers (identities some other identity names as managerId; $identity.manager and
//    getManager() reach them): hashed ids with byte ranges (manager-index.ts).
// It reads only the first and last bytes of each element (element-heads.ts), counts identities
// (for the progress ETA) and applies the shard filter. accounts.json is read through a cursor:
// element by element on this thread, or as runs that other threads scanned (account-runs.ts).

import { existsSync } from 'node:fs';
import type { RunsCursor } from './account-runs.js';
import { identityHead, readAccountIdentityId, readIdentityHead } from './element-heads.js';
import { JsonArrayReader } from './json-array-reader.js';
import { hash53, ManagerIndex } from './manager-index.js';
import { FileWindow, PlanBuilder, type BatchPlan } from './record-reader.js';
import { shardOf, type Shard } from '../shard.js';
import { repeatedHashedId, repeatedIdError } from '../../providers/identity-ids.js';

export interface TenantScan {
  /** Identities in identities.json. */
  total: number;
  /** Identities in the selected shard. */
  selected: number;
  /** Accounts in accounts.json. */
  accounts: number;
  /** How accounts are joined to identities. */
  accountsIndex: 'merge' | 'offsets';
  /** Manager identities kept in memory. */
  managers: number;
}

/** What the walk needs from accounts.json, one identity's run at a time. */
export interface AccountsCursor {
  /** The identityId of the account at the cursor; null after the last (or while blocked). */
  head: string | null;
  /** Byte offset just after the last account taken (or of the first account before any). */
  lastEnd: number;
  /** Accounts in the file (complete once the cursor is past the last). */
  readonly count: number;
  /** Waiting for a part of the file another thread is still scanning: await more(). */
  readonly blocked: boolean;
  /** The part scanned elsewhere cannot be used: walk again with a cursor over the file. */
  readonly failed: boolean;
  advance(): void;
  /** Take the run of accounts of `identityId` at the cursor (empty when the next run is another identity's). */
  take(identityId: string): void;
  more(): Promise<void>;
  close(): void;
}

function grown<T extends Float64Array | Uint32Array>(array: T, needed: number): T {
  if (needed <= array.length) return array;
  const bigger = new (array.constructor as new (n: number) => T)(Math.max(needed, array.length * 2));
  bigger.set(array);
  return bigger;
}

/**
 * The first `n` entries of a grown array: a view when little of it is unused, else a copy
 * (a copy of a million identities' positions costs 20 MB more at the pre-pass's peak).
 */
function fitted<T extends Float64Array | Uint32Array>(array: T, n: number): T {
  return (n >= array.length - (array.length >> 3) ? array.subarray(0, n) : array.slice(0, n)) as T;
}

/** A cursor over accounts.json that reads one account ahead, on this thread. */
class AccountCursor implements AccountsCursor {
  private readonly reader: JsonArrayReader | null;
  head: string | null = null;
  count = 0;
  lastEnd = 0;
  readonly blocked = false;
  readonly failed = false;

  constructor(readonly file: string) {
    this.reader = existsSync(file) ? new JsonArrayReader(file) : null;
    this.advance();
    if (this.head !== null) this.lastEnd = this.reader!.offset;
  }

  advance(): void {
    if (!this.reader?.advance()) {
      this.head = null;
      return;
    }
    this.count++;
    this.head = readAccountIdentityId(this.reader);
  }

  /** The byte range of the account at the cursor. */
  get range(): [offset: number, length: number] {
    return [this.reader!.offset, this.reader!.length];
  }

  take(identityId: string): void {
    while (this.head !== null && this.head === identityId) {
      this.lastEnd = this.reader!.offset + this.reader!.length;
      this.advance();
    }
  }

  more(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {
    this.reader?.close();
  }
}

/**
 * Byte ranges of each identity's accounts, for an accounts.json not grouped in identity order:
 * `first[i] … first[i + 1]` index the (offset, length) pairs of identity ordinal i in `ranges`.
 */
interface AccountRanges {
  first: Uint32Array;
  ranges: Float64Array;
}

function accountRanges(accountsFile: string, identitiesFile: string, starts: Float64Array, lengths: Uint32Array, total: number): AccountRanges {
  const byIdentity = new Map<string, number[]>();
  const cursor = new AccountCursor(accountsFile);
  let kept = 0;
  try {
    for (; cursor.head !== null; cursor.advance()) {
      let list = byIdentity.get(cursor.head);
      if (!list) byIdentity.set(cursor.head, (list = []));
      list.push(...cursor.range);
    }
  } finally {
    cursor.close();
  }
  const first = new Uint32Array(total + 1);
  const window = new FileWindow(identitiesFile);
  const lists: (number[] | undefined)[] = [];
  try {
    for (let i = 0; i < total; i++) {
      // The walk checked every identity: this is its fast path or JSON.parse again.
      const element = { text: window.text(starts[i]!, lengths[i]!), offset: starts[i]!, length: lengths[i]! };
      const list = byIdentity.get(identityHead(identitiesFile, element, i).id);
      lists.push(list);
      first[i + 1] = first[i]! + (list?.length ?? 0);
      kept += list?.length ?? 0;
    }
  } finally {
    window.close();
  }
  const ranges = new Float64Array(kept);
  lists.forEach((list, i) => list && ranges.set(list, first[i]!));
  return { first, ranges };
}

/** A walk that met a part of accounts.json scanned elsewhere that it cannot use. */
class RunsUnusable extends Error {}

/** Where everything a refresh reads is, by identity; built by one of the two walks. */
export class TenantIndex {
  scan!: TenantScan;
  readonly managers = new ManagerIndex();
  /** Where each identity is in identities.json, by ordinal. */
  private starts = new Float64Array(1024);
  private lengths = new Uint32Array(1024);
  /** The ordinals of the shard's identities; null when every identity is selected. */
  private selected: Uint32Array | null = null;
  /** Merge join: where each identity's run of accounts ends in accounts.json, by ordinal. */
  private runEnds = new Float64Array(1024);
  private firstAccount = 0;
  /** Otherwise: each identity's accounts. */
  private ranges: AccountRanges | null = null;

  private constructor(
    private readonly identitiesFile: string,
    private readonly accountsFile: string,
    private readonly shard: Shard | null,
  ) {}

  /** The walk on this thread, reading accounts.json alongside. */
  static sequential(identitiesFile: string, accountsFile: string, shard: Shard | null): TenantIndex {
    const index = new TenantIndex(identitiesFile, accountsFile, shard);
    const step = index.walk(new AccountCursor(accountsFile)).next();
    if (!step.done) throw new Error('TenantIndex: the walk over accounts.json waited for another thread');
    index.scan = step.value;
    return index;
  }

  /**
   * The walk over runs of accounts that threads scan meanwhile (account-runs.ts), waiting for
   * each range when it gets there. Anything unexpected, whether a range it cannot use or an
   * error in the data, sends it to the sequential walk, which reports errors in the order it
   * always has.
   */
  static async overRuns(identitiesFile: string, accountsFile: string, shard: Shard | null, runs: RunsCursor): Promise<TenantIndex> {
    const index = new TenantIndex(identitiesFile, accountsFile, shard);
    try {
      const steps = index.walk(runs);
      let step = steps.next();
      while (!step.done) {
        await step.value;
        step = steps.next();
      }
      index.scan = step.value;
      return index;
    } catch {
      return TenantIndex.sequential(identitiesFile, accountsFile, shard);
    }
  }

  /** Walk identities.json and, through the cursor, accounts.json; yields what to wait for when the cursor is blocked. */
  private *walk(cursor: AccountsCursor): Generator<Promise<void>, TenantScan, undefined> {
    const managerIds = new Set<number>();
    const identities = new JsonArrayReader(this.identitiesFile);
    let idHashes = new Float64Array(1024);
    let selected = this.shard === null ? null : new Uint32Array(1024);
    let total = 0;
    let chosen = 0;
    let leftover = 0;
    try {
      while (cursor.blocked) yield cursor.more();
      this.firstAccount = cursor.lastEnd;
      while (identities.advance()) {
        const { id, managerId } = readIdentityHead(identities);
        const ordinal = total++;
        if (total > this.starts.length) {
          this.starts = grown(this.starts, total);
          this.lengths = grown(this.lengths, total);
          this.runEnds = grown(this.runEnds, total);
          idHashes = grown(idHashes, total);
        }
        this.starts[ordinal] = identities.offset;
        this.lengths[ordinal] = identities.length;
        idHashes[ordinal] = hash53(id);
        if (managerId !== null) managerIds.add(hash53(managerId));
        if (selected === null) chosen++;
        else if (shardOf(id, this.shard!.count) === this.shard!.index) {
          selected = grown(selected, chosen + 1);
          selected[chosen++] = ordinal;
        }
        cursor.take(id);
        while (cursor.blocked) {
          yield cursor.more();
          cursor.take(id);
        }
        if (cursor.failed) throw new RunsUnusable();
        this.runEnds[ordinal] = cursor.lastEnd;
      }
      // Accounts left over: the file is not grouped in identity order (or names unknown identities).
      for (;;) {
        while (cursor.blocked) yield cursor.more();
        if (cursor.failed) throw new RunsUnusable();
        if (cursor.head === null) break;
        leftover++;
        cursor.advance();
      }
    } finally {
      identities.close();
      cursor.close();
    }
    this.starts = fitted(this.starts, total);
    this.lengths = fitted(this.lengths, total);
    this.refuseRepeatedIds(idHashes, total);
    this.selected = selected === null ? null : fitted(selected, chosen);
    const merged = leftover === 0;
    if (merged) this.runEnds = fitted(this.runEnds, total);
    else {
      this.runEnds = new Float64Array(0);
      this.ranges = accountRanges(this.accountsFile, this.identitiesFile, this.starts, this.lengths, total);
    }
    // Candidates by hash; a lookup reads each back and compares its id (manager-index.ts).
    if (managerIds.size > 0) for (let i = 0; i < total; i++) if (managerIds.has(idHashes[i]!)) this.managers.addHashed(idHashes[i]!, this.starts[i]!, this.lengths[i]!);
    this.managers.freeze();
    return Object.freeze({ total, selected: chosen, accounts: cursor.count, accountsIndex: merged ? 'merge' : 'offsets', managers: this.managers.size });
  }

  /** Two identities with one id are a CLI_FIXTURES error (identity-ids.ts); ids are read back only where two hashes meet. */
  private refuseRepeatedIds(idHashes: Float64Array, total: number): void {
    const window = new FileWindow(this.identitiesFile);
    try {
      const repeated = repeatedHashedId(idHashes, total, (i) => {
        const element = { text: window.text(this.starts[i]!, this.lengths[i]!), offset: this.starts[i]!, length: this.lengths[i]! };
        return { id: identityHead(this.identitiesFile, element, i).id, index: i, offset: this.starts[i]! };
      });
      if (repeated !== null) throw repeatedIdError(this.identitiesFile, repeated);
    } finally {
      window.close();
    }
  }

  /** Where the selected identities and their accounts are, in file order, `batchSize` identities a plan. */
  *plans(batchSize: number): Generator<BatchPlan, void, undefined> {
    const builder = new PlanBuilder();
    const count = this.selected?.length ?? this.starts.length;
    for (let n = 0; n < count; n++) {
      const i = this.selected ? this.selected[n]! : n;
      if (this.ranges) {
        const { first, ranges } = this.ranges;
        builder.record(i, this.starts[i]!, this.lengths[i]!, (first[i + 1]! - first[i]!) / 2);
        for (let r = first[i]!; r < first[i + 1]!; r += 2) builder.range(ranges[r]!, ranges[r + 1]!);
      } else {
        const from = i === 0 ? this.firstAccount : this.runEnds[i - 1]!;
        const to = this.runEnds[i]!;
        builder.record(i, this.starts[i]!, this.lengths[i]!, to > from ? 1 : 0);
        if (to > from) builder.range(from, to - from);
      }
      if (builder.records === batchSize) yield builder.take();
    }
    if (builder.records > 0) yield builder.take();
  }
}
