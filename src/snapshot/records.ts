// The identities and their accounts: copied whole (search in id order with searchAfter, each
// page's accounts fetched in bulk, both written as they arrive), or merged into a previous
// snapshot (--since): one walk of the tenant's identity ids in id order, with each identity's
// `modified` and account ids (queryResultFilter), beside the previous files read line by line
// in the same order. Only identities that are new, modified, or whose accounts changed are
// fetched; the rest keep their previous lines, byte for byte. Memory holds one page.
// The walk reads whole hits (the identity and its account ids): fetching the changed identities
// again by id would cost a search per 50 of them, and a search for ids is no cheaper per hit
// than a page of the walk.

import { join } from 'node:path';
import { codedError } from '../errors/index.js';
import { apiCompare, EVERY_DOCUMENT, filtersParam, searchQuery } from '../providers/tenant/queries.js';
import { identityFromDocument, type TenantProviders } from '../providers/tenant/index.js';
import type { Account, Identity } from '../providers/types.js';
import { accountRecord, compareIds, identityRecord, readArrayFile, type ArrayFileWriter, type Element } from './layout.js';
import type { Pseudonymizer } from './pseudonymize.js';

export interface RecordWriters {
  identities: ArrayFileWriter | null;
  accounts: ArrayFileWriter | null;
}

export interface WalkContext {
  providers: TenantProviders;
  pageSize: number;
  pseudonymizer: Pseudonymizer | null;
  signal: AbortSignal | undefined;
  /** After each page is written: identities walked so far, and the last identity id. */
  pageDone: (walked: number, lastId: string) => void | Promise<void>;
}

export interface MergeCounts {
  /** Identities fetched again (new, modified, or with changed accounts). */
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

/** An async iterator with one element of look-ahead. */
class Peekable<T> {
  private head: IteratorResult<T> | null = null;
  constructor(private readonly source: AsyncIterator<T>) {}
  async peek(): Promise<T | undefined> {
    this.head ??= await this.source.next();
    return this.head.done ? undefined : this.head.value;
  }
  async take(): Promise<T | undefined> {
    const value = await this.peek();
    this.head = null;
    return value;
  }
}

interface Planned {
  id: string;
  /** The hit, read as an identity, when it changed. */
  touched: Identity | null;
  identity: string | null;
  accounts: string[];
}

const sameIds = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Merge the tenant's changes since `since` into the previous snapshot's identities and accounts.
 * A hit without `modified` or without its account list is fetched again (nothing says it is unchanged).
 */
export async function mergeRecords(ctx: WalkContext, writers: RecordWriters, previous: string, since: string): Promise<MergeCounts> {
  const { client } = ctx.providers;
  const sinceMs = Date.parse(since);
  const counts: MergeCounts = { fetched: 0, deleted: 0, modifiedAccounts: 0 };

  // The owners of accounts modified since (new ones included: created ≤ modified).
  const owners = new Set<string>();
  if (writers.accounts) {
    for await (const page of client.list<{ identityId?: unknown }>('/v3/accounts', { filters: filtersParam(apiCompare('modified', 'ge', since)) })) {
      counts.modifiedAccounts += page.length;
      for (const a of page) if (typeof a.identityId === 'string') owners.add(a.identityId);
    }
  }
  const prevIdentities = writers.identities ? new Peekable(readArrayFile<Identity>(join(previous, 'identities.json'))) : null;
  const prevAccounts = writers.accounts ? new Peekable(readArrayFile<Account>(join(previous, 'accounts.json'))) : null;

  let walked = 0;
  const pages = ahead(client.search<Record<string, unknown> & { id: string; modified?: unknown; accounts?: unknown }>('identities', searchQuery(EVERY_DOCUMENT), 'id', ctx.pageSize));
  for await (const page of pages) {
    checkAborted(ctx.signal);
    const plan: Planned[] = [];
    for (const hit of page) {
      const id = String(hit.id);
      let previousIdentity: Element<Identity> | undefined;
      if (prevIdentities) {
        for (let p = await prevIdentities.peek(); p !== undefined && compareIds(p.value.id, id) < 0; p = await prevIdentities.peek()) {
          counts.deleted++;
          await prevIdentities.take();
        }
        if ((await prevIdentities.peek())?.value.id === id) previousIdentity = await prevIdentities.take();
      }
      const previousAccounts: Element<Account>[] = [];
      if (prevAccounts) {
        // Accounts are grouped by identity in identity order: a deleted identity's group is skipped.
        for (let a = await prevAccounts.peek(); a !== undefined && compareIds(String(a.value.identityId), id) < 0; a = await prevAccounts.peek()) await prevAccounts.take();
        for (let a = await prevAccounts.peek(); a !== undefined && a.value.identityId === id; a = await prevAccounts.peek()) previousAccounts.push((await prevAccounts.take())!);
      }
      const modified = typeof hit.modified === 'string' ? Date.parse(hit.modified) : NaN;
      const accountIds = Array.isArray(hit.accounts) ? hit.accounts.map((a) => String((a as { id?: unknown })?.id)) : null;
      const touched =
        (prevIdentities !== null && previousIdentity === undefined) ||
        Number.isNaN(modified) ||
        modified >= sinceMs ||
        owners.has(id) ||
        (prevAccounts !== null && (accountIds === null || !sameIds(accountIds, previousAccounts.map((a) => a.value.id))));
      plan.push({ id, touched: touched ? identityFromDocument(hit) : null, identity: previousIdentity?.text ?? null, accounts: previousAccounts.map((a) => a.text) });
    }
    const touched = plan.filter((p) => p.touched !== null).map((p) => p.id);
    counts.fetched += touched.length;
    const freshAccounts = writers.accounts && touched.length > 0 ? await ctx.providers.fetchAccountsOf(touched) : new Map<string, Account[]>();
    checkAborted(ctx.signal);
    const identityLines: string[] = [];
    const accountLines: string[] = [];
    for (const p of plan) {
      if (p.touched === null) {
        if (p.identity !== null) identityLines.push(p.identity);
        accountLines.push(...p.accounts);
        continue;
      }
      if (writers.identities) identityLines.push(identityText(ctx, p.touched));
      for (const a of freshAccounts.get(p.id) ?? []) accountLines.push(accountText(ctx, a));
    }
    await writers.identities?.add(identityLines);
    await writers.accounts?.add(accountLines);
    walked += page.length;
    await ctx.pageDone(walked, plan[plan.length - 1]!.id);
  }
  if (prevIdentities) while ((await prevIdentities.take()) !== undefined) counts.deleted++;
  if (prevAccounts) while ((await prevAccounts.take()) !== undefined);
  return counts;
}
