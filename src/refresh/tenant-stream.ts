// Streaming a fixture tenant for refresh (issue 6 "memory stays flat"): identities.json and
// accounts.json are read element by element, never whole. What is kept in memory:
//  - the managers: where in identities.json each identity some other identity names as
//    managerId is ($identity.manager / getManager() reach them), found by two passes and read
//    back with pread through a small LRU (reports of one manager tend to be listed together);
//  - for accounts, when accounts.json lists accounts grouped by identity in the order of
//    identities.json (what gen:tenant and the bundled tenant do), where each identity's run of
//    accounts ends (8 bytes per identity): the first pass walks both files together (a merge
//    join) and the main pass reads each run as one slice, without scanning accounts.json again.
//    Otherwise an index of byte ranges per identity, read back with pread.
// The first pass checks which case holds, counts identities (for the progress ETA) and applies
// the shard filter.

import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { codedError } from '../errors.js';
import { JsonArrayReader, parseObjectElement, type ArrayElement } from './json-array-reader.js';
import { ManagerIndex } from './manager-index.js';
import { shardOf, type Shard } from './shard.js';

/** One identity with everything a refresh evaluation reads, as JSON text (cheap to post to a worker). */
export interface TenantRecord {
  /** Position in identities.json. */
  ordinal: number;
  identityId: string;
  identity: string;
  /** The identity's accounts as the text of a JSON array. */
  accounts: string;
  /** The manager identity's text, or null (no managerId, or a managerId that names nobody). */
  manager: string | null;
}

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

interface AccountHead {
  identityId: string;
  element: ArrayElement;
}

/** Enough of an account's text for ACCOUNT_START (two ids and a source id, with room for long ids). */
const ACCOUNT_HEAD_BYTES = 512;

// Fast paths: the join needs only an identity's id and managerId and an account's identityId.
// When the element's text has them where gen:tenant and the platform's exports put them (id
// first; managerId last), anchored patterns read them without building the object: a match
// at the very start (or end) of the element can only be a top-level member, and quoted
// strings without escapes cannot hide a delimiter. Anything else goes through JSON.parse.
const IDENTITY_START = /^\{\s*"id"\s*:\s*"([^"\\]*)"\s*,\s*"name"\s*:\s*"/;
const IDENTITY_MANAGER_END = /"managerId"\s*:\s*(?:null|"([^"\\]*)")\s*\}$/y;
const ACCOUNT_START = /^\{\s*"id"\s*:\s*"[^"\\]*"\s*,\s*"identityId"\s*:\s*"([^"\\]*)"\s*,\s*"sourceId"\s*:\s*"[^"\\]*"/;

function identityHead(file: string, element: ArrayElement, index: number): { id: string; managerId: string | null } {
  const text = element.text;
  const start = IDENTITY_START.exec(text);
  if (start) {
    const at = text.lastIndexOf('"managerId"');
    let before = at - 1;
    while (before > 0 && (text[before] === ' ' || text[before] === '\n' || text[before] === '\r' || text[before] === '\t')) before--;
    if (at > 0 && text[before] === ',') {
      IDENTITY_MANAGER_END.lastIndex = at;
      const end = IDENTITY_MANAGER_END.exec(text);
      if (end) return { id: start[1]!, managerId: end[1] ?? null };
    }
  }
  const item = parseObjectElement(file, element, index);
  if (typeof item.id !== 'string') throw codedError('CLI_FIXTURES', `${file}: element ${index} needs a string "id"`, { path: `/${index}/id`, details: { file } });
  if (typeof item.name !== 'string') throw codedError('CLI_FIXTURES', `${file}: element ${index} needs a string "name"`, { path: `/${index}/name`, details: { file } });
  const managerId = typeof item.managerId === 'string' ? item.managerId : null;
  return { id: item.id, managerId };
}

/** An account's identityId, from the first bytes of its text when they hold it. */
function accountIdentityId(file: string, element: ArrayElement, index: number, fullText: () => string): string {
  const fast = ACCOUNT_START.exec(element.text);
  if (fast) return fast[1]!;
  const item = parseObjectElement(file, { ...element, text: fullText() }, index);
  for (const key of ['id', 'identityId', 'sourceId']) {
    if (typeof item[key] !== 'string') {
      throw codedError('CLI_FIXTURES', `${file}: element ${index} needs a string "${key}"`, { path: `/${index}/${key}`, details: { file } });
    }
  }
  return item.identityId as string;
}

/** A cursor over accounts.json that reads one account ahead. */
class AccountCursor {
  private readonly reader: JsonArrayReader | null;
  head: AccountHead | null = null;
  count = 0;
  /** Byte offset just after the last account taken (or of the first account before any). */
  lastEnd = 0;

  constructor(readonly file: string) {
    this.reader = existsSync(file) ? new JsonArrayReader(file, 1 << 20, ACCOUNT_HEAD_BYTES) : null;
    this.advance();
    if (this.head) this.lastEnd = this.head.element.offset;
  }

  advance(): void {
    const element = this.reader?.next() ?? null;
    if (!element) {
      this.head = null;
      return;
    }
    const index = this.count++;
    const reader = this.reader!;
    this.head = { identityId: accountIdentityId(this.file, element, index, () => reader.fullText()), element };
  }

  /** Take the run of accounts of `identityId` at the cursor (empty when the next run is another identity's). */
  take(identityId: string): void {
    while (this.head !== null && this.head.identityId === identityId) {
      this.lastEnd = this.head.element.offset + this.head.element.length;
      this.advance();
    }
  }

  close(): void {
    this.reader?.close();
  }
}

/**
 * A copy of a string that does not keep its source alive: a regex capture is a slice of the
 * whole element's text, so keeping 100,000 manager ids as captures would keep 100,000
 * identities' texts in memory.
 */
function ownString(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}

function readRange(fd: number, offset: number, length: number): string {
  const buffer = Buffer.allocUnsafe(length);
  readSync(fd, buffer, 0, length, offset);
  return buffer.toString('utf8');
}

/** Byte ranges of each identity's accounts, for an accounts.json not grouped in identity order. */
class AccountOffsets {
  private readonly ranges = new Map<string, number[]>();
  private fd: number | null = null;

  constructor(readonly file: string) {
    const cursor = new AccountCursor(file);
    try {
      while (cursor.head) {
        let list = this.ranges.get(cursor.head.identityId);
        if (!list) this.ranges.set(cursor.head.identityId, (list = []));
        list.push(cursor.head.element.offset, cursor.head.element.length);
        cursor.advance();
      }
    } finally {
      cursor.close();
    }
  }

  /** The identity's accounts as a JSON array text. */
  read(identityId: string): string {
    const list = this.ranges.get(identityId);
    if (!list) return '[]';
    this.fd ??= openSync(this.file, 'r');
    const out: string[] = [];
    for (let i = 0; i < list.length; i += 2) out.push(readRange(this.fd, list[i]!, list[i + 1]!));
    return `[${out.join(',')}]`;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * Reads increasing byte ranges of a file through a forward-moving window: the main pass of a
 * merge join reads each identity's run of accounts as one slice, without scanning it again.
 */
class RunReader {
  private readonly fd: number;
  private buf = Buffer.allocUnsafe(1 << 20);
  private start = 0;
  private end = 0;

  constructor(file: string) {
    this.fd = openSync(file, 'r');
  }

  /** The identity's accounts, bytes [from, to) of accounts.json, as a JSON array text. */
  accounts(from: number, to: number): string {
    if (to <= from) return '[]';
    if (from < this.start || to > this.end) {
      if (this.buf.length < to - from) this.buf = Buffer.allocUnsafe(to - from);
      const n = readSync(this.fd, this.buf, 0, this.buf.length, from);
      this.start = from;
      this.end = from + n;
    }
    const text = this.buf.toString('utf8', from - this.start, to - this.start);
    // The run starts with the separator after the previous identity's accounts (",\n").
    const first = text.indexOf('{');
    return `[${first <= 0 ? text : text.slice(first)}]`;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/**
 * Scan a tenant directory and stream its records. `scan` is ready after construction (the
 * pre-passes ran); `records()` is the main pass and may be iterated once.
 */
export class TenantStream {
  readonly scan: TenantScan;
  private readonly identitiesFile: string;
  private readonly accountsFile: string;
  private readonly managers = new ManagerIndex();
  private offsets: AccountOffsets | null = null;
  /** Merge join: where each identity's run of accounts ends in accounts.json, by ordinal. */
  private runEnds = new Float64Array(1024);
  private firstAccount = 0;

  constructor(
    readonly dir: string,
    readonly shard: Shard | null = null,
  ) {
    this.identitiesFile = join(dir, 'identities.json');
    this.accountsFile = join(dir, 'accounts.json');
    if (!existsSync(this.identitiesFile)) {
      throw codedError('CLI_FIXTURES', `${dir} has no identities.json`, { details: { file: this.identitiesFile } });
    }
    this.scan = this.prepass();
  }

  private inShard(id: string): boolean {
    return this.shard === null || shardOf(id, this.shard.count) === this.shard.index;
  }

  /** Pass 1: count, collect manager ids, check that the merge join consumes every account. */
  private prepass(): TenantScan {
    const managerIds = new Set<string>();
    const cursor = new AccountCursor(this.accountsFile);
    this.firstAccount = cursor.lastEnd;
    let total = 0;
    let selected = 0;
    let leftover = 0;
    try {
      for (const element of new JsonArrayReader(this.identitiesFile)) {
        const { id, managerId } = identityHead(this.identitiesFile, element, total++);
        if (managerId !== null && !managerIds.has(managerId)) managerIds.add(ownString(managerId));
        if (this.inShard(id)) selected++;
        cursor.take(id);
        if (total > this.runEnds.length) {
          const bigger = new Float64Array(this.runEnds.length * 2);
          bigger.set(this.runEnds);
          this.runEnds = bigger;
        }
        this.runEnds[total - 1] = cursor.lastEnd;
      }
      // Accounts left over: the file is not grouped in identity order (or names unknown identities).
      for (; cursor.head; leftover++) cursor.advance();
    } finally {
      cursor.close();
    }
    const merged = leftover === 0;
    if (merged) this.runEnds = this.runEnds.slice(0, total);
    else {
      this.runEnds = new Float64Array(0);
      this.offsets = new AccountOffsets(this.accountsFile);
    }
    // Pass 2: where the managers are.
    if (managerIds.size > 0) {
      let index = 0;
      for (const element of new JsonArrayReader(this.identitiesFile)) {
        const { id } = identityHead(this.identitiesFile, element, index++);
        if (managerIds.has(id)) this.managers.add(id, element.offset, element.length);
      }
    }
    this.managers.freeze();
    return Object.freeze({ total, selected, accounts: cursor.count, accountsIndex: merged ? 'merge' : 'offsets', managers: this.managers.size });
  }

  /** The selected identities in file order, each with its accounts and manager. */
  *records(): Generator<TenantRecord, void, undefined> {
    const runs = this.offsets || !existsSync(this.accountsFile) ? null : new RunReader(this.accountsFile);
    const fd = this.managers.size > 0 ? openSync(this.identitiesFile, 'r') : -1;
    // Reports of one manager tend to be listed together; null (no such identity) is cached too.
    const recent = new LRUCache<string, { text: string | null }>({ max: 1024 });
    const idOf = (text: string) => identityHead(this.identitiesFile, { text, offset: 0, length: text.length }, 0).id;
    const manager = (managerId: string): string | null => {
      let hit = recent.get(managerId);
      if (hit === undefined) recent.set(ownString(managerId), (hit = { text: this.managers.read(fd, managerId, idOf) }));
      return hit.text;
    };
    let ordinal = 0;
    try {
      for (const element of new JsonArrayReader(this.identitiesFile)) {
        const index = ordinal++;
        const { id, managerId } = identityHead(this.identitiesFile, element, index);
        if (!this.inShard(id)) continue;
        let accounts = '[]';
        if (this.offsets) accounts = this.offsets.read(id);
        else if (runs && index < this.runEnds.length) accounts = runs.accounts(index === 0 ? this.firstAccount : this.runEnds[index - 1]!, this.runEnds[index]!);
        yield { ordinal: index, identityId: id, identity: element.text, accounts, manager: managerId === null ? null : manager(managerId) };
      }
    } finally {
      runs?.close();
      this.offsets?.close();
      if (fd !== -1) closeSync(fd);
    }
  }
}
