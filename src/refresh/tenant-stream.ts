// Streaming a fixture tenant for refresh (issue 6 "memory stays flat"): identities.json and
// accounts.json are read element by element, never whole. What is kept in memory:
//  - the managers: the text of every identity some other identity names as managerId
//    ($identity.manager / getManager() reach them), found by two passes over identities.json;
//  - for accounts, nothing when accounts.json lists accounts grouped by identity in the order
//    of identities.json (what gen:tenant and the bundled tenant do): a merge join walks both
//    files together. Otherwise an index of byte ranges per identity, read back with pread.
// The first pass checks which case holds, counts identities (for the progress ETA) and applies
// the shard filter.

import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { codedError } from '../errors.js';
import { JsonArrayReader, parseObjectElement, type ArrayElement } from './json-array-reader.js';
import { shardOf, type Shard } from './shard.js';

/** One identity with everything a refresh evaluation reads, as JSON text (cheap to post to a worker). */
export interface TenantRecord {
  /** Position in identities.json. */
  ordinal: number;
  identityId: string;
  identity: string;
  accounts: string[];
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
  text: string;
  element: ArrayElement;
}

function identityHead(file: string, element: ArrayElement, index: number): { id: string; managerId: string | null } {
  const item = parseObjectElement(file, element, index);
  if (typeof item.id !== 'string') throw codedError('CLI_FIXTURES', `${file}: element ${index} needs a string "id"`, { path: `/${index}/id`, details: { file } });
  if (typeof item.name !== 'string') throw codedError('CLI_FIXTURES', `${file}: element ${index} needs a string "name"`, { path: `/${index}/name`, details: { file } });
  const managerId = typeof item.managerId === 'string' ? item.managerId : null;
  return { id: item.id, managerId };
}

/** A cursor over accounts.json that reads one account ahead. */
class AccountCursor {
  private readonly reader: JsonArrayReader | null;
  head: AccountHead | null = null;
  count = 0;

  constructor(readonly file: string) {
    this.reader = existsSync(file) ? new JsonArrayReader(file) : null;
    this.advance();
  }

  advance(): void {
    const element = this.reader?.next() ?? null;
    if (!element) {
      this.head = null;
      return;
    }
    const index = this.count++;
    const item = parseObjectElement(this.file, element, index);
    for (const key of ['id', 'identityId', 'sourceId']) {
      if (typeof item[key] !== 'string') {
        throw codedError('CLI_FIXTURES', `${this.file}: element ${index} needs a string "${key}"`, { path: `/${index}/${key}`, details: { file: this.file } });
      }
    }
    this.head = { identityId: item.identityId as string, text: element.text, element };
  }

  /** Take the run of accounts of `identityId` at the cursor (empty when the next run is another identity's). */
  take(identityId: string, into: string[] | null): void {
    while (this.head !== null && this.head.identityId === identityId) {
      into?.push(this.head.text);
      this.advance();
    }
  }

  close(): void {
    this.reader?.close();
  }
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

  read(identityId: string): string[] {
    const list = this.ranges.get(identityId);
    if (!list) return [];
    this.fd ??= openSync(this.file, 'r');
    const out: string[] = [];
    for (let i = 0; i < list.length; i += 2) {
      const buffer = Buffer.allocUnsafe(list[i + 1]!);
      readSync(this.fd, buffer, 0, buffer.length, list[i]!);
      out.push(buffer.toString('utf8'));
    }
    return out;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
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
  private readonly managers = new Map<string, string>();
  private offsets: AccountOffsets | null = null;

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
    let total = 0;
    let selected = 0;
    let leftover = 0;
    try {
      for (const element of new JsonArrayReader(this.identitiesFile)) {
        const { id, managerId } = identityHead(this.identitiesFile, element, total++);
        if (managerId !== null) managerIds.add(managerId);
        if (this.inShard(id)) selected++;
        cursor.take(id, null);
      }
      // Accounts left over: the file is not grouped in identity order (or names unknown identities).
      for (; cursor.head; leftover++) cursor.advance();
    } finally {
      cursor.close();
    }
    const merged = leftover === 0;
    if (!merged) this.offsets = new AccountOffsets(this.accountsFile);
    // Pass 2: keep the managers' texts.
    if (managerIds.size > 0) {
      let index = 0;
      for (const element of new JsonArrayReader(this.identitiesFile)) {
        const { id } = identityHead(this.identitiesFile, element, index++);
        if (managerIds.has(id)) this.managers.set(id, element.text);
      }
    }
    return Object.freeze({ total, selected, accounts: cursor.count, accountsIndex: merged ? 'merge' : 'offsets', managers: this.managers.size });
  }

  /** The selected identities in file order, each with its accounts and manager. */
  *records(): Generator<TenantRecord, void, undefined> {
    const cursor = this.offsets ? null : new AccountCursor(this.accountsFile);
    let ordinal = 0;
    try {
      for (const element of new JsonArrayReader(this.identitiesFile)) {
        const index = ordinal++;
        const { id, managerId } = identityHead(this.identitiesFile, element, index);
        if (!this.inShard(id)) {
          cursor?.take(id, null);
          continue;
        }
        let accounts: string[];
        if (cursor) cursor.take(id, (accounts = []));
        else accounts = this.offsets!.read(id);
        yield { ordinal: index, identityId: id, identity: element.text, accounts, manager: managerId === null ? null : (this.managers.get(managerId) ?? null) };
      }
    } finally {
      cursor?.close();
      this.offsets?.close();
    }
  }
}
