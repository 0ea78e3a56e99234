// Identity preview (issue 8; the endpoint the platform's CLI uses to preview transforms):
// POST /identity-profiles/identity-preview in both layouts evaluates an identityAttributeConfig
// for one identity through the engine, with providers reading the store, and answers
// previewAttributes[].{name, value, previousValue, errorMessages}. No evaluation logic here.

import type { FastifyInstance } from 'fastify';
import { codedError } from '../../errors/index.js';
import { createEngine, type Engine } from '../../engine/engine.js';
import type { Account, Identity, Providers, Source, SourceRef, TransformDocument } from '../../providers/types.js';
import { RIGHTS } from '../auth/rights.js';
import { prepared, type SqlDatabase } from '../collections/index.js';
import type { ApiContext } from '../context.js';
import { layouts } from '../routes.js';
import { SERVER_EVALUATION_LIMITS } from '../limits.js';

function one<T>(db: SqlDatabase, sql: string, ...params: string[]): T | null {
  const row = prepared(db, sql).get(...params) as { doc: string } | undefined;
  return row === undefined ? null : (JSON.parse(row.doc) as T);
}

function withAttributes<T extends { attributes?: unknown }>(doc: T): T & { attributes: Record<string, unknown> } {
  return { ...doc, attributes: (doc.attributes ?? {}) as Record<string, unknown> };
}

/** Synchronous providers over the store (better-sqlite3), so evaluation keeps its fast path. */
export function storeProviders(db: SqlDatabase): Providers {
  return {
    sources: {
      // The precedence of the memory providers: sourceId, applicationId, applicationName, sourceName.
      resolveSource(ref: SourceRef): Source | null {
        if (ref.sourceId !== undefined) return one<Source>(db, 'SELECT doc FROM sources WHERE id = ?', ref.sourceId);
        if (ref.applicationId !== undefined) return one<Source>(db, `SELECT doc FROM sources WHERE COALESCE(json_extract(doc, '$.externalId'), id) = ?`, ref.applicationId);
        if (ref.applicationName !== undefined) {
          return one<Source>(db, `SELECT doc FROM sources WHERE COALESCE(json_extract(doc, '$.applicationName'), name || ' [source]') = ?`, ref.applicationName);
        }
        if (ref.sourceName !== undefined) return one<Source>(db, 'SELECT doc FROM sources WHERE name = ? ORDER BY id LIMIT 1', ref.sourceName);
        return null;
      },
    },
    accounts: {
      listAccounts(query): Account[] {
        const rows = (query.sourceId === undefined
          ? prepared(db, 'SELECT doc FROM accounts WHERE identity_id = ? ORDER BY created, id').all(query.identityId)
          : prepared(db, 'SELECT doc FROM accounts WHERE identity_id = ? AND source_id = ? ORDER BY created, id').all(query.identityId, query.sourceId)) as { doc: string }[];
        return rows.map((r) => withAttributes(JSON.parse(r.doc) as Account));
      },
    },
    identities: {
      getIdentity: (id) => {
        const i = one<Identity>(db, 'SELECT doc FROM identities WHERE id = ?', id);
        return i === null ? null : withAttributes(i);
      },
      findIdentityByName: (name) => {
        const i = one<Identity>(db, 'SELECT doc FROM identities WHERE name = ? ORDER BY id LIMIT 1', name);
        return i === null ? null : withAttributes(i);
      },
    },
    transforms: {
      getTransform: (name) => one<TransformDocument>(db, 'SELECT doc FROM transforms WHERE name = ?', name),
    },
    uniqueness: {
      // A candidate user name is taken when another identity already has it as its name or uid.
      isUnique: (candidate, context) =>
        prepared(db, `SELECT 1 AS taken FROM identities WHERE (name = ? COLLATE NOCASE OR json_extract(doc, '$.attributes.uid') = ?) AND id <> ? LIMIT 1`).get(
          candidate,
          candidate,
          context.identityId ?? '',
        ) === undefined,
    },
  };
}

const previewBody = {
  type: 'object',
  required: ['identityId', 'identityAttributeConfig'],
  properties: {
    identityId: { type: 'string', minLength: 1 },
    identityAttributeConfig: {
      type: 'object',
      required: ['attributeTransforms'],
      properties: {
        enabled: { type: 'boolean' },
        attributeTransforms: {
          type: 'array',
          items: {
            type: 'object',
            required: ['identityAttributeName', 'transformDefinition'],
            properties: { identityAttributeName: { type: 'string', minLength: 1 }, transformDefinition: { type: 'object' } },
          },
        },
      },
    },
  },
} as const;

interface PreviewRequest {
  identityId: string;
  identityAttributeConfig: { enabled?: boolean; attributeTransforms: { identityAttributeName: string; transformDefinition: unknown }[] };
}

/** Evaluate the mappings for one identity and shape the platform's IdentityPreviewResponse. */
export async function identityPreview(engine: Engine, request: PreviewRequest) {
  const identity = engine.providers.identities!.getIdentity(request.identityId) as Identity | null;
  if (identity === null) throw codedError('API_NOT_FOUND', `No identity ${request.identityId}.`);
  const result = await engine.evaluateProfile({ identityAttributeConfig: request.identityAttributeConfig }, identity);
  const previous = identity.attributes ?? {};
  return {
    identity: { type: 'IDENTITY', id: identity.id, name: identity.name },
    previewAttributes: request.identityAttributeConfig.attributeTransforms.map((m) => {
      const name = m.identityAttributeName;
      return {
        name,
        value: Object.prototype.hasOwnProperty.call(result.attributes, name) ? result.attributes[name] : null,
        previousValue: Object.prototype.hasOwnProperty.call(previous, name) ? previous[name] : null,
        // The platform's ErrorMessageDto, with the stable code and the pointer beside the text.
        errorMessages: result.errors
          .filter((e) => e.attribute === name)
          .map((e) => ({ locale: 'en-US', localeOrigin: 'DEFAULT', text: e.message, code: e.code, path: e.path })),
      };
    }),
  };
}

export async function previewPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  // The server's limits: a preview (all its attributes share one budget) stops with a coded
  // error per attribute after about 100 ms or a few megabytes, so one request never stalls the
  // event loop or exhausts the heap, whatever the stored or sent transforms do.
  const engine = createEngine({ providers: storeProviders(ctx.store.db), limits: SERVER_EVALUATION_LIMITS });
  const [spec, v3] = layouts('identity-profiles', '/identity-preview');
  for (const url of [spec, v3]) {
    app.route({
      method: 'POST',
      url,
      schema: {
        tags: ['identity-profiles'],
        summary: 'Preview the identity attributes of an identity attribute config',
        operationId: url === v3 ? 'showIdentityPreviewV3' : 'showIdentityPreview',
        body: previewBody,
      },
      config: { auth: { right: [RIGHTS.identityProfilesRead, RIGHTS.identityProfilesManage], user: true } },
      handler: async (request) => identityPreview(engine, request.body as PreviewRequest),
    });
  }
}
