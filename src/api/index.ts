// identity-transforms/api: buildServer (https://developer.sailpoint.com/docs/api/authentication,
// https://developer.sailpoint.com/docs/api/api-versioning-strategy).
// Three listeners, as the platform has three hosts: the API gateway ({base_url}, also the token
// endpoint), the login host ({login_url}, the authorize endpoint) and the non-employee service.

import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { type RouteAuth, installAuthentication } from './auth/authenticate.js';
import { SecretVerifier, apiKeyLookup, hashSecret, verifySecretSync } from './auth/secrets.js';
import { TokenService } from './auth/tokens.js';
import { type AdminCredentials, ensureAdminPat } from './bootstrap.js';
import type { ApiContext } from './context.js';
import { type ResolvedOptions, type ServerOptions, type ServerUrls, resolveOptions } from './options.js';
import { clientErrorHandler, errors, frameworkErrors } from './plugins/errors.js';
import { API_AREA_PLUGINS } from './plugins/index.js';
import { loginPlugin } from './plugins/login.js';
import { nonEmployeePlugin } from './plugins/nonemployee.js';
import { jsonBodyParser } from './json-body.js';
import { checkJsonDepth } from './json-limits.js';
import { describeListener, openapi } from './plugins/openapi.js';
import { installRequestLog } from './request-log.js';
import { API_KEY_LOOKUP_LENGTH, API_KEY_LOOKUP_META } from './store/auth-repo.js';
import { deriveSourceSchemas, type SeedSummary, seedStore } from './store/seed.js';
import { Store } from './store/store.js';

export type { ApiContext } from './context.js';
export type { AdminCredentials } from './bootstrap.js';
export type { RateLimitOptions, RequestLimits, ServerOptions, ServerUrls } from './options.js';
export { DEFAULT_REQUEST_LIMITS } from './options.js';
export type { PlatformErrorBody } from './plugins/errors.js';
export type { SeedSummary } from './store/seed.js';
export type { Principal, RouteAuth } from './auth/authenticate.js';
export { ALL_SCOPES, RIGHTS, CAPABILITY_RIGHTS } from './auth/rights.js';
export { Store } from './store/store.js';
export { SERVER_EVALUATION_LIMITS } from './evaluation-limits.js';

export interface ListenOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  loginPort?: number;
  nonEmployeePort?: number;
}

export interface ApiServer {
  /** {base_url}: every API call and the token endpoint. */
  readonly api: FastifyInstance;
  /** {login_url}: the authorization endpoint. */
  readonly login: FastifyInstance;
  /** {nonemployee_base_url}. */
  readonly nonEmployee: FastifyInstance;
  readonly context: ApiContext;
  readonly store: Store;
  readonly tenantId: string;
  /** What was seeded from the fixtures; null when the store already existed. */
  readonly seeded: SeedSummary | null;
  readonly urls: ServerUrls;
  /** Every route of the three listeners (HEAD excluded), with its access rule. */
  readonly routes: readonly RegisteredRoute[];
  listen(options?: ListenOptions): Promise<ServerUrls>;
  /** The admin PAT for `serve` (see bootstrap.ts). */
  ensureAdminPat(fixed?: { clientId: string; clientSecret: string }): Promise<AdminCredentials>;
  close(): Promise<void>;
}

/** One registered route of a listener, as the server's own hooks saw it (least-privilege tests, fuzzers). */
export interface RegisteredRoute {
  readonly listener: 'api' | 'login' | 'nonEmployee';
  readonly method: string;
  readonly url: string;
  readonly auth: RouteAuth | undefined;
  readonly public: boolean;
}

function newListener(opts: ResolvedOptions, name: RegisteredRoute['listener'], routes: RegisteredRoute[]): FastifyInstance {
  const logger = opts.logger;
  const app = Fastify({
    ...(logger === false ? { logger: false } : { loggerInstance: logger }),
    // The platform's documentation writes the OAuth client list as /oauth-clients/v1/ with a trailing slash.
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: opts.requestLimits.maxBodyBytes,
    // Refusals of the HTTP parser and of the router answer in the platform error body too.
    clientErrorHandler,
    frameworkErrors,
    // Unknown body properties are errors, not silently dropped (Fastify's default removes them).
    ajv: { customOptions: { removeAdditional: false } },
    // One redacted line per request instead of Fastify's two (request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
  }) as unknown as FastifyInstance;
  app.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (method === 'HEAD') continue;
      routes.push(Object.freeze({ listener: name, method, url: route.url, auth: route.config?.auth, public: route.config?.public === true }));
    }
  });
  installRequestLog(app, logger !== false);
  return app;
}

function addApiKeys(store: Store, options: ResolvedOptions, now: string): void {
  for (const key of options.nonEmployeeApiKeys) {
    const lookup = apiKeyLookup(store.secretKey(API_KEY_LOOKUP_META), key);
    const known = store.identity.apiKeysByLookup(lookup, key.slice(0, API_KEY_LOOKUP_LENGTH));
    // Same key passed again on a restart: keep the one already stored.
    if (known.some((k) => verifySecretSync(key, k.keyHash))) continue;
    store.identity.insertApiKey({ id: randomUUID(), name: 'serve --nonemployee-api-key', keyHash: hashSecret(key, options.secretHashCost), created: now }, lookup);
  }
}

export async function buildServer(options: ServerOptions = {}): Promise<ApiServer> {
  const opts = resolveOptions(options);
  const store = Store.open({ file: opts.db });
  const listeners: FastifyInstance[] = [];
  try {
    const nowIso = new Date(opts.clock()).toISOString();
    let seeded: SeedSummary | null = null;
    if (store.created || store.getMeta('tenant_id') === null) {
      store.setMeta('tenant_id', randomUUID());
      store.setMeta('created', nowIso);
      if (opts.fixtures !== undefined) seeded = seedStore(store, opts.fixtures, { now: new Date(opts.clock()), secretHashCost: opts.secretHashCost, maxJsonDepth: opts.requestLimits.maxJsonDepth });
    }
    deriveSourceSchemas(store, nowIso);
    addApiKeys(store, opts, nowIso);
    const tenantId = store.getMeta('tenant_id')!;
    const tokens = await TokenService.open(store, tenantId, opts.clock);
    const urls: ServerUrls = {
      baseUrl: opts.urls.baseUrl ?? 'http://127.0.0.1',
      loginUrl: opts.urls.loginUrl ?? 'http://127.0.0.1',
      nonEmployeeUrl: opts.urls.nonEmployeeUrl ?? 'http://127.0.0.1',
    };
    const ctx: ApiContext = { store, tokens, secrets: new SecretVerifier(opts.secretHashCost), options: opts, tenantId, urls, now: opts.clock };

    const routes: RegisteredRoute[] = [];
    const api = newListener(opts, 'api', routes);
    const login = newListener(opts, 'login', routes);
    const nonEmployee = newListener(opts, 'nonEmployee', routes);
    listeners.push(api, login, nonEmployee);

    // The API speaks JSON (and forms on the token endpoint); plain text is 415, not a string body.
    api.removeContentTypeParser('text/plain');
    // JSON bodies as UTF-8 only, a prototype key refused by name and pointer (json-body.ts).
    api.removeContentTypeParser('application/json');
    api.addContentTypeParser('application/json', { parseAs: 'string' }, jsonBodyParser(api.getDefaultJsonParser('error', 'error')));
    await api.register(errors);
    // Every parsed body is checked for depth before the route's schema or handler reads it.
    api.addHook('preValidation', async (request) => checkJsonDepth(request.body, opts.requestLimits.maxJsonDepth, 'the request body'));
    await api.register(openapi, { ctx });
    installAuthentication(api, ctx, { apiKeys: false });
    for (const plugin of API_AREA_PLUGINS) await api.register(plugin, { ctx });

    await login.register(errors);
    await login.register(describeListener, { ctx, listener: 'login' });
    await login.register(loginPlugin, { ctx });

    await nonEmployee.register(errors);
    // Every request there is a credential check (an API key costs a scrypt), so the limit is
    // listener-wide and runs before authentication: an app-level hook added first runs first.
    const neLimit = opts.nonEmployeeRateLimit;
    if (neLimit !== false) {
      await nonEmployee.register(rateLimit, { global: false });
      nonEmployee.addHook('onRequest', nonEmployee.rateLimit({ max: neLimit.max, timeWindow: neLimit.timeWindowMs }));
    }
    await nonEmployee.register(describeListener, { ctx, listener: 'nonEmployee' });
    installAuthentication(nonEmployee, ctx, { apiKeys: true });
    await nonEmployee.register(nonEmployeePlugin, { ctx });

    // Route schemas are compiled here, at boot, not on first request.
    await Promise.all(listeners.map((l) => l.ready()));

    return {
      api,
      login,
      nonEmployee,
      context: ctx,
      store,
      tenantId,
      seeded,
      urls,
      routes,
      async listen(lo: ListenOptions = {}): Promise<ServerUrls> {
        const host = lo.host ?? '127.0.0.1';
        const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
        const at = async (l: FastifyInstance, port: number | undefined, name: string) => {
          await l.listen({ host, port: port ?? 0, listenTextResolver: (address) => `${name} listening at ${address}` });
          const address = l.server.address();
          return `http://${shown}:${typeof address === 'object' && address !== null ? address.port : port}`;
        };
        const [b, lg, ne] = [await at(api, lo.port, 'API'), await at(login, lo.loginPort, 'login page'), await at(nonEmployee, lo.nonEmployeePort, 'non-employee service')];
        urls.baseUrl = opts.urls.baseUrl ?? b;
        // The login host differs from the API host (https://developer.sailpoint.com/docs/api/authentication) by its port: another origin.
        urls.loginUrl = opts.urls.loginUrl ?? lg;
        urls.nonEmployeeUrl = opts.urls.nonEmployeeUrl ?? ne;
        return { ...urls };
      },
      ensureAdminPat: (fixed) => ensureAdminPat(ctx, fixed),
      async close(): Promise<void> {
        await Promise.all(listeners.map((l) => l.close()));
        store.close();
      },
    };
  } catch (err) {
    await Promise.all(listeners.map((l) => l.close()));
    store.close();
    throw err;
  }
}
