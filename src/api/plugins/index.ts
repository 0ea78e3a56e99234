// The area plugins of the API listener, in registration order; each receives `{ ctx }`. The
// store they read is prepared by its migrations (src/api/store/migrations.ts) and seed.

import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';
import { accountsPlugin } from './accounts.js';
import { activitiesPlugin } from './activities.js';
import { clientsPlugin } from './clients.js';
import { publicIdentitiesPlugin } from './identities.js';
import { oauthPlugin } from './oauth.js';
import { patsPlugin } from './pats.js';
import { previewPlugin } from './preview.js';
import { profilesPlugin } from './profiles.js';
import { searchPlugin } from './search.js';
import { sourcesPlugin } from './sources.js';
import { transformsPlugin } from './transforms.js';

export type AreaPlugin = (app: FastifyInstance, opts: { ctx: ApiContext }) => Promise<void>;

export const API_AREA_PLUGINS: readonly AreaPlugin[] = [
  oauthPlugin,
  clientsPlugin,
  patsPlugin,
  publicIdentitiesPlugin,
  accountsPlugin,
  activitiesPlugin,
  sourcesPlugin,
  transformsPlugin,
  profilesPlugin,
  searchPlugin,
  previewPlugin,
];
