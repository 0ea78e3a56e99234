// The area plugins of the API listener, in registration order. The resource area (collections,
// search, sources, transforms, preview) appends its plugins here; each receives `{ ctx }`.

import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';
import { clientsPlugin } from './clients.js';
import { oauthPlugin } from './oauth.js';
import { patsPlugin } from './pats.js';
import { resourcesPlugin } from './resources.js';

export type AreaPlugin = (app: FastifyInstance, opts: { ctx: ApiContext }) => Promise<void>;

export const API_AREA_PLUGINS: readonly AreaPlugin[] = [oauthPlugin, clientsPlugin, patsPlugin, resourcesPlugin];
