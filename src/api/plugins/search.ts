// Search (https://developer.sailpoint.com/docs/api/v3/search-post): POST /search/v1 and /v3/search over the identities index,
// with the query language subset, sort, searchAfter, and limit/offset/count query parameters.

import type { FastifyInstance } from 'fastify';
import { RIGHTS } from '../auth/rights.js';
import { docs, prepared, runStatement, sendPage } from '../collections/index.js';
import type { ApiContext } from '../context.js';
import { serviceRoutes } from '../routes.js';
import { SearchBudgetExceeded, withSearchBudget } from '../../filter/search/index.js';
import { IDENTITIES_INDEX, identitySearchDocument, parseProjection, planSearch, project, projectionNeeds, type Projection, type SearchAccount, type StoredIdentity } from '../search/index.js';
import { codedError } from '../../errors/index.js';
import { managersOf } from './identities.js';

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
  const rows = prepared(
    ctx.store.db,
    `SELECT a.rowid AS seq, a.identity_id AS identityId, a.id AS id, a.name AS name, a.native_identity AS nativeIdentity, a.source_id AS sourceId, s.name AS sourceName
     FROM accounts a LEFT JOIN sources s ON s.id = a.source_id WHERE a.identity_id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(ids)) as { seq: number; identityId: string; id: string; name: string; nativeIdentity: string; sourceId: string; sourceName: string | null }[];
  // Sorted here: ORDER BY rowid in the query lets SQLite walk the whole table in rowid order
  // instead of looking the page's identities up in the identity index.
  rows.sort((x, y) => x.seq - y.seq);
  const out = new Map<string, SearchAccount[]>();
  for (const r of rows) {
    let list = out.get(r.identityId);
    if (list === undefined) out.set(r.identityId, (list = []));
    list.push({ id: r.id, name: r.name, accountId: r.nativeIdentity, source: { id: r.sourceId, name: r.sourceName } });
  }
  return out;
}

/** Per-identity counts for a page, in one query each, made only when the projection keeps them. */
function pageFacts(ctx: ApiContext, ids: readonly string[], need: { accountCount: boolean; isManager: boolean }): { accounts: Map<string, number>; managers: Set<string> } {
  const list = JSON.stringify(ids);
  const accounts = need.accountCount
    ? (prepared(ctx.store.db, 'SELECT identity_id AS id, count(*) AS n FROM accounts WHERE identity_id IN (SELECT value FROM json_each(?)) GROUP BY identity_id').all(list) as { id: string; n: number }[])
    : [];
  const managers = need.isManager ? (prepared(ctx.store.db, 'SELECT DISTINCT manager_id AS id FROM identities WHERE manager_id IN (SELECT value FROM json_each(?))').all(list) as { id: string }[]) : [];
  return { accounts: new Map(accounts.map((r) => [r.id, r.n])), managers: new Set(managers.map((r) => r.id)) };
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
 * projection keeping only these (as a snapshot's walk does) reads those columns instead of
 * parsing every stored document.
 */
const LEAN_MEMBERS = new Set(['id', 'name', '_type', 'type', '_index', 'created', 'modified', 'accountCount', 'isManager', 'accounts']);
const text = (path: string) => `CASE json_type("doc", '${path}') WHEN 'text' THEN json_extract("doc", '${path}') END`;
const LEAN_SELECT = `"id" AS id, "name" AS name, ${text('$.created')} AS created, ${text('$.modified')} AS modified`;

function isLean(projection: Projection | null): boolean {
  return projection?.includes != null && projection.includes.every((p) => LEAN_MEMBERS.has(p[0]!));
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
        const lean = isLean(projection);
        const plan = planSearch(request.body, request.query as Record<string, unknown>, [IDENTITIES_INDEX], lean ? LEAN_SELECT : 'doc', {
          maxLength: limits.searchMaxLength,
          maxDepth: limits.searchMaxDepth,
          maxTerms: limits.searchMaxTerms,
        });
        const { identities, total } = budgeted(ctx.store, limits.searchTimeMs, () => ({
          identities: lean
            ? (runStatement(ctx.store.db, plan.page) as StoredIdentity[])
            : docs<StoredIdentity>(runStatement(ctx.store.db, plan.page) as Record<string, unknown>[]),
          total: plan.total === null ? null : (prepared(ctx.store.db, plan.total.sql).get(...plan.total.params) as { n: number }).n,
        }));
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
