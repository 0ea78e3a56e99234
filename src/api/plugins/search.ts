// Search (https://developer.sailpoint.com/docs/api/v3/search-post): POST /search/v1 and /v3/search over the identities index,
// with the query language subset, sort, searchAfter, and limit/offset/count query parameters.

import type { FastifyInstance } from 'fastify';
import { RIGHTS } from '../auth/rights.js';
import { docs, runCount, runStatement, sendPage } from '../collections/index.js';
import type { ApiContext } from '../context.js';
import { serviceRoutes } from '../routes.js';
import { SearchBudgetExceeded, withSearchBudget } from '../../filter/search/index.js';
import { IDENTITIES_INDEX, identitySearchDocument, parseProjection, planSearch, project, projectionNeeds, type Projection, type SearchAccount, type StoredIdentity } from '../search/index.js';
import { codedError } from '../../errors/index.js';
import { managersOf } from './identities.js';
import { IDENTITY_TIME } from '../store/migrations.js';
import { accountCounts, accountsOfIdentities, managersAmong } from '../store/queries.js';

// The members carry no `type`: the route validator coerces types (a string becomes a one-item
// array), so planSearch checks them itself and a string where an array belongs is a 400.
const searchBody = {
  type: 'object',
  required: ['indices'],
  properties: {
    indices: { description: 'Array of index names; this server searches identities (once).' },
    query: { description: 'Object {query}: `*`, field:value, field:"phrase", field:prefix*, field:*, AND / OR / NOT, parentheses.' },
    sort: { description: 'Array of field names, `-` for descending.' },
    searchAfter: { description: 'Array of the last hit\'s sort values (strings, numbers, booleans or null).' },
    queryResultFilter: { description: 'Object {includes, excludes}: arrays of dotted paths of the result documents to keep and to drop.' },
  },
} as const;

const searchQuery = {
  type: 'object',
  properties: {
    limit: { type: 'integer', description: 'Default and maximum 10000.' },
    offset: { type: 'integer', description: 'Offset paging reaches the first 10000 records.' },
    count: { type: 'boolean' },
  },
} as const;

/** The accounts of a page's identities (id, name, native identity, source), in aggregation order. */
function pageAccounts(ctx: ApiContext, ids: readonly string[]): Map<string, SearchAccount[]> {
  const out = new Map<string, SearchAccount[]>();
  for (const r of accountsOfIdentities(ctx.store.db, ids)) {
    let list = out.get(r.identityId);
    if (list === undefined) out.set(r.identityId, (list = []));
    list.push({ id: r.id, name: r.name, accountId: r.nativeIdentity, source: { id: r.sourceId, name: r.sourceName } });
  }
  return out;
}

/** Per-identity counts for a page, in one query each, made only when the projection keeps them. */
function pageFacts(ctx: ApiContext, ids: readonly string[], need: { accountCount: boolean; isManager: boolean }): { accounts: Map<string, number>; managers: Set<string> } {
  return {
    accounts: need.accountCount ? accountCounts(ctx.store.db, ids) : new Map(),
    managers: need.isManager ? managersAmong(ctx.store.db, ids) : new Set(),
  };
}

/** Run the search's SQL within its time budget; a spent budget is a coded 400. */
function budgeted<T>(ctxDb: { db: object }, ms: number, fn: () => T): T {
  try {
    return withSearchBudget(ctxDb.db, ms, fn);
  } catch (err) {
    if (!(err instanceof SearchBudgetExceeded)) throw err;
    throw codedError('SEARCH_TIME_BUDGET', `The search ran longer than its time budget of ${ms} ms; narrow the query or page with a smaller limit.`, {
      details: { budgetMs: ms, causes: [err.message] },
    });
  }
}

/**
 * Members of a hit that need no more of the stored identity than its id, name and timestamps. A
 * projection keeping only these reads those columns instead of parsing every stored document.
 */
const LEAN_MEMBERS = new Set(['id', 'name', '_type', 'type', '_index', 'created', 'modified', 'accountCount', 'isManager', 'accounts']);
const TIMES = `${IDENTITY_TIME('created')} AS created, ${IDENTITY_TIME('modified')} AS modified`;
const LEAN_SELECT = `"id" AS id, "name" AS name, ${TIMES}`;

function isLean(projection: Projection | null): boolean {
  return projection?.includes != null && projection.includes.every((p) => LEAN_MEMBERS.has(p[0]!));
}

/**
 * The members of a hit, in the search document's order (identitySearchDocument), that a page
 * reads from columns and indexes alone: its id, name and timestamps (the identities_times index
 * holds the id and both timestamps), its account count (the accounts' identity index), whether it
 * manages anyone. A projection keeping only these, each whole, and excluding nothing (as a
 * snapshot's walk asks for `id`, `modified` and `accountCount`) gets its hits built straight from
 * the rows: no document is parsed, built or projected per hit.
 */
const COLUMN_MEMBERS = ['id', 'name', '_type', 'type', '_index', 'isManager', 'accountCount', 'created', 'modified'] as const;
type ColumnMember = (typeof COLUMN_MEMBERS)[number];
const ACCOUNT_COUNT = '(SELECT count(*) FROM accounts a WHERE a.identity_id = identities."id") AS accountCount';

/** The column members a projection keeps, in document order, or null when it needs more. */
function columnMembers(projection: Projection | null): ColumnMember[] | null {
  if (projection === null || projection.includes === null || projection.excludes.length > 0) return null;
  const wanted = new Set<string>();
  for (const p of projection.includes) {
    if (p.length !== 1 || !(COLUMN_MEMBERS as readonly string[]).includes(p[0]!)) return null;
    wanted.add(p[0]!);
  }
  return COLUMN_MEMBERS.filter((m) => wanted.has(m));
}

function columnSelect(members: readonly ColumnMember[]): string {
  const has = (m: ColumnMember) => members.includes(m);
  return [
    '"id" AS id',
    ...(has('name') ? ['"name" AS name'] : []),
    ...(has('created') || has('modified') ? [TIMES] : []),
    ...(has('accountCount') ? [ACCOUNT_COUNT] : []),
  ].join(', ');
}

interface ColumnRow {
  id: string;
  name?: string;
  created?: string | null;
  modified?: string | null;
  accountCount?: number;
}

/** A hit of the column members, the same members and values as project(identitySearchDocument(…)) gives. */
function columnHit(row: ColumnRow, members: readonly ColumnMember[], managers: Set<string>): Record<string, unknown> {
  const hit: Record<string, unknown> = {};
  for (const m of members) {
    switch (m) {
      case '_type':
      case 'type':
        hit[m] = 'identity';
        break;
      case '_index':
        hit[m] = 'identities';
        break;
      case 'isManager':
        hit[m] = managers.has(row.id);
        break;
      case 'created':
        hit[m] = row.created ?? null;
        break;
      case 'modified':
        hit[m] = row.modified ?? row.created ?? null;
        break;
      default:
        hit[m] = row[m];
    }
  }
  return hit;
}

export async function searchPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  serviceRoutes(app, 'search', [
    {
      method: 'POST',
      path: '',
      auth: { right: RIGHTS.searchRead },
      schema: { summary: 'Search', operationId: 'searchPost', body: searchBody, querystring: searchQuery },
      handler: async (request, reply) => {
        const limits = ctx.options.requestLimits;
        const projection = parseProjection(request.body as Record<string, unknown>);
        const columns = columnMembers(projection);
        const lean = isLean(projection);
        const select = columns !== null ? columnSelect(columns) : lean ? LEAN_SELECT : 'doc';
        const plan = planSearch(request.body, request.query as Record<string, unknown>, [IDENTITIES_INDEX], select, {
          maxLength: limits.searchMaxLength,
          maxDepth: limits.searchMaxDepth,
          maxTerms: limits.searchMaxTerms,
        });
        const { rows, total } = budgeted(ctx.store, limits.searchTimeMs, () => ({
          rows: runStatement(ctx.store.db, plan.page) as Record<string, unknown>[],
          total: plan.total === null ? null : runCount(ctx.store.db, plan.total),
        }));
        if (columns !== null) {
          const managers = columns.includes('isManager') ? pageFacts(ctx, rows.map((r) => r.id as string), { accountCount: false, isManager: true }).managers : new Set<string>();
          return sendPage(reply, { items: rows.map((r) => columnHit(r as unknown as ColumnRow, columns, managers)), total });
        }
        const identities = lean ? (rows as StoredIdentity[]) : docs<StoredIdentity>(rows);
        // Each member that costs a query (manager, accountCount, isManager, accounts) is looked up
        // only when the projection keeps it: a hit left without it is projected the same.
        const managers = projectionNeeds(projection, 'manager') ? managersOf(ctx, identities) : new Map<string, StoredIdentity>();
        const ids = identities.map((i) => i.id);
        const facts = pageFacts(ctx, ids, { accountCount: projectionNeeds(projection, 'accountCount'), isManager: projectionNeeds(projection, 'isManager') });
        const accounts = projectionNeeds(projection, 'accounts') ? pageAccounts(ctx, ids) : null;
        const items = identities.map((i) =>
          project(
            identitySearchDocument(i, (i.managerId && managers.get(i.managerId)) || null, {
              accountCount: facts.accounts.get(i.id) ?? 0,
              isManager: facts.managers.has(i.id),
              ...(accounts !== null ? { accounts: accounts.get(i.id) ?? [] } : {}),
            }),
            projection,
          ),
        );
        return sendPage(reply, { items, total });
      },
    },
  ]);
}
