// Identity preview (https://developer.sailpoint.com/docs/api/v3/show-generate-identity-preview, the endpoint the platform's CLI uses to preview transforms):
// POST /identity-profiles/identity-preview in both layouts evaluates an identityAttributeConfig
// for one identity through the engine, with the providers over the store (providers/sqlite.ts),
// and answers previewAttributes[].{name, value, previousValue, errorMessages}. No evaluation
// logic here. The mappings are evaluated one at a time, the event loop served between them,
// within a time budget for the whole preview (docs/limits.md "The server").

import type { FastifyInstance } from 'fastify';
import { codedError } from '../../errors/index.js';
import { createEngine, type Engine } from '../../engine/engine.js';
import { createSqliteProviders } from '../../providers/sqlite.js';
import type { ProfileError, ProfileResult } from '../../engine/profile.js';
import type { Identity, ProfileMapping } from '../../providers/types.js';
import { RIGHTS } from '../auth/rights.js';
import type { ApiContext } from '../context.js';
import { layouts } from '../routes.js';
import { SERVER_EVALUATION_LIMITS } from '../evaluation-limits.js';

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

/**
 * Mappings one preview evaluates: above the largest identity profiles in use (tens of attributes,
 * a few hundred at most), far below what a 1 MiB body could otherwise hold.
 */
export const MAX_PREVIEW_MAPPINGS = 500;
/** Characters of JSON the values and previous values of one preview may hold, in all. */
export const MAX_PREVIEW_RESPONSE = 4_000_000;

/**
 * Milliseconds of the event loop one preview may spend, in all: validating, compiling and
 * evaluating every mapping (each mapping within the server's evaluation and parsing limits).
 * Between two mappings other requests are served, so no request waits for a whole preview.
 */
export const MAX_PREVIEW_TIME = 2_000;

const MAPPINGS = '/identityAttributeConfig/attributeTransforms';
const MAPPING_POINTER = /^\/identityAttributeConfig\/attributeTransforms\/0(?=\/|$)/;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

interface PreviewRequest {
  identityId: string;
  identityAttributeConfig: { enabled?: boolean; attributeTransforms: ProfileMapping<unknown>[] };
}

/** Refuse what one preview may not hold: too many mappings, or one attribute mapped twice. */
function checkMappings(mappings: readonly ProfileMapping<unknown>[]): void {
  if (mappings.length > MAX_PREVIEW_MAPPINGS) {
    throw codedError('API_PREVIEW_TOO_MANY_MAPPINGS', `The preview holds ${mappings.length} mappings; the server evaluates at most ${MAX_PREVIEW_MAPPINGS} in one request.`, {
      path: MAPPINGS,
      details: { limit: 'maxPreviewMappings', max: MAX_PREVIEW_MAPPINGS },
    });
  }
  const seen = new Set<string>();
  mappings.forEach((m, i) => {
    if (seen.has(m.identityAttributeName)) {
      throw codedError('API_PREVIEW_DUPLICATE_ATTRIBUTE', `identityAttributeName "${m.identityAttributeName}" is mapped twice; a profile maps each attribute once.`, {
        path: `${MAPPINGS}/${i}/identityAttributeName`,
      });
    }
    seen.add(m.identityAttributeName);
  });
}

/** The errors of each attribute, keyed once (attribute names are unique in a preview). */
function errorsByAttribute(errors: readonly ProfileError[]): Map<string, ProfileError[]> {
  const out = new Map<string, ProfileError[]>();
  for (const e of errors) {
    const list = out.get(e.attribute);
    if (list) list.push(e);
    else out.set(e.attribute, [e]);
  }
  return out;
}

/** Characters of JSON a value takes in the response (counted until the bound is passed). */
function jsonLength(value: unknown): number {
  return value === null || value === undefined ? 4 : (JSON.stringify(value)?.length ?? 4);
}

/**
 * Evaluate each mapping on its own (a profile of one mapping, its errors' pointers put back at its
 * index), yielding to the event loop before each, until the preview's time is spent.
 */
async function evaluateMappings(engine: Engine, mappings: readonly ProfileMapping<unknown>[], identity: Identity): Promise<ProfileResult> {
  const result: ProfileResult = { attributes: {}, errors: [] };
  let spent = 0;
  for (let i = 0; i < mappings.length; i++) {
    if (i > 0) await yieldToEventLoop();
    if (spent > MAX_PREVIEW_TIME) {
      throw codedError('API_PREVIEW_TIME', `The preview took more than ${MAX_PREVIEW_TIME} ms; ${i} of its ${mappings.length} mappings were evaluated. Preview fewer or simpler mappings at a time.`, {
        path: `${MAPPINGS}/${i}`,
        details: { limit: 'maxPreviewTime', max: MAX_PREVIEW_TIME },
      });
    }
    const started = performance.now();
    const one = await engine.evaluateProfile({ identityAttributeConfig: { attributeTransforms: [mappings[i]!] } }, identity);
    spent += performance.now() - started;
    Object.assign(result.attributes, one.attributes);
    for (const e of one.errors) result.errors.push({ ...e, path: e.path.replace(MAPPING_POINTER, `${MAPPINGS}/${i}`) });
  }
  return result;
}

/** Evaluate the mappings for one identity and shape the platform's IdentityPreviewResponse. */
export async function identityPreview(engine: Engine, request: PreviewRequest) {
  const mappings = request.identityAttributeConfig.attributeTransforms;
  checkMappings(mappings);
  const identity = engine.providers.identities!.getIdentity(request.identityId) as Identity | null;
  if (identity === null) throw codedError('API_NOT_FOUND', `No identity ${request.identityId}.`);
  const previous = identity.attributes ?? {};
  const result = await evaluateMappings(engine, mappings, identity);
  const errors = errorsByAttribute(result.errors);
  let size = 0;
  const previewAttributes = mappings.map((m) => {
    const name = m.identityAttributeName;
    const value = Object.prototype.hasOwnProperty.call(result.attributes, name) ? result.attributes[name] : null;
    const previousValue = Object.prototype.hasOwnProperty.call(previous, name) ? previous[name] : null;
    size += jsonLength(value) + jsonLength(previousValue);
    if (size > MAX_PREVIEW_RESPONSE) {
      throw codedError('API_PREVIEW_TOO_LARGE', `The preview's values exceed ${MAX_PREVIEW_RESPONSE} characters; preview fewer attributes at a time.`, {
        path: MAPPINGS,
        details: { limit: 'maxPreviewResponse', max: MAX_PREVIEW_RESPONSE },
      });
    }
    return {
      name,
      value,
      previousValue,
      // The platform's ErrorMessageDto, with the stable code and the pointer beside the text.
      errorMessages: (errors.get(name) ?? []).map((e) => ({ locale: 'en-US', localeOrigin: 'DEFAULT', text: e.message, code: e.code, path: e.path })),
    };
  });
  return { identity: { type: 'IDENTITY', id: identity.id, name: identity.name }, previewAttributes };
}

export async function previewPlugin(app: FastifyInstance, opts: { ctx: ApiContext }): Promise<void> {
  const { ctx } = opts;
  // The server's limits: an attribute of a preview stops with a coded error after about 100 ms
  // or a few megabytes, so one request never stalls the event loop or exhausts the heap,
  // whatever the stored or sent transforms do; the whole preview stops at MAX_PREVIEW_TIME.
  const engine = createEngine({ providers: createSqliteProviders(ctx.store.db), limits: SERVER_EVALUATION_LIMITS });
  // The definition validator is built at boot, as the route schemas are, not in the first
  // preview's time (where it would count against that preview's budgets).
  engine.validateDefinitionSchema({});
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
