// Paging through a tenant's collections and searches, bounded: limit/offset pages of the list
// endpoints (https://developer.sailpoint.com/docs/api/standard-collection-parameters) and
// searchAfter pages of search (https://developer.sailpoint.com/docs/api/v3/search-post). A tenant
// decides how many pages there are and what each cursor is: a listing stops at maxRecords
// (TENANT_LIMIT), and a search whose cursor is not a string or number, or comes round again,
// is TENANT_RESPONSE rather than a walk that never ends. So is a search that hands out one sort
// value twice in a row: a searchAfter walk is by a unique key (on a key two hits share, the page
// boundary would skip records), each value handed out once, and a repeated identity would be
// copied twice — a snapshot that every reader of fixtures then refuses (decision S12).

import { codedError } from '../../errors/index.js';
import { expectRecords } from './response.js';

export type Query = Record<string, string | number | boolean | undefined>;

export interface PageSource {
  request<T = unknown>(method: 'GET' | 'POST', path: string, options?: { query?: Query; body?: unknown }): Promise<{ headers: Headers; body: T }>;
  /** Records one listing or search may hand out. */
  readonly maxRecords: number;
}

/** Counts the records a walk hands out, TENANT_LIMIT past maxRecords. */
function recordCounter(path: string, max: number): (page: readonly unknown[]) => void {
  let seen = 0;
  return (page) => {
    seen += page.length;
    if (seen > max) throw codedError('TENANT_LIMIT', `${path} handed out more than ${max} records (maxRecords)`, { details: { limit: 'maxRecords', max, path } });
  };
}

/** Every record of a collection, page by page; see TenantClient.list. */
export async function* listPages<T>(source: PageSource, path: string, query: Query, pageSize: number, ahead: number): AsyncGenerator<T[], void, undefined> {
  const count = recordCounter(path, source.maxRecords);
  const pageAt = async (offset: number, withCount = false): Promise<{ page: T[]; total: number | null }> => {
    const response = await source.request<unknown>('GET', path, { query: { ...query, limit: pageSize, offset, ...(withCount ? { count: true } : {}) } });
    const page = expectRecords<T>(response.body, path);
    if (page.length > pageSize) throw codedError('TENANT_RESPONSE', `${path} answered ${page.length} records for limit=${pageSize}`, { details: { path } });
    count(page);
    const total = withCount ? Number(response.headers.get('x-total-count') ?? NaN) : NaN;
    return { page, total: Number.isSafeInteger(total) && total >= 0 ? total : null };
  };
  let offset = 0;
  if (ahead > 1) {
    const first = await pageAt(0, true);
    if (first.page.length > 0) yield first.page;
    if (first.page.length < pageSize) return;
    offset = pageSize;
    // The pages the count implies, at most `ahead` in flight; each settles before the listing ends.
    const inFlight: Promise<{ page: T[] }>[] = [];
    let next = offset;
    const more = () => {
      while (first.total !== null && next < first.total && inFlight.length < ahead) {
        const page = pageAt(next);
        page.catch(() => undefined);
        inFlight.push(page);
        next += pageSize;
      }
    };
    try {
      for (more(); inFlight.length > 0; more()) {
        const { page } = await inFlight.shift()!;
        if (page.length > 0) yield page;
        if (page.length < pageSize) return;
        offset += pageSize;
      }
    } finally {
      await Promise.allSettled(inFlight);
    }
  }
  for (; ; offset += pageSize) {
    const { page } = await pageAt(offset);
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
  }
}

export interface SearchWalk {
  /** Continues an earlier walk (a resumed copy). */
  after?: unknown[];
  /** Keeps only some members of each hit. */
  queryResultFilter?: { includes?: string[]; excludes?: string[] };
}

/** A sort value as a cursor is sent (a string or a finite number, in JSON); undefined for anything else. */
const cursorOf = (value: unknown): string | undefined => (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? JSON.stringify(value) : undefined);

/** Every hit of a search, each page continuing after the last hit's sort value; see TenantClient.search. */
export async function* searchPages<T extends Record<string, unknown>>(source: PageSource, index: string, query: string, sortField: string, pageSize: number, options: SearchWalk): AsyncGenerator<T[], void, undefined> {
  const path = '/v3/search';
  const count = recordCounter(path, source.maxRecords);
  let after: unknown[] | undefined = options.after;
  // Every cursor this walk has sent: one that comes back is a cycle, however long.
  const sent = new Set<string>();
  // The sort value of the last hit handed out (or the cursor resumed from), as a cursor is written.
  let previous = after ? cursorOf(after[0]) : undefined;
  const extra = options.queryResultFilter ? { queryResultFilter: options.queryResultFilter } : {};
  for (;;) {
    const body = { indices: [index], query: { query }, sort: [sortField], ...extra, ...(after ? { searchAfter: after } : {}) };
    const response = await source.request<unknown>('POST', path, { query: { limit: pageSize }, body });
    const page = expectRecords<T>(response.body, path);
    if (page.length > pageSize) throw codedError('TENANT_RESPONSE', `${path} answered ${page.length} hits for limit=${pageSize}`, { details: { path } });
    count(page);
    for (const hit of page) {
      const value = cursorOf(hit[sortField]);
      if (value !== undefined && value === previous) {
        throw codedError('TENANT_RESPONSE', `${path} handed out the hit whose ${sortField} is ${value} twice; a search walked with searchAfter gives each ${sortField} once`, { details: { path } });
      }
      previous = value;
    }
    const last = page.length === 0 ? undefined : page[page.length - 1]![sortField];
    if (page.length === pageSize) {
      // A sort value is a string or a number; anything else (missing, null, an object) cannot be a
      // cursor, and a cursor sent before means the pages go round.
      const cursor = cursorOf(last);
      if (cursor === undefined || sent.has(cursor) || (after !== undefined && JSON.stringify(after[0]) === cursor)) {
        throw codedError('TENANT_RESPONSE', `${path} paging does not advance: the last hit's ${sortField} is ${cursor === undefined ? `not a string or number (${last === null || last === undefined ? String(last ?? null) : typeof last})` : `${cursor}, a cursor already used`}`, { details: { path } });
      }
      sent.add(cursor);
    }
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = [last];
  }
}
