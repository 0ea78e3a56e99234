// Sources and their schemas (https://developer.sailpoint.com/docs/api/v3/get-source; https://developer.sailpoint.com/docs/api/standard-collection-parameters; RFC 6902, https://developer.sailpoint.com/docs/api/patch-requests; the error responses of https://developer.sailpoint.com/docs/api/v3/): the list with its
// filters and sorters, GET, PUT (full replacement) and PATCH (RFC 6902, atomic, immutable
// fields refused) of a source and of a source schema. PATCH requires application/json-patch+json.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { codedError } from '../../errors/index.js';
import type { FieldMap } from '../../filter/index.js';
import { RIGHTS } from '../auth/rights.js';
import { collectionQuerySchema, docs, listHandler, timeSorter, type CollectionSpec } from '../collections/index.js';
import type { ApiContext } from '../context.js';
import { jsonBodyParser } from '../json-body.js';
import { checkStoredJson } from '../json-limits.js';
import { unsafeNameCharacter } from '../names.js';
import { applyPatch, checkReplacement, jsonPatchBodyParser, patchOperations } from '../patch/index.js';
import { serviceRoutes } from '../routes.js';
import { idParams } from '../schemas.js';
import { sourceNameTaken, sourceSchemaDoc, sourceSchemaDocs, updateSourceSchema } from '../store/queries.js';
import type { Doc } from '../store/resource-repo.js';

const j = (path: string) => ({ column: 'doc', path });
const TIME_OPS = ['gt', 'ge', 'lt', 'le'] as const;

const FILTERS: FieldMap = {
  id: { type: 'string', column: 'id', operators: ['eq', 'in'], caseSensitive: true },
  name: { type: 'string', column: 'name', operators: ['eq', 'in', 'co', 'sw'] },
  type: { type: 'string', column: 'type', operators: ['eq', 'in'] },
  'owner.id': { type: 'string', json: j('$.owner.id'), operators: ['eq', 'in'], caseSensitive: true },
  features: { type: 'strings', json: j('$.features'), operators: ['ca', 'co'] },
  created: { type: 'datetime', column: 'created', operators: TIME_OPS },
  modified: { type: 'datetime', column: 'modified', operators: TIME_OPS },
  description: { type: 'string', json: j('$.description'), operators: ['sw'] },
  authoritative: { type: 'boolean', json: j('$.authoritative'), operators: ['eq'] },
  healthy: { type: 'boolean', json: j('$.healthy'), operators: ['eq'] },
  status: { type: 'string', json: j('$.status'), operators: ['eq', 'in'] },
  connectorName: { type: 'string', json: j('$.connectorName'), operators: ['eq'] },
  connectionType: { type: 'string', json: j('$.connectionType'), operators: ['eq'] },
};

const je = (path: string) => ({ expr: `json_extract("doc", '${path}')` });

export const SOURCES: CollectionSpec = {
  table: 'sources',
  filters: FILTERS,
  sorters: {
    id: { expr: '"id"' },
    name: { expr: '"name"' },
    type: { expr: '"type"' },
    created: timeSorter('"created"'),
    modified: timeSorter('"modified"'),
    description: je('$.description'),
    'owner.id': je('$.owner.id'),
    'owner.name': je('$.owner.name'),
    healthy: je('$.healthy'),
    status: je('$.status'),
    authoritative: je('$.authoritative'),
    connectorName: je('$.connectorName'),
    connectionType: je('$.connectionType'),
  },
  idExpr: '"id"',
};

type Json = Record<string, unknown>;

/**
 * Members a PATCH or PUT may not change: the platform's documented immutable source fields,
 * plus the timestamps it maintains and `schemas` (managed through /schemas).
 */
export const SOURCE_IMMUTABLE = ['/id', '/type', '/authoritative', '/connector', '/connectorClass', '/passwordPolicies', '/created', '/modified', '/schemas'];
export const SCHEMA_IMMUTABLE = ['/id', '/name', '/created', '/modified'];

const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const ref = (v: unknown) => v === null || (isObj(v) && (v.id === undefined || typeof v.id === 'string'));

/** What a stored source must keep true after a change (https://developer.sailpoint.com/docs/api/v3/get-source types). */
export function sourceProblems(s: Json): string[] {
  const out: string[] = [];
  if (typeof s.name !== 'string' || s.name.trim() === '') out.push('/name must be a non-empty string');
  else if (unsafeNameCharacter(s.name) !== null) out.push(`/name must not contain the character ${unsafeNameCharacter(s.name)}`);
  if (s.description !== undefined && s.description !== null && typeof s.description !== 'string') out.push('/description must be a string');
  for (const k of ['owner', 'cluster', 'accountCorrelationConfig', 'accountCorrelationRule', 'managerCorrelationMapping', 'managerCorrelationRule', 'beforeProvisioningRule', 'managementWorkgroup']) {
    if (s[k] !== undefined && !ref(s[k])) out.push(`/${k} must be null or a reference object`);
  }
  if (s.features !== undefined && (!Array.isArray(s.features) || !s.features.every((f) => typeof f === 'string'))) out.push('/features must be an array of strings');
  if (s.connectorAttributes !== undefined && !isObj(s.connectorAttributes)) out.push('/connectorAttributes must be an object');
  if (s.deleteThreshold !== undefined && !Number.isInteger(s.deleteThreshold)) out.push('/deleteThreshold must be an integer');
  for (const k of ['healthy', 'authoritative']) if (s[k] !== undefined && typeof s[k] !== 'boolean') out.push(`/${k} must be a boolean`);
  return out;
}

/** https://developer.sailpoint.com/docs/api/v3/get-source-schema: every schema attribute has a name and type and three booleans. */
export function schemaProblems(s: Json): string[] {
  const out: string[] = [];
  if (!Array.isArray(s.attributes)) return ['/attributes must be an array'];
  const seen = new Set<string>();
  s.attributes.forEach((a: unknown, i) => {
    if (!isObj(a) || typeof a.name !== 'string' || a.name === '') return void out.push(`/attributes/${i}/name must be a non-empty string`);
    if (seen.has(a.name)) out.push(`/attributes/${i}/name ${a.name} is repeated`);
    seen.add(a.name);
    if (a.type !== undefined && typeof a.type !== 'string') out.push(`/attributes/${i}/type must be a string`);
    for (const k of ['isMulti', 'isEntitlement', 'isGroup']) if (a[k] !== undefined && typeof a[k] !== 'boolean') out.push(`/attributes/${i}/${k} must be a boolean`);
  });
  return out;
}

function schemasOf(ctx: ApiContext, sourceId: string): Json[] {
  return sourceSchemaDocs(ctx.store.db, sourceId);
}

/** The source of https://developer.sailpoint.com/docs/api/v3/get-source: every documented field present (null or empty when the store has none). */
function sourceView(ctx: ApiContext, doc: Json): Json {
  return {
    description: '',
    owner: null,
    cluster: null,
    accountCorrelationConfig: null,
    accountCorrelationRule: null,
    managerCorrelationMapping: null,
    managerCorrelationRule: null,
    beforeProvisioningRule: null,
    passwordPolicies: null,
    managementWorkgroup: null,
    features: [],
    type: null,
    connector: null,
    connectorClass: null,
    connectorId: null,
    connectorName: null,
    connectionType: null,
    connectorImplementationId: null,
    connectorAttributes: {},
    deleteThreshold: 10,
    authoritative: false,
    healthy: true,
    status: null,
    since: null,
    created: null,
    modified: null,
    ...doc,
    schemas: schemasOf(ctx, doc.id as string).map((s) => ({ type: 'CONNECTOR_SCHEMA', id: s.id, name: s.name })),
  };
}

function getSource(ctx: ApiContext, id: string): Json {
  const doc = ctx.store.resources.get('sources', id);
  if (doc === null) throw codedError('API_NOT_FOUND', `No source ${id}.`);
  return sourceView(ctx, doc);
}

function getSchema(ctx: ApiContext, sourceId: string, schemaId: string): Json {
  getSource(ctx, sourceId);
  const schema = sourceSchemaDoc(ctx.store.db, sourceId, schemaId);
  if (schema === null) throw codedError('API_NOT_FOUND', `No schema ${schemaId} on source ${sourceId}.`);
  return schema;
}

function invalid(what: string, problems: string[]): never {
  throw codedError('RESOURCE_INVALID', `The ${what} is invalid: ${problems.join('; ')}.`, { details: { causes: problems } });
}

/** Store a changed source (its schemas are kept in their own table). */
function saveSource(ctx: ApiContext, next: Json): Json {
  const problems = sourceProblems(next);
  if (problems.length > 0) invalid('source', problems);
  checkStoredJson(next, ctx.options.requestLimits, 'the source');
  if (sourceNameTaken(ctx.store.db, next.name as string, next.id as string)) throw codedError('API_CONFLICT', `A source named ${JSON.stringify(next.name)} already exists.`, { details: { causes: [`duplicate name ${String(next.name)}`] } });
  const { schemas: _computed, ...stored } = next;
  stored.modified = new Date(ctx.now()).toISOString();
  ctx.store.resources.put('sources', stored as Doc);
  return sourceView(ctx, stored);
}

function saveSchema(ctx: ApiContext, sourceId: string, next: Json): Json {
  const problems = schemaProblems(next);
  if (problems.length > 0) invalid('schema', problems);
  checkStoredJson(next, ctx.options.requestLimits, 'the schema');
  const modified = new Date(ctx.now()).toISOString();
  const stored = { ...next, modified };
  updateSourceSchema(ctx.store.db, sourceId, stored);
  return stored;
}

/** What one PATCH may copy: a few times the largest document, so no patch can build a huge one. */
const patchBudget = (ctx: ApiContext) => 4 * ctx.options.requestLimits.maxBodyBytes;

const params = (request: FastifyRequest) => request.params as { id: string; schemaId: string };
const schemaParams = { type: 'object', required: ['id', 'schemaId'], properties: { id: { type: 'string' }, schemaId: { type: 'string' } } } as const;

export async function sourcesPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  // The JSON Patch media type (RFC 6902 §6), parsed like JSON (json-body.ts: UTF-8, prototype keys refused)
  // and an object with a repeated member refused (RFC 6902, https://developer.sailpoint.com/docs/api/patch-requests: exactly one op and one path).
  app.addContentTypeParser('application/json-patch+json', { parseAs: 'string' }, jsonPatchBodyParser(jsonBodyParser(app.getDefaultJsonParser('error', 'error'))));
  const read = { right: RIGHTS.sourcesRead, user: true };
  const manage = { right: RIGHTS.sourcesManage, user: true };

  serviceRoutes(app, 'sources', [
    {
      method: 'GET',
      path: '',
      auth: read,
      schema: { summary: 'List sources', operationId: 'listSources', querystring: collectionQuerySchema(SOURCES) },
      handler: listHandler(ctx.store.db, SOURCES, (rows) => docs(rows).map((d) => sourceView(ctx, d))),
    },
    {
      method: 'GET',
      path: '/:id',
      auth: read,
      schema: { summary: 'Get a source', operationId: 'getSource', params: idParams },
      handler: async (request) => getSource(ctx, params(request).id),
    },
    {
      method: 'PUT',
      path: '/:id',
      auth: manage,
      schema: { summary: 'Replace a source', operationId: 'putSource', params: idParams, body: { type: 'object' } },
      handler: async (request) =>
        ctx.store.transaction(() => {
          const current = getSource(ctx, params(request).id);
          return saveSource(ctx, checkReplacement(current, request.body as Json, SOURCE_IMMUTABLE));
        }),
    },
    {
      method: 'PATCH',
      path: '/:id',
      auth: manage,
      schema: { summary: 'Update a source with JSON Patch', operationId: 'updateSource', params: idParams },
      handler: async (request) => {
        const ops = patchOperations(request);
        return ctx.store.transaction(() => {
          const current = getSource(ctx, params(request).id);
          return saveSource(ctx, applyPatch(current, ops, { immutable: SOURCE_IMMUTABLE, maxBytes: patchBudget(ctx) }));
        });
      },
    },
    {
      method: 'GET',
      path: '/:id/schemas',
      auth: read,
      schema: { summary: 'List the schemas of a source', operationId: 'getSourceSchemas', params: idParams },
      handler: async (request) => {
        getSource(ctx, params(request).id);
        return schemasOf(ctx, params(request).id);
      },
    },
    {
      method: 'GET',
      path: '/:id/schemas/:schemaId',
      auth: read,
      schema: { summary: 'Get a source schema', operationId: 'getSourceSchema', params: schemaParams },
      handler: async (request) => getSchema(ctx, params(request).id, params(request).schemaId),
    },
    {
      method: 'PUT',
      path: '/:id/schemas/:schemaId',
      auth: manage,
      schema: { summary: 'Replace a source schema', operationId: 'putSourceSchema', params: schemaParams, body: { type: 'object' } },
      handler: async (request) =>
        ctx.store.transaction(() => {
          const { id, schemaId } = params(request);
          return saveSchema(ctx, id, checkReplacement(getSchema(ctx, id, schemaId), request.body as Json, SCHEMA_IMMUTABLE));
        }),
    },
    {
      method: 'PATCH',
      path: '/:id/schemas/:schemaId',
      auth: manage,
      schema: { summary: 'Update a source schema with JSON Patch', operationId: 'updateSourceSchema', params: schemaParams },
      handler: async (request) => {
        const ops = patchOperations(request);
        return ctx.store.transaction(() => {
          const { id, schemaId } = params(request);
          return saveSchema(ctx, id, applyPatch(getSchema(ctx, id, schemaId), ops, { immutable: SCHEMA_IMMUTABLE, maxBytes: patchBudget(ctx) }));
        });
      },
    },
  ]);
}
