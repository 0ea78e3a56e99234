// Shared set-up of the resource API tests: a server over the bundled tenant (fixtures/), its
// responses checked against /openapi.json, and tokens for the fixture PATs.

import type { FastifyInstance } from 'fastify';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, type ServerOptions } from '../../src/api/index.js';
import type { ApiContext } from '../../src/api/context.js';
import { checkContract } from './helpers.js';
import { Store } from '../../src/api/store/store.js';

export const TENANT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');
export const ADMIN_PAT = { id: 'e1d2c3b4-a596-4877-8a69-5b4c3d2e1f00', secret: 'fixture-only-admin-pat-secret' };
/** noah.andersen: a user without capabilities. */
export const USER_PAT = { id: 'e1d2c3b4-a596-4877-8a69-5b4c3d2e1f01', secret: 'fixture-only-user-pat-secret' };

export interface ResourceServer {
  api: FastifyInstance;
  store: Store;
  context: ApiContext;
  close(): Promise<void>;
  listen(): Promise<string>;
}

export async function resourceServer(options: ServerOptions = {}): Promise<ResourceServer> {
  const opts: ServerOptions = { fixtures: TENANT, secretHashCost: 10, logger: false, tokenRateLimit: false, ...options };
  const server = await buildServer(opts);
  checkContract(server);
  return {
    api: server.api,
    store: server.store,
    context: server.context,
    close: () => server.close(),
    listen: async () => (await server.listen()).baseUrl,
  };
}

export async function tokenOf(server: ResourceServer, client: { id: string; secret: string }): Promise<string> {
  const res = await server.api.inject({
    method: 'POST',
    url: '/oauth/token',
    payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (res.statusCode !== 200) throw new Error(`token request failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { access_token: string }).access_token;
}
