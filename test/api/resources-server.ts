// Shared set-up of the resource-area API tests: a server over the bundled tenant (fixtures/) with the
// resource plugin registered, and an admin token. When buildServer already registers
// resourcesPlugin (src/api/plugins/index.ts), that server is used as is; until then the API
// listener is assembled here from the same parts, in the same order, plus resourcesPlugin.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildServer, type ServerOptions } from '../../src/api/index.js';
import { installAuthentication } from '../../src/api/auth/authenticate.js';
import { SecretVerifier } from '../../src/api/auth/secrets.js';
import { TokenService } from '../../src/api/auth/tokens.js';
import type { ApiContext } from '../../src/api/context.js';
import { resolveOptions } from '../../src/api/options.js';
import { errors } from '../../src/api/plugins/errors.js';
import { openapi } from '../../src/api/plugins/openapi.js';
import { API_AREA_PLUGINS } from '../../src/api/plugins/index.js';
import { resourcesPlugin } from '../../src/api/plugins/resources.js';
import { seedStore } from '../../src/api/store/seed.js';
import { validateResponses } from './contract.js';
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

export const registeredByBuildServer = (API_AREA_PLUGINS as readonly unknown[]).includes(resourcesPlugin);

export async function resourceServer(options: ServerOptions = {}): Promise<ResourceServer> {
  const opts: ServerOptions = { fixtures: TENANT, secretHashCost: 10, logger: false, tokenRateLimit: false, ...options };
  if (registeredByBuildServer) {
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
  const resolved = resolveOptions(opts);
  const store = Store.open({ file: resolved.db });
  if (store.created) {
    store.setMeta('tenant_id', '00000000-0000-4000-8000-00000000feed');
    if (resolved.fixtures !== undefined) seedStore(store, resolved.fixtures, { now: new Date(resolved.clock()), secretHashCost: resolved.secretHashCost });
  }
  const tenantId = store.getMeta('tenant_id')!;
  const tokens = await TokenService.open(store, tenantId, resolved.clock);
  const urls = { baseUrl: 'http://127.0.0.1', loginUrl: 'http://127.0.0.1', nonEmployeeUrl: 'http://127.0.0.1' };
  const context: ApiContext = { store, tokens, secrets: new SecretVerifier(), options: resolved, tenantId, urls, now: resolved.clock };
  const api = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true }, bodyLimit: 1_048_576 }) as unknown as FastifyInstance;
  await api.register(errors);
  await api.register(openapi, { ctx: context });
  installAuthentication(api, context, { apiKeys: false });
  for (const plugin of API_AREA_PLUGINS) await api.register(plugin, { ctx: context });
  await api.register(resourcesPlugin, { ctx: context });
  await api.ready();
  validateResponses(api, 'api', api);
  return {
    api,
    store,
    context,
    async close() {
      await api.close();
      store.close();
    },
    async listen() {
      await api.listen({ host: '127.0.0.1', port: 0 });
      const address = api.server.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
      urls.baseUrl = url;
      return url;
    },
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
