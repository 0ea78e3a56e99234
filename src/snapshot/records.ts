// The identities and their accounts: copied whole (search in id order with searchAfter, each
// page's accounts fetched in bulk, both written as they arrive), or merged into a previous
// snapshot (--since): the accounts modified since are listed first; then one walk of the
// tenant's identities in id order reads only each one's id, `modified` and account count
// (queryResultFilter), beside the previous files read line by line in the same order. Changed
// identities are fetched again by id, the accounts of identities whose list of accounts changed
// by identity; everything else keeps its previous lines, byte for byte (modified accounts with
// their new line). Memory holds one page and the modified accounts (a --since walk's page holds
// only its small hits; the previous lines are read for a part of it at a time).

import { join } from 'node:path';
import { codedError } from '../errors/index.js';
import { apiCompare, EVERY_DOCUMENT, filtersParam, searchQuery } from '../providers/tenant/queries.js';
import { identityFromDocument, LIST_PAGE_MAX, type TenantProviders } from '../providers/tenant/index.js';
import type { Account, Identity } from '../providers/types.js';
import { ArrayFileReader, type Element, type FilePosition } from './array-file-reader.js';
import type { ArrayFileWriter, Kept } from './array-file-writer.js';
import { accountRecord, compareIds, identityRecord } from './layout.js';
import type { Pseudonymizer } from './pseudonymize.js';

export interface RecordWriters {
  identities: ArrayFileWriter | null;
  accounts: ArrayFileWriter | null;
}

export interface WalkContext {
  providers: TenantProviders;
  pageSize: number;
  /** Identities per page of a merge's walk (its hits are small: id, `modified`, account count). */
  walkPageSize: number;
  pseudonymizer: Pseudonymizer | null;
  signal: AbortSignal | undefined;
  /** After each page is written: identities walked so far, and the last identity id. */
  pageDone: (walked: number, lastId: string) => void | Promise<void>;
}

export interface MergeCounts {
  /** Identities fetched again (new, modified, or with changed accounts): their record, their accounts, or both. */
  fetched: number;
  /** Identities of the previous snapshot the tenant no longer has. */
  deleted: number;
  /** Accounts modified since the previous snapshot, as the tenant listed them. */
  modifiedAccounts: number;
}

/**
 * The pages of `source`, the next one requested while the current one is processed, so that the
 * tenant prepares a page while this side writes the previous one.
 */
async function* ahead<T>(source: AsyncGenerator<T, void, undefined>): AsyncGenerator<T, void, undefined> {
  let next = source.next();
  try {
    for (;;) {
      const current = await next;
      if (current.done) return;
      next = source.next();
      yield current.value;
    }
  } finally {
    // Settle the page in flight before the walk is closed, so that no request is left unawaited.
    await next.catch(() => undefined);
    await source.return(undefined);
  }
}

export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw codedError('SNAPSHOT_ABORTED', 'the snapshot was interrupted; run the same command again to resume it', { cause: signal.reason });
  }
}

const identityText = (ctx: WalkContext, identity: Identity): string => {
  const record = identityRecord(identity);
  return JSON.stringify(ctx.pseudonymizer ? ctx.pseudonymizer.identity(record) : record);
};
const accountText = (ctx: WalkContext, account: Account): string => {
  const record = accountRecord(account);
  return JSON.stringify(ctx.pseudonymizer ? ctx.pseudonymizer.account(record) : record);
};

/** Copy every identity (after `afterId`, when resuming) and its accounts. */
export async function copyRecords(ctx: WalkContext, writers: RecordWriters, afterId: string | null, walkedBefore: number): Promise<void> {
  const { client } = ctx.providers;
  let walked = walkedBefore;
  const pages = ahead(
    client.search<Record<string, unknown>>('identities', searchQuery(EVERY_DOCUMENT), 'id', ctx.pageSize, {
      ...(afterId !== null ? { after: [afterId] } : {}),
      // The account list of each hit is fetched with the accounts themselves.
      queryResultFilter: { excludes: ['accounts'] },
    }),
  );
  for await (const page of pages) {
    checkAborted(ctx.signal);
    const identities = page.map(identityFromDocument);
    const ids = identities.map((i) => i.id);
    const accounts = writers.accounts ? await ctx.providers.fetchAccountsOf(ids) : null;
    checkAborted(ctx.signal);
    await writers.identities?.add(identities.map((i) => identityText(ctx, i)));
    if (accounts) await writers.accounts!.add(ids.flatMap((id) => (accounts.get(id) ?? []).map((a) => accountText(ctx, a))));
    walked += identities.length;
    await ctx.pageDone(walked, ids[ids.length - 1]!);
  }
}

/** Take every element left in a file; how many there were. */
async function drain<T extends { id?: unknown }>(reader: ArrayFileReader<T>): Promise<number> {
  let n = 0;
  for (;;) {
    while (reader.take() !== undefined) n++;
    if (reader.done) return n;
    await reader.fill();
  }
}

/** How far a merge got: the previous files' read positions and the counts so far (a checkpoint resumes from them). */
export interface MergeProgress {
  identities: FilePosition;
  accounts: FilePosition;
  counts: MergeCounts;
}

export const MERGE_START = (): MergeProgress => ({ identities: { bytes: 0, line: 1 }, accounts: { bytes: 0, line: 1 }, counts: { fetched: 0, deleted: 0, modifiedAccounts: 0 } });

/**
 * Modified accounts held as their new lines, at most this many; beyond it, only their owners
 * are kept and those identities' accounts are fetched again (memory stays bounded).
 */
const HELD_ACCOUNTS = 100_000;

interface ModifiedAccount {
  identityId: string;
  /** The account's new line, or null when too many changed to hold them. */
  text: string | null;
}

/**
 * Pages of the modified accounts' listing requested at once: planning waits for the whole list,
 * so its pages are not asked for one round trip after the other.
 */
const LIST_AHEAD = 4;

/** The accounts modified since `since`, by id and by owner. */
async function modifiedAccounts(ctx: WalkContext, since: string): Promise<{ byId: Map<string, ModifiedAccount>; byOwner: Map<string, string[]> }> {
  const byId = new Map<string, ModifiedAccount>();
  const byOwner = new Map<string, string[]>();
  for await (const page of ctx.providers.client.list<Account>('/v3/accounts', { filters: filtersParam(apiCompare('modified', 'ge', since)) }, LIST_PAGE_MAX, { ahead: LIST_AHEAD })) {
    checkAborted(ctx.signal);
    for (const a of page) {
      if (typeof a.identityId !== 'string' || typeof a.id !== 'string') continue;
      byId.set(a.id, { identityId: a.identityId, text: byId.size < HELD_ACCOUNTS ? accountText(ctx, a) : null });
      const owned = byOwner.get(a.identityId);
      if (owned) owned.push(a.id);
      else byOwner.set(a.identityId, [a.id]);
    }
  }
  return { byId, byOwner };
}

interface Planned {
  id: string;
  /** The previous identity line (its bytes), or null to fetch the identity again. */
  identity: Kept | null;
  /** The account lines (previous ones as their bytes), or null to fetch the identity's accounts again. */
  accounts: (string | Kept)[] | null;
}

/** The walk's view of an identity: id, `modified` and the number of its accounts. */
type WalkHit = { id?: unknown; modified?: unknown; accountCount?: unknown };

/**
 * Merge the tenant's changes since `since` into the previous snapshot's identities and accounts,
 * from `progress` (the start, or where an interrupted merge stopped; updated after each page).
 *
 * An identity's record is fetched again when it is new, its `modified` is at or after `since`,
 * or the hit has none. Its accounts are fetched again when their list may have changed: the
 * count differs from the previous snapshot's (one deleted), one of the modified accounts is new
 * to it (added or moved in) or was one of its accounts and now belongs to another identity
 * (moved out). Otherwise its previous account lines are kept, those modified replaced by their
 * new lines, in the previous order, which is the tenant's (an account keeps its place).
 */
export async function mergeRecords(ctx: WalkContext, writers: RecordWriters, previous: string, since: string, progress: MergeProgress, afterId: string | null, walkedBefore: number): Promise<MergeCounts> {
  const { client } = ctx.providers;
  const sinceMs = Date.parse(since);
  const counts = progress.counts;
  const walk = client.search<Record<string, unknown> & WalkHit>('identities', searchQuery(EVERY_DOCUMENT), 'id', ctx.walkPageSize, {
    ...(afterId !== null ? { after: [afterId] } : {}),
    queryResultFilter: { includes: writers.accounts ? ['id', 'modified', 'accountCount'] : ['id', 'modified'] },
  });
  // The walk's first page is asked for while the modified accounts are listed; then always the next one ahead.
  let next = walk.next();
  next.catch(() => undefined);
  const reader = <T extends { id: string }>(file: string, from: FilePosition, members: string[]) =>
    new ArrayFileReader<T>(join(previous, file), { ...(from.bytes > 0 ? { from } : {}), members });
  const prevIdentities = writers.identities ? reader<{ id: string }>('identities.json', progress.identities, ['id']) : null;
  const prevAccounts = writers.accounts ? reader<{ id: string; identityId: string }>('accounts.json', progress.accounts, ['id', 'identityId']) : null;
  // Pages planned whose fetches are in flight, written in walk order.
  const pending: Promise<PlannedPage>[] = [];
  let walked = walkedBefore;
  // The page being written: its two files are written at once, and while they are, the next part
  // is planned and fetched. One page at a time: the next write waits for it (see `written`).
  let writing: Promise<void> = Promise.resolve();
  const write = async (page: PlannedPage) => {
    checkAborted(ctx.signal);
    await Promise.all([writers.identities?.add(page.identityLines), writers.accounts?.add(page.accountLines)]);
    walked += page.walked;
    counts.fetched += page.fetched;
    counts.deleted += page.deleted;
    if (page.identities) progress.identities = page.identities;
    if (page.accounts) progress.accounts = page.accounts;
    // The previous lines written so far are no longer held.
    if (page.identities) prevIdentities?.release(page.identities.bytes);
    if (page.accounts) prevAccounts?.release(page.accounts.bytes);
    // The checkpoint follows the page written whole.
    await ctx.pageDone(walked, page.lastId);
  };
  const written = async (page: PlannedPage) => {
    await writing;
    writing = write(page);
    writing.catch(() => undefined);
  };
  try {
    const modified = writers.accounts ? await modifiedAccounts(ctx, since) : { byId: new Map<string, ModifiedAccount>(), byOwner: new Map<string, string[]>() };
    counts.modifiedAccounts = modified.byId.size;
    for (;;) {
      const current = await next;
      if (current.done) break;
      next = walk.next();
      next.catch(() => undefined);
      checkAborted(ctx.signal);
      // A walk page is planned, fetched and written in parts of pageSize identities: the
      // previous lines held, the fetches in flight and the checkpoint's steps stay that size.
      for (let from = 0; from < current.value.length; from += ctx.pageSize) {
        if (from > 0) checkAborted(ctx.signal);
        const page = current.value.slice(from, from + ctx.pageSize);
        // The previous elements up to the page's last id are read first: planning is then synchronous.
        const lastId = String(page[page.length - 1]!.id);
        await prevIdentities?.fillUntil((p) => compareIds(p.id, lastId) > 0);
        await prevAccounts?.fillUntil((a) => compareIds(a.identityId, lastId) > 0);
        let deleted = 0;
        const plan: Planned[] = [];
        for (const hit of page) {
          const id = String(hit.id);
          let identity: Kept | null = null;
          if (prevIdentities) {
            for (let p = prevIdentities.peek(); p !== undefined && compareIds(p.id, id) < 0; p = prevIdentities.peek()) {
              deleted++;
              prevIdentities.take();
            }
            if (prevIdentities.peek()?.id === id) identity = prevIdentities.take()!;
          }
          const modifiedAt = typeof hit.modified === 'string' ? Date.parse(hit.modified) : NaN;
          if (Number.isNaN(modifiedAt) || modifiedAt >= sinceMs) identity = null;
          let accounts: (string | Kept)[] | null = [];
          if (prevAccounts) {
            // Accounts are grouped by identity in identity order: a deleted identity's group is skipped.
            for (let a = prevAccounts.peek(); a !== undefined && compareIds(a.identityId, id) < 0; a = prevAccounts.peek()) prevAccounts.take();
            const before: Element<{ id: string; identityId: string }>[] = [];
            for (let a = prevAccounts.peek(); a !== undefined && a.identityId === id; a = prevAccounts.peek()) before.push(prevAccounts.take()!);
            accounts = keptAccounts(id, hit, before, modified);
          }
          plan.push({ id, identity, accounts });
        }
        pending.push(fetchPlanned(ctx, writers, plan, { walked: page.length, deleted, identities: prevIdentities?.position ?? null, accounts: prevAccounts?.position ?? null }));
        pending[pending.length - 1]!.catch(() => undefined);
        while (pending.length >= PIPELINE) await written(await pending.shift()!);
      }
    }
    while (pending.length > 0) await written(await pending.shift()!);
    await writing;
    // What the walk did not meet was deleted (the rest of the files is read to check their layout).
    if (prevIdentities) counts.deleted += await drain(prevIdentities);
    if (prevAccounts) await drain(prevAccounts);
  } finally {
    // No request is left unawaited: the fetches in flight and the walk's next page settle first.
    await Promise.allSettled([...pending, next, writing]);
    await walk.return(undefined);
    await prevIdentities?.close();
    await prevAccounts?.close();
  }
  return counts;
}

/**
 * Pages whose fetches are in flight at once: a page's fetches overlap the walk and planning of
 * the next one (each page's own requests run together as well, under the client's concurrency).
 * Deeper pipelines measured no faster on a loaded machine and opened more connections.
 */
const PIPELINE = 2;

/**
 * An identity's previous account lines (those modified replaced by their new lines), or null
 * when its list of accounts may have changed and is fetched again.
 */
function keptAccounts(id: string, hit: WalkHit, before: Element<{ id: string; identityId: string }>[], modified: { byId: Map<string, ModifiedAccount>; byOwner: Map<string, string[]> }): (string | Kept)[] | null {
  if (typeof hit.accountCount !== 'number' || hit.accountCount !== before.length) return null;
  const owned = modified.byOwner.get(id);
  if (owned !== undefined && !owned.every((a) => before.some((b) => b.value.id === a))) return null;
  // The previous lines themselves when none was modified (most identities): no array of their own.
  let lines: (string | Kept)[] | null = null;
  for (let i = 0; i < before.length; i++) {
    const a = before[i]!;
    const m = modified.byId.get(a.value.id);
    if (m === undefined) lines?.push(a);
    else if (m.identityId === id && m.text !== null) (lines ??= before.slice(0, i)).push(m.text);
    else return null;
  }
  return lines ?? before;
}

/** A planned page with its fetched records, as the lines to write, and what the checkpoint records after it. */
interface PlannedPage {
  identityLines: (string | Kept)[];
  accountLines: (string | Kept)[];
  lastId: string;
  walked: number;
  fetched: number;
  deleted: number;
  identities: FilePosition | null;
  accounts: FilePosition | null;
}

/** Fetch what a page's plan needs again, and build its lines. */
async function fetchPlanned(ctx: WalkContext, writers: RecordWriters, plan: Planned[], after: Pick<PlannedPage, 'walked' | 'deleted' | 'identities' | 'accounts'>): Promise<PlannedPage> {
  const identityIds = writers.identities ? plan.filter((p) => p.identity === null).map((p) => p.id) : [];
  const accountIds = plan.filter((p) => p.accounts === null).map((p) => p.id);
  const [fresh, freshAccounts] = await Promise.all([
    identityIds.length > 0 ? ctx.providers.fetchIdentities(identityIds) : Promise.resolve([]),
    accountIds.length > 0 ? ctx.providers.fetchAccountsOf(accountIds) : Promise.resolve(new Map<string, Account[]>()),
  ]);
  const freshIdentities = new Map(fresh.map((i) => [i.id, i]));
  const identityLines: (string | Kept)[] = [];
  const accountLines: (string | Kept)[] = [];
  for (const p of plan) {
    if (writers.identities) {
      const line = p.identity ?? (freshIdentities.has(p.id) ? identityText(ctx, freshIdentities.get(p.id)!) : null);
      // Deleted between the walk and the fetch: left out, as a copy taken now would.
      if (line === null) continue;
      identityLines.push(line);
    }
    if (writers.accounts) for (const a of p.accounts ?? (freshAccounts.get(p.id) ?? []).map((x) => accountText(ctx, x))) accountLines.push(a);
  }
  const fetched = plan.filter((p) => (writers.identities && p.identity === null) || p.accounts === null).length;
  return { ...after, identityLines, accountLines, lastId: plan[plan.length - 1]!.id, fetched };
}
