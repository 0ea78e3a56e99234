// Accounts (the collection conventions of
// https://developer.sailpoint.com/docs/api/standard-collection-parameters; the account record is "not shown", so
// the shape is the SDK's Account): GET /accounts/v1 and /v3/accounts, and one account by id.

import type { FastifyInstance } from 'fastify';
import { codedError } from '../../errors/index.js';
import type { FieldMap } from '../../filter/index.js';
import { RIGHTS } from '../auth/rights.js';
import { collectionQuerySchema, listHandler, timeSorter, type CollectionSpec } from '../collections/index.js';
import type { ApiContext } from '../context.js';
import { serviceRoutes } from '../routes.js';
import { idParams } from '../schemas.js';
import { ACCOUNT_SELECT, accountRow, sourceSummaries, type SourceSummary } from '../store/queries.js';

const FILTERS: FieldMap = {
  id: { type: 'string', column: 'id', operators: ['eq', 'in'], caseSensitive: true },
  identityId: { type: 'string', column: 'identity_id', operators: ['eq', 'in'], caseSensitive: true },
  name: { type: 'string', column: 'name', operators: ['eq', 'in', 'sw'] },
  nativeIdentity: { type: 'string', column: 'native_identity', operators: ['eq', 'in', 'sw'] },
  sourceId: { type: 'string', column: 'source_id', operators: ['eq', 'in'], caseSensitive: true },
  hasEntitlements: { type: 'boolean', column: 'has_entitlements', operators: ['eq'] },
  created: { type: 'datetime', column: 'created', operators: ['eq', 'gt', 'ge', 'lt', 'le'] },
  // The account's `modified`, or its `created` when the document has none (as the view shows it),
  // indexed (store migration 5).
  modified: { type: 'datetime', column: 'modified', operators: ['eq', 'gt', 'ge', 'lt', 'le'], indexedText: true },
};

export const ACCOUNTS: CollectionSpec = {
  // The accounts table plus a `modified` column (the account_rows view, src/api/store/migrations.ts).
  table: 'account_rows',
  filters: FILTERS,
  sorters: {
    id: { expr: '"id"' },
    name: { expr: '"name"' },
    created: timeSorter('"created"'),
    modified: timeSorter('"modified"'),
    sourceId: { expr: '"source_id"' },
    identityId: { expr: '"identity_id"' },
    nativeIdentity: { expr: '"native_identity"' },
  },
  idExpr: '"id"',
  // Without sorters, accounts come in the order they were aggregated (loaded into the store), as
  // an identity's links do (docs/decisions.md T6): the in-memory and tenant providers agree.
  defaultOrder: 'rowid',
};

interface StoredAccount {
  id: string;
  sourceId?: string;
  identityId?: string;
  [key: string]: unknown;
}

/**
 * An account as the API shows it, from its row of account_rows: the stored document, with the
 * row's `modified` (the store's rule, migrations.ts) when the document has none.
 */
function accountView(row: Record<string, unknown>, sources: Map<string, SourceSummary>) {
  const a = JSON.parse(row.doc as string) as StoredAccount;
  const source = sources.get(a.sourceId ?? '');
  return {
    disabled: false,
    locked: false,
    systemAccount: false,
    manuallyCorrelated: false,
    isMachine: false,
    modified: row.modified === '' ? null : (row.modified ?? null),
    ...a,
    sourceName: source?.name ?? null,
    authoritative: source?.authoritative ?? false,
    uncorrelated: typeof a.identityId !== 'string' || a.identityId === '',
    attributes: a.attributes ?? {},
  };
}

export async function accountsPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  serviceRoutes(app, 'accounts', [
    {
      method: 'GET',
      path: '',
      auth: { right: RIGHTS.accountsRead, user: true },
      schema: { summary: 'List accounts', operationId: 'listAccounts', querystring: collectionQuerySchema(ACCOUNTS) },
      handler: listHandler(
        ctx.store.db,
        ACCOUNTS,
        (rows) => {
          const sources = sourceSummaries(ctx.store.db);
          return rows.map((row) => accountView(row, sources));
        },
        { select: ACCOUNT_SELECT },
      ),
    },
    {
      method: 'GET',
      path: '/:id',
      auth: { right: RIGHTS.accountsRead, user: true },
      schema: { summary: 'Get an account', operationId: 'getAccount', params: idParams },
      handler: async (request) => {
        const { id } = request.params as { id: string };
        const row = accountRow(ctx.store.db, id);
        if (row === null) throw codedError('API_NOT_FOUND', `No account ${id}.`);
        return accountView(row, sourceSummaries(ctx.store.db));
      },
    },
  ]);
}
