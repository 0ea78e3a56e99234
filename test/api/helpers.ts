// Shared set-up of the API tests: a server over test/api/fixtures with a cheap scrypt cost, a
// pino logger whose lines the tests can read, and small request helpers.

import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { type ApiServer, type ServerOptions, buildServer } from '../../src/api/index.js';
import { isErrorCode, type ErrorCode } from '../../src/errors/index.js';
import { ContractValidator, servedDocument, validateResponses } from './contract.js';
import { tapListener, takeViolations } from './contract-http.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

export const ALICE = { id: 'a1f0c6d2-0000-4000-8000-000000000001', login: 'alice.admin', password: 'alice-password', identityId: 'id-alice' };
export const BOB = { id: 'a1f0c6d2-0000-4000-8000-000000000002', login: 'bob.user', password: 'bob-password', identityId: 'id-bob' };
export const WEB_APP = { id: '8d3a6c2e-5b1f-4c8e-9f7a-1e2d3c4b5a69', secret: 'web-app-secret', redirectUri: 'http://localhost:8080/callback' };
export const WEB_APP_NO_REFRESH = { id: '6f1e2d3c-4b5a-4968-8776-655443322110', secret: 'web-app-2-secret', redirectUri: 'https://app.example.com/cb' };
export const SERVICE = { id: 'c0ffee00-1111-4222-8333-444455556666', secret: 'service-secret' };
export const NE_READER = { id: 'c0ffee00-7777-4888-8999-aaaabbbbcccc', secret: 'reader-secret' };
export const LEGACY = { id: '0123456789abcdef0123456789abcdef', secret: 'legacy-secret' };
export const DISABLED = { id: 'd15ab1ed-0000-4000-8000-000000000000', secret: 'disabled-secret' };
export const ALICE_PAT = { id: '7a7a7a7a-0000-4000-8000-00000000000a', secret: 'alice-pat-secret' };
export const BOB_PAT = { id: '7b7b7b7b-0000-4000-8000-00000000000b', secret: 'bob-pat-secret' };
export const ALICE_NARROW_PAT = { id: '7c7c7c7c-0000-4000-8000-00000000000c', secret: 'alice-narrow-secret' };
export const NE_KEY = 'ne-legacy-key-0123456789abcdef';

export interface TestServer extends ApiServer {
  logLines: Record<string, unknown>[];
}

export async function testServer(options: ServerOptions = {}): Promise<TestServer> {
  const logLines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line !== '') logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const server = await buildServer({
    fixtures: FIXTURES,
    secretHashCost: 10,
    logger: pino({ level: 'info' }, stream) as FastifyBaseLogger,
    ...options,
  });
  checkContract(server);
  return Object.assign(server, { logLines });
}

/**
 * Every response of the three listeners is checked against /openapi.json: those of inject()
 * (contract.ts), and, once the server listens, those it writes to its sockets (contract-http.ts;
 * close() fails on a violation no test has reported yet).
 */
export function checkContract(server: Pick<ApiServer, 'api' | 'login' | 'nonEmployee' | 'listen' | 'close'>): void {
  validateResponses(server.api, 'api', server.api);
  validateResponses(server.login, 'login', server.api);
  validateResponses(server.nonEmployee, 'nonEmployee', server.api);
  const { listen, close } = server;
  server.listen = async (options) => {
    const urls = await listen.call(server, options);
    const validator = new ContractValidator(await servedDocument(server.api));
    tapListener(server.api.server, 'api', validator);
    tapListener(server.login.server, 'login', validator);
    tapListener(server.nonEmployee.server, 'nonEmployee', validator);
    return urls;
  };
  server.close = async () => {
    await close.call(server);
    const found = takeViolations();
    if (found.length > 0) throw new Error(`a socket response not documented by /openapi.json:\n${found.join('\n')}`);
  };
}

export function form(params: Record<string, string>): { payload: string; headers: Record<string, string> } {
  return { payload: new URLSearchParams(params).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
}

/** A client-credentials token for a client or PAT. */
export async function tokenFor(server: ApiServer, client: { id: string; secret: string }, extra: Record<string, string> = {}): Promise<string> {
  const res = await server.api.inject({ method: 'POST', url: '/oauth/token', ...form({ grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret, ...extra }) });
  if (res.statusCode !== 200) throw new Error(`token request failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { access_token: string }).access_token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The shape every 4xx/5xx body has (the platform error body, docs/decisions.md A30). */
export function expectPlatformError(body: unknown): { detailCode: string; trackingId: string; text: string; code: ErrorCode } {
  const b = body as { detailCode: unknown; trackingId: unknown; messages: { locale: unknown; localeOrigin: unknown; text: unknown }[]; causes: unknown; code: unknown };
  if (typeof b.detailCode !== 'string' || typeof b.trackingId !== 'string' || !/^[0-9a-f]{32}$/.test(b.trackingId)) throw new Error(`not a platform error body: ${JSON.stringify(body)}`);
  if (!isErrorCode(b.code)) throw new Error(`no catalogued code in the error body: ${JSON.stringify(body)}`);
  if (!Array.isArray(b.messages) || b.messages.length === 0 || !Array.isArray(b.causes)) throw new Error(`not a platform error body: ${JSON.stringify(body)}`);
  const m = b.messages[0]!;
  if (m.locale !== 'en-US' || m.localeOrigin !== 'DEFAULT' || typeof m.text !== 'string') throw new Error(`bad message: ${JSON.stringify(m)}`);
  return { detailCode: b.detailCode, trackingId: b.trackingId, text: m.text, code: b.code };
}
