// Streaming a fixture tenant for refresh (memory stays flat whatever the tenant size): identities.json and
// accounts.json are read element by element, never whole. A pre-pass (identity-index.ts) keeps
// where each identity, its accounts and the managers are; the main pass reads records back by
// position, on this thread (records()) or in worker threads (plans(), read with a RecordReader
// over `files`).

import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { codedError } from '../../errors/index.js';
import { cutAtLines, releaseScanBuffers, RunsCursor, scanRange, sharedRanges, takeRange, type ScannedRange, type SharedRanges } from './account-runs.js';
import { RecordReader, type BatchPlan, type TenantFiles, type TenantRecord } from './record-reader.js';
import type { Shard } from '../shard.js';
import { TenantIndex, type TenantScan } from './identity-index.js';

export type { TenantRecord } from './record-reader.js';
export type { TenantScan } from './identity-index.js';

/** Identities per batch of records(). */
const RECORDS_BATCH = 256;
/** How scanned() cuts accounts.json. */
export interface RangeSizes {
  /** accounts.json is scanned in parallel from this size; below it, threads cost more than they save. */
  parallelFrom: number;
  /** The smallest range: taking one costs a message and a read. */
  minRange: number;
}

const RANGE_SIZES: RangeSizes = { parallelFrom: 16 << 20, minRange: 4 << 20 };
/** Ranges per thread: enough that the threads finish together. */
const RANGES_PER_THREAD = 8;

/**
 * Has another thread take and scan ranges (account-runs.ts takeRange, scanRange), posting each
 * one's runs as a ScannedRange on `port`, until none is left.
 */
export type RangeScanner = (ranges: SharedRanges, port: MessagePort) => Promise<unknown>;

/**
 * A tenant directory, scanned. `scan` is ready after construction (the pre-pass ran);
 * records() and plans() are the main pass.
 */
export class TenantStream {
  readonly scan: TenantScan;
  private readonly identitiesFile: string;
  private readonly accountsFile: string;
  private readonly index: TenantIndex;

  constructor(
    readonly dir: string,
    readonly shard: Shard | null = null,
    index?: TenantIndex,
  ) {
    this.identitiesFile = join(dir, 'identities.json');
    this.accountsFile = join(dir, 'accounts.json');
    if (!existsSync(this.identitiesFile)) {
      throw codedError('CLI_FIXTURES', `${dir} has no identities.json`, { details: { file: this.identitiesFile } });
    }
    this.index = index ?? TenantIndex.sequential(this.identitiesFile, this.accountsFile, shard);
    this.scan = this.index.scan;
  }

  /**
   * A stream whose pre-pass has accounts.json scanned by `threads` other threads and this one
   * (account-runs.ts): cut into ranges that the threads take in turn, this thread the first
   * (the walk starts there), then whichever it would otherwise wait for others to reach, as it
   * walks identities.json. A small accounts.json is read on this thread only.
   */
  static async scanned(dir: string, shard: Shard | null, threads: number, scanner: RangeScanner, sizes: RangeSizes = RANGE_SIZES): Promise<TenantStream> {
    const identities = join(dir, 'identities.json');
    const accounts = join(dir, 'accounts.json');
    const size = existsSync(accounts) ? statSync(accounts).size : 0;
    if (size < sizes.parallelFrom || threads < 1 || !existsSync(identities)) return new TenantStream(dir, shard);
    const count = Math.max(1, Math.min(RANGES_PER_THREAD * (threads + 1), Math.floor(size / sizes.minRange)));
    const ranges = sharedRanges(accounts, cutAtLines(accounts, Array<number>(count).fill(size / count)), size);
    const cursor = new RunsCursor(ranges);
    const first = takeRange(ranges);
    const ports: MessagePort[] = [];
    for (let t = 0; t < threads; t++) {
      const { port1, port2 } = new MessageChannel();
      port1.on('message', ({ index, runs }: ScannedRange) => cursor.settle(index, runs));
      ports.push(port1);
      scanner(ranges, port2).catch(() => cursor.abandon());
    }
    try {
      // Let the pool post the tasks before this thread gets busy.
      await new Promise((resolve) => setImmediate(resolve));
      cursor.settle(first, scanRange(ranges, first));
      return new TenantStream(dir, shard, await TenantIndex.overRuns(identities, accounts, shard, cursor));
    } finally {
      releaseScanBuffers();
      for (const port of ports) port.close();
    }
  }

  /** The files and the managers' index, for a RecordReader in another thread. */
  get files(): TenantFiles {
    return { identities: this.identitiesFile, accounts: this.accountsFile, managers: this.index.managers.shared() };
  }

  /** Where the selected identities and their accounts are, in file order, `batchSize` identities a plan. */
  plans(batchSize: number): Generator<BatchPlan, void, undefined> {
    return this.index.plans(batchSize);
  }

  /** The selected identities in file order, each with its accounts and manager, read on this thread. */
  *records(): Generator<TenantRecord, void, undefined> {
    const reader = new RecordReader(this.files);
    try {
      for (const plan of this.plans(RECORDS_BATCH)) yield* reader.records(plan);
    } finally {
      reader.close();
    }
  }
}
