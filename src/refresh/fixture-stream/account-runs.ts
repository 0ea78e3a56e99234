// The accounts half of the refresh pre-pass in parallel, to use every core: accounts.json is cut
// into byte ranges at line breaks, the threads take ranges in turn and scan each into runs of
// accounts of one identity, and the pre-pass joins identities to those runs as it would to the
// accounts themselves (identity-index.ts).
//
// Why a cut can be trusted: a raw line break never occurs inside a JSON string, so at a cut the
// scan is outside any string; what is assumed is that it is also between two top-level
// elements. Each range is scanned from that assumption (after an element, or after the comma
// that follows one: whichever the last byte before the cut says) and must end in the state
// the next range assumed, never inside an element. The first range starts at the file's start,
// so by induction every assumption holds when every range agrees with the next. When one does
// not (a pretty-printed file cut inside an element), or a range meets anything the sequential
// pre-pass would report (malformed JSON, an account without identityId) or an id that does not
// survive the trip as UTF-8, the pre-pass reads accounts.json itself, sequentially, as it does
// without workers: same results, same errors.
//
// A range's runs are numbers and bytes (the ids' UTF-8), off the heap and transferred: a
// million identities' ids as strings would cost a scanning thread hundreds of MB of heap.

import { closeSync, openSync, readSync } from 'node:fs';
import { readAccountIdentityId } from './element-heads.js';
import { freeNow } from './free-now.js';
import { JsonArrayReader, type ReadRange } from './json-array-reader.js';

type Between = 'after-element' | 'before-element';

/** One range's runs of accounts, each run the consecutive accounts of one identity. */
export interface AccountRuns {
  /** False when the range cannot be used (see the header); the other fields are then empty. */
  ok: boolean;
  /** The state the range's scan assumed at its start ('start' for the file's first range). */
  from: ReadRange['state'];
  /** The state it ended in: 'done' after the array's closing bracket. */
  to: ReadRange['state'] | 'done';
  /** Accounts in the range. */
  count: number;
  /** Byte offset of the range's first account, or -1. */
  first: number;
  /** The runs' identityIds, UTF-8, one after the other: run i's is bytes [idEnds[i - 1] ?? 0, idEnds[i]). */
  ids: Uint8Array;
  idEnds: Uint32Array;
  /** Byte offset just after each run's last account. */
  ends: Float64Array;
}

/**
 * A range's runs as one object shape wherever they come from: scanned on this thread, or
 * received from a scanning thread, whose message builds its objects property by property, with
 * a shape of their own. The walk reads both kinds in the same loop; with two shapes, V8 threw
 * its optimised code for the walk away when the second one came, and compiled it again.
 */
function accountRuns(ok: boolean, from: AccountRuns['from'], to: AccountRuns['to'], count: number, first: number, ids: Uint8Array, idEnds: Uint32Array, ends: Float64Array): AccountRuns {
  return { ok, from, to, count, first, ids, idEnds, ends };
}

/** `runs` (received from another thread) in the shape of this thread's own (accountRuns). */
function sameShape(runs: AccountRuns): AccountRuns {
  return accountRuns(runs.ok, runs.from, runs.to, runs.count, runs.first, runs.ids, runs.idEnds, runs.ends);
}

/** The buffers of a range's runs, for a transfer list. */
export function runBuffers(runs: AccountRuns): ArrayBufferLike[] {
  return [runs.ids.buffer, runs.idEnds.buffer, runs.ends.buffer];
}

/**
 * Free a range's runs now. Their buffers outlive V8's young generation on the walking thread,
 * which allocates little once the walk is over, so garbage collection would free them late:
 * moved to a clone that is dropped at once (its young wrappers go at the next scavenge), they
 * do not add tens of MB to the start of the main pass.
 */
function release(runs: AccountRuns): void {
  freeNow([runs.ids, runs.idEnds, runs.ends]);
}

const LINE_FEED = 0x0a;
function unusable(): AccountRuns {
  return accountRuns(false, 'start', 'start', 0, -1, new Uint8Array(0), new Uint32Array(0), new Float64Array(0));
}

/**
 * Runs as they are found, in growing buffers that a thread reuses from range to range (see
 * spareBuilder): grown anew for each range, the buffers a scanning thread outgrows are garbage
 * off its heap, which its few heap allocations would let pile up to tens of MB per thread
 * before a full collection frees them.
 */
class RunsBuilder {
  ids = Buffer.allocUnsafeSlow(1 << 16);
  idEnds = new Uint32Array(4096);
  ends = new Float64Array(4096);
  size = 0;
  private bytes = 0;
  /**
   * The id of the last run (meaningless while `size` is 0). Always a string: a null after
   * reset() had V8 throw away the scanning loop's optimised code ("not a String") at the first
   * account of each range, and compile it again, in every scanning thread.
   */
  private last = '';

  reset(): this {
    this.size = this.bytes = 0;
    this.last = '';
    return this;
  }

  /** False when the id does not survive the trip as UTF-8 (a lone surrogate, which JSON can spell with an escape). */
  add(id: string, end: number): boolean {
    if (this.size > 0 && id === this.last) {
      this.ends[this.size - 1] = end;
      return true;
    }
    if (this.size === this.ends.length) {
      const outgrown = [this.idEnds, this.ends];
      this.idEnds = grow(this.idEnds);
      this.ends = grow(this.ends);
      freeNow(outgrown);
    }
    if (this.bytes + 3 * id.length > this.ids.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(2 * this.ids.length, this.bytes + 3 * id.length));
      this.ids.copy(bigger, 0, 0, this.bytes);
      freeNow([this.ids]);
      this.ids = bigger;
    }
    const written = this.ids.write(id, this.bytes, 'utf8');
    if (written !== id.length && this.ids.toString('utf8', this.bytes, this.bytes + written) !== id) return false;
    this.bytes += written;
    this.idEnds[this.size] = this.bytes;
    this.ends[this.size++] = end;
    this.last = id;
    return true;
  }

  /** The runs in exactly sized buffers: a range's runs wait in the walking thread's memory until the walk reaches them. */
  runs(from: AccountRuns['from'], to: AccountRuns['to'], count: number, first: number): AccountRuns {
    const ids = new Uint8Array(this.bytes);
    ids.set(this.ids.subarray(0, this.bytes));
    return accountRuns(true, from, to, count, first, ids, this.idEnds.slice(0, this.size), this.ends.slice(0, this.size));
  }
}

function grow<T extends Uint32Array | Float64Array>(array: T): T {
  const bigger = new (array.constructor as new (n: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** Between which states the bytes before `start` put a cut there (null: cannot tell). */
function stateAt(fd: number, start: number): Between | null {
  const look = Buffer.allocUnsafe(Math.min(start, 4096));
  const n = readSync(fd, look, 0, look.length, start - look.length);
  for (let i = n - 1; i >= 0; i--) {
    const b = look[i]!;
    if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) continue;
    // After "[" the array may be empty: leave such files to the sequential pass.
    return b === 0x2c ? 'before-element' : b === 0x5b ? null : 'after-element';
  }
  return null;
}

/** Where a range starts: 'start' at the file's beginning, else what the bytes before it say. */
function startOf(file: string, start: number): ReadRange['state'] | null {
  if (start === 0) return 'start';
  const fd = openSync(file, 'r');
  try {
    return stateAt(fd, start);
  } finally {
    closeSync(fd);
  }
}

/**
 * The accounts from the reader's current one to its range's end, added to `runs`: how many,
 * or -1 when an id cannot be kept. The loop is a function of its own, so that V8 optimises
 * it once as the loop it is: inside scanAccountRuns, its on-stack replacement also compiled
 * the code after the loop, which had never run, and threw it away at each range's end.
 */
function scanRest(reader: JsonArrayReader, runs: RunsBuilder): number {
  let count = 0;
  do {
    count++;
    if (!runs.add(readAccountIdentityId(reader), reader.offset + reader.length)) return -1;
  } while (reader.advance());
  return count;
}

/** Scan bytes [start, end) of accounts.json into runs. */
export function scanAccountRuns(file: string, start: number, end: number): AccountRuns {
  let reader: JsonArrayReader | null = null;
  let builder: RunsBuilder | null = null;
  try {
    const from = startOf(file, start);
    if (from === null) return unusable();
    reader = new JsonArrayReader(file, 1 << 20, Infinity, { start, end, state: from });
    const runs = (spare ?? new RunsBuilder()).reset();
    spare = null;
    builder = runs;
    const first = reader.advance() ? reader.offset : -1;
    const count = first === -1 ? 0 : scanRest(reader, runs);
    return count === -1 ? unusable() : runs.runs(from, reader.stoppedIn as AccountRuns['to'], count, first);
  } catch {
    // The sequential pass reports it, with the element's index in the whole file.
    return unusable();
  } finally {
    // Its read window (1 MB) is not needed by the next range, which reads with a window of its own.
    reader?.release();
    if (builder !== null) spare = builder;
  }
}

/** This thread's builder between two ranges; let go of by releaseScanBuffers() when the pre-pass ends. */
let spare: RunsBuilder | null = null;

/**
 * Free this thread's scan buffers (a few MB): the pre-pass is over. A worker thread's first full
 * collection comes hundreds of batches into the main pass; dropped, they would wait for it.
 */
export function releaseScanBuffers(): void {
  if (spare !== null) freeNow([spare.ids, spare.idEnds, spare.ends]);
  spare = null;
}

/**
 * Where to cut a file of `size` bytes into ranges of about the given sizes: just after a line
 * break near each boundary. Fewer ranges when no line break is near (one element per line is
 * what makes a file cut well).
 */
export function cutAtLines(file: string, sizes: readonly number[]): number[] {
  const cuts = [0];
  const fd = openSync(file, 'r');
  try {
    const look = Buffer.allocUnsafe(1 << 16);
    let target = 0;
    for (const size of sizes.slice(0, -1)) {
      target = Math.floor(target + size);
      const n = readSync(fd, look, 0, look.length, target);
      const lf = look.subarray(0, n).indexOf(LINE_FEED);
      if (lf !== -1 && target + lf + 1 > cuts[cuts.length - 1]!) cuts.push(target + lf + 1);
    }
  } finally {
    closeSync(fd);
  }
  return cuts;
}

/**
 * The ranges of accounts.json, shared by the threads that scan them: each thread takes the
 * next range from a counter in shared memory, so that a thread that started late, or had more
 * to do, simply takes fewer.
 */
export interface SharedRanges {
  file: string;
  /** Where each range starts; range i ends where range i + 1 starts, the last at `size`. */
  cuts: number[];
  size: number;
  /** The next range to take: one Int32 over a SharedArrayBuffer. */
  next: Int32Array<ArrayBufferLike>;
}

export function sharedRanges(file: string, cuts: number[], size: number): SharedRanges {
  return { file, cuts, size, next: new Int32Array(new SharedArrayBuffer(4)) };
}

/** Take the next range to scan: its index, or -1 when every range is taken. */
export function takeRange(ranges: SharedRanges): number {
  const i = Atomics.add(ranges.next, 0, 1);
  return i < ranges.cuts.length ? i : -1;
}

export function scanRange(ranges: SharedRanges, i: number): AccountRuns {
  return scanAccountRuns(ranges.file, ranges.cuts[i]!, ranges.cuts[i + 1] ?? ranges.size);
}

/** A scanned range, as a worker thread posts it. */
export interface ScannedRange {
  index: number;
  runs: AccountRuns;
}

interface Slot {
  /** The range's runs until the walk has left the range (then null: only `to` is still needed). */
  runs: AccountRuns | null;
  /** The state the range's scan ended in, for the next range's joins(). */
  to: AccountRuns['to'] | null;
  settled: boolean;
  done: Promise<void>;
  settle: () => void;
}

/**
 * A cursor over the runs of consecutive ranges, with the interface of the walk's cursor over
 * accounts.json (identity-index.ts). Ranges arrive in any order (settle()) as threads scan them;
 * waiting for one (more()), this thread scans ranges nobody has taken yet. Entering a range
 * checks that it starts in the state the previous one ended in (and that the last ends the
 * array): when one does not, or could not be scanned, the cursor has failed.
 */
export class RunsCursor {
  head: string | null = null;
  lastEnd = 0;
  /** Until the first range is in, there is no head yet. */
  blocked = true;
  failed = false;
  private readonly slots: Slot[];
  private slot = 0;
  private entered = false;
  private run = -1;
  /** The ids of the range entered, as a Buffer to decode from. */
  private ids: Buffer<ArrayBufferLike> = Buffer.alloc(0);
  private accounts = 0;
  private sawAccount = false;

  constructor(private readonly ranges: SharedRanges) {
    this.slots = ranges.cuts.map(() => {
      let settle = () => {};
      const done = new Promise<void>((resolve) => (settle = resolve));
      return { runs: null, to: null, settled: false, done, settle };
    });
  }

  /** Range i is scanned (null: it could not be). */
  settle(i: number, runs: AccountRuns | null): void {
    const slot = this.slots[i];
    if (!slot || slot.settled) return;
    slot.runs = runs === null ? null : sameShape(runs);
    slot.to = runs?.to ?? null;
    slot.settled = true;
    slot.settle();
  }

  /** A scanning thread failed: the ranges still missing never come. */
  abandon(): void {
    for (let i = 0; i < this.slots.length; i++) this.settle(i, null);
  }

  /** Accounts in the ranges entered so far (all of them once the cursor is past the last). */
  get count(): number {
    return this.accounts;
  }

  advance(): void {
    for (;;) {
      const slot = this.slots[this.slot];
      if (!slot) {
        this.head = null;
        return;
      }
      if (!slot.settled) {
        this.blocked = true;
        this.head = null;
        return;
      }
      const runs = slot.runs;
      if (!this.entered) {
        if (!runs || !this.joins(this.slot)) {
          this.failed = true;
          this.head = null;
          return;
        }
        this.entered = true;
        this.ids = Buffer.from(runs.ids.buffer, runs.ids.byteOffset, runs.ids.byteLength);
        this.accounts += runs.count;
        if (!this.sawAccount && runs.first !== -1) {
          this.sawAccount = true;
          this.lastEnd = runs.first;
        }
      }
      if (this.run + 1 < runs!.ends.length) {
        const from = this.run === -1 ? 0 : runs!.idEnds[this.run]!;
        this.run++;
        this.head = this.ids.toString('utf8', from, runs!.idEnds[this.run]);
        return;
      }
      // The walk is past this range: let its runs go (a million identities' ids are tens of MB).
      slot.runs = null;
      release(runs!);
      this.ids = Buffer.alloc(0);
      this.slot++;
      this.entered = false;
      this.run = -1;
    }
  }

  /** Whether range i starts where the one before it ended (the first at the file's start, the last ending the array). */
  private joins(i: number): boolean {
    const runs = this.slots[i]!.runs!;
    if (i === 0 ? runs.from !== 'start' : this.slots[i - 1]!.to !== runs.from) return false;
    return i < this.slots.length - 1 || runs.to === 'done';
  }

  take(identityId: string): void {
    while (this.head !== null && this.head === identityId) {
      this.lastEnd = this.slots[this.slot]!.runs!.ends[this.run]!;
      this.advance();
    }
  }

  /**
   * Resolves when the range the cursor waits for is scanned, the cursor then on its first run.
   * Meanwhile this thread scans the ranges nobody has taken, letting the other threads' ranges
   * in between.
   */
  async more(): Promise<void> {
    const slot = this.slots[this.slot]!;
    while (!slot.settled) {
      const i = takeRange(this.ranges);
      if (i === -1) await slot.done;
      else {
        this.settle(i, scanRange(this.ranges, i));
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    this.blocked = false;
    this.advance();
  }

  close(): void {}
}
