// Identity preview (https://developer.sailpoint.com/docs/api/v3/show-generate-identity-preview, the endpoint the platform's CLI uses to preview transforms):
// POST /identity-profiles/identity-preview in both layouts evaluates an identityAttributeConfig
// for one identity through the engine, with the providers over the store (providers/sqlite.ts),
// and answers previewAttributes[].{name, value, previousValue, errorMessages}. No evaluation
// logic here.

import type { FastifyInstance } from 'fastify';
import { codedError } from '../../errors/index.js';
import { createEngine, type Engine } from '../../engine/engine.js';
import { createSqliteProviders } from '../../providers/sqlite.js';
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

interface PreviewRequest {
  identityId: string;
  identityAttributeConfig: { enabled?: boolean; attributeTransforms: ProfileMapping<unknown>[] };
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
  const engine = createEngine({ providers: createSqliteProviders(ctx.store.db), limits: SERVER_EVALUATION_LIMITS });
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
