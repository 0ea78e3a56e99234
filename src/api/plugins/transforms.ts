// Transforms (https://developer.sailpoint.com/docs/api/v3/transforms): list, get, create, update, delete.
// Create validates with the project's validator (400 with the issues); update may change only
// `attributes`; delete is refused while an identity profile uses the transform.

import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { codedError, type ErrorCode } from '../../errors/index.js';
import { compileSql, type FieldMap, type FilterNode, type SqlWhere } from '../../filter/index.js';
import { createEngine, type Engine } from '../../engine/engine.js';
import { findCycles, referencesIn, referencesName, type ReferenceSite } from '../../engine/references.js';
import { validateTransform } from '../../engine/validate.js';
import { SERVER_EVALUATION_LIMITS } from '../evaluation-limits.js';
import { RIGHTS } from '../auth/rights.js';
import { collectionQuerySchema, docs, listHandler, type CollectionSpec } from '../collections/index.js';
import type { ApiContext } from '../context.js';
import { sameName, unsafeNameCharacter } from '../names.js';
import { jsonEqual } from '../patch/index.js';
import { serviceRoutes } from '../routes.js';
import { idParams } from '../schemas.js';
import { profileDocs, transformDocs, transformNames } from '../store/queries.js';
import type { Doc } from '../store/resource-repo.js';

const FILTERS: FieldMap = {
  id: { type: 'string', column: 'id', operators: ['eq', 'in'], caseSensitive: true },
  name: { type: 'string', column: 'name', operators: ['eq', 'sw'] },
  type: { type: 'string', column: 'type', operators: ['eq', 'in'] },
  internal: { type: 'boolean', column: 'internal', operators: ['eq'] },
};

export const TRANSFORMS: CollectionSpec = {
  table: 'transforms',
  filters: FILTERS,
  sorters: { name: { expr: '"name"' }, type: { expr: '"type"' }, id: { expr: '"id"' } },
  idExpr: '"id"',
  defaultSort: ['name'],
};

type Json = Record<string, unknown>;

/** Members a client may send; `id` and `internal` are the server's. */
const WRITABLE = new Set(['name', 'type', 'attributes', 'requiresPeriodicRefresh']);

/**
 * The list's `name` parameter (the SDK's listTransforms `name`, "Name of the transform to
 * retrieve"): the transform of that name, compared as `name eq` compares it.
 */
function byName(query: Readonly<Record<string, unknown>>): SqlWhere | undefined {
  const name = query.name;
  if (name === undefined) return undefined;
  if (typeof name !== 'string') throw codedError('PARAM_REPEATED', "'name' must be given once", { details: { parameter: 'name', causes: ["'name' must be given once"] } });
  const node: FilterNode = { kind: 'compare', op: 'eq', property: 'name', value: { type: 'string', value: name }, ignoreCase: true, range: { start: 0, end: 0 } };
  return compileSql(node, FILTERS);
}

export function transformView(doc: Json) {
  const out: Json = { id: doc.id, name: doc.name, type: doc.type, attributes: doc.attributes ?? null, internal: doc.internal === true };
  if (typeof doc.requiresPeriodicRefresh === 'boolean') out.requiresPeriodicRefresh = doc.requiresPeriodicRefresh;
  return out;
}

function bad(code: ErrorCode, message: string, causes: string[] = [message]): never {
  throw codedError(code, message, { details: { causes } });
}

function getTransform(ctx: ApiContext, id: string): Doc {
  const doc = ctx.store.resources.get('transforms', id);
  if (doc === null) throw codedError('API_NOT_FOUND', `No transform ${id}.`);
  return doc;
}

function knownNames(ctx: ApiContext): Set<string> {
  return transformNames(ctx.store.db);
}

/** Validate with the project's validator; errors (not warnings) → 400 listing every issue. */
function validated(ctx: ApiContext, engine: Engine, body: Json): Json {
  const candidate: Json = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === 'id' || k === 'internal') continue;
    if (!WRITABLE.has(k)) bad('TRANSFORM_INVALID', `'${k}' is not a transform property`);
    candidate[k] = v;
  }
  const unsafe = typeof candidate.name === 'string' ? unsafeNameCharacter(candidate.name) : null;
  if (unsafe !== null) {
    throw codedError('TRANSFORM_NAME_INVALID', `The transform name contains the character ${unsafe} (a control or bidirectional formatting character).`, {
      path: '/name',
      details: { causes: [`/name: character ${unsafe} is not allowed`] },
    });
  }
  const result = validateTransform(candidate, { engine, knownNames: knownNames(ctx) });
  const errors = result.issues.filter((i) => i.severity === 'error');
  if (errors.length > 0) {
    throw codedError('TRANSFORM_INVALID', `The transform is invalid: ${errors[0]!.message}`, {
      path: errors[0]!.path,
      details: { issues: errors, causes: errors.map((i) => `${i.path || '/'}: ${i.code} ${i.message}`) },
    });
  }
  return candidate;
}

/**
 * Refuse a transform that would close a cycle of references among the stored ones (evaluation
 * would fail with EVAL_REFERENCE_CYCLE for every identity): 400 naming the cycle, located at
 * the candidate's reference that starts it.
 */
function refuseCycle(ctx: ApiContext, candidate: Json): void {
  const name = candidate.name as string;
  const edges = new Map<string, ReferenceSite[]>();
  for (const d of transformDocs(ctx.store.db)) {
    if (d.name !== name) edges.set(String(d.name), referencesIn(d.attributes));
  }
  edges.set(name, referencesIn(candidate.attributes).reverse());
  // Only a cycle through the candidate is its doing: one among the stored transforms is not.
  findCycles([name], edges, (path, taken) => {
    if (path[0] !== name) return false;
    const cycle = path.map((n) => JSON.stringify(n)).join(' → ');
    throw codedError('TRANSFORM_REFERENCE_CYCLE', `The transform would create a reference cycle: ${cycle}.`, {
      path: `/attributes${taken[0]!.pointer}`,
      details: { cycle: path, causes: [`reference cycle ${cycle}`] },
    });
  });
}

/** Names of the identity profiles whose mappings reference the transform `name`. */
export function profilesUsing(ctx: ApiContext, name: string): string[] {
  const profiles = profileDocs(ctx.store.db);
  return profiles.filter((p) => referencesName(p.identityAttributeConfig, name)).map((p) => String(p.name ?? p.id));
}

function refuseInternal(doc: Json, verb: string): void {
  if (doc.internal === true) bad('TRANSFORM_INTERNAL', `Internal transform ${String(doc.name)} cannot be ${verb}.`);
}

const body = (request: FastifyRequest): Json => request.body as Json;
const idOf = (request: FastifyRequest): string => (request.params as { id: string }).id;

export async function transformsPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  // Validated (schema + compile) under the limits the identity preview evaluates them with.
  const engine = createEngine({ limits: SERVER_EVALUATION_LIMITS });
  const read = { right: RIGHTS.transformsRead, user: true };
  const manage = { right: RIGHTS.transformsManage, user: true };
  const transformBody = { type: 'object', required: ['name', 'type', 'attributes'], properties: { name: { type: 'string' }, type: { type: 'string' }, attributes: { type: ['object', 'null'] }, requiresPeriodicRefresh: { type: 'boolean' } } };

  serviceRoutes(app, 'transforms', [
    {
      method: 'GET',
      path: '',
      auth: read,
      schema: {
        summary: 'List transforms',
        operationId: 'listTransforms',
        querystring: { ...collectionQuerySchema(TRANSFORMS), properties: { ...collectionQuerySchema(TRANSFORMS).properties, name: { type: 'string', description: 'The transform of this name.' } } },
      },
      handler: listHandler(ctx.store.db, TRANSFORMS, (rows) => docs(rows).map(transformView), { where: byName }),
    },
    {
      method: 'GET',
      path: '/:id',
      auth: read,
      schema: { summary: 'Get a transform', operationId: 'getTransform', params: idParams },
      handler: async (request) => transformView(getTransform(ctx, idOf(request))),
    },
    {
      method: 'POST',
      path: '',
      auth: manage,
      schema: { summary: 'Create a transform', operationId: 'createTransform', body: transformBody },
      handler: async (request, reply) => {
        const candidate = validated(ctx, engine, body(request));
        const doc = ctx.store.transaction(() => {
          // Names are unique regardless of case, as the list's `name eq` finds them.
          const clash = [...knownNames(ctx)].find((n) => sameName(n, candidate.name as string));
          if (clash !== undefined) {
            throw codedError('API_CONFLICT', `A transform named ${JSON.stringify(clash)} already exists.`, { path: '/name', details: { causes: [`duplicate name (existing: ${JSON.stringify(clash)})`] } });
          }
          refuseCycle(ctx, candidate);
          const created = { id: randomUUID(), ...candidate, internal: false } as Doc;
          ctx.store.resources.put('transforms', created);
          return created;
        });
        return reply.code(201).send(transformView(doc));
      },
    },
    {
      method: 'PUT',
      path: '/:id',
      auth: manage,
      schema: { summary: 'Update a transform', operationId: 'updateTransform', params: idParams, body: transformBody },
      handler: async (request) =>
        ctx.store.transaction(() => {
          const current = getTransform(ctx, idOf(request));
          refuseInternal(current, 'modified');
          const b = body(request);
          // "Only attributes is mutable": any other member must be absent or unchanged.
          for (const k of ['id', 'name', 'type', 'internal', 'requiresPeriodicRefresh']) {
            if (b[k] !== undefined && !jsonEqual(b[k], k === 'internal' ? current.internal === true : current[k])) {
              bad('TRANSFORM_IMMUTABLE', `Only the attributes of a transform can be changed, not '${k}'.`);
            }
          }
          const candidate = validated(ctx, engine, { ...transformView(current), attributes: b.attributes });
          refuseCycle(ctx, candidate);
          const next: Doc = { ...current, attributes: candidate.attributes };
          ctx.store.resources.put('transforms', next);
          return transformView(next);
        }),
    },
    {
      method: 'DELETE',
      path: '/:id',
      auth: manage,
      schema: { summary: 'Delete a transform', operationId: 'deleteTransform', params: idParams },
      handler: async (request, reply) => {
        ctx.store.transaction(() => {
          const current = getTransform(ctx, idOf(request));
          refuseInternal(current, 'deleted');
          const users = profilesUsing(ctx, String(current.name));
          if (users.length > 0) {
            throw codedError('API_CONFLICT', `Transform ${String(current.name)} is used by identity profile ${users.join(', ')} and cannot be deleted.`, {
              details: { causes: users.map((p) => `used by identity profile ${p}`) },
            });
          }
          ctx.store.resources.delete('transforms', current.id as string);
        });
        return reply.code(204).send();
      },
    },
  ]);
}
