// Error responses: every 4xx and 5xx carries {detailCode, trackingId, messages, causes} and our
// `code`, and the trackingId is in the pino log line of the failure.

import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, isErrorCode } from '../../../src/errors/index.js';
import { OAUTH_ERRORS } from '../../../src/api/plugins/errors.js';
import { ALICE_PAT, bearer, expectPlatformError, testServer, tokenFor } from '../helpers.js';

describe('platform error body and log line', () => {
  it.each<[string, number, string, string, { method?: 'GET' | 'POST'; url: string; payload?: string; headers?: Record<string, string> }]>([
    ['an unknown route', 404, '404 Not found', 'API_NOT_FOUND', { url: '/no/such/route' }],
    ['a body failing the route schema', 400, '400.1 Bad Request Content', 'API_BAD_REQUEST', { method: 'POST', url: '/v3/personal-access-tokens', payload: '{"name":5,"x":1}', headers: { 'content-type': 'application/json' } }],
    ['malformed JSON', 400, '400.1 Bad Request Content', 'API_BAD_REQUEST', { method: 'POST', url: '/v3/personal-access-tokens', payload: '{"name":', headers: { 'content-type': 'application/json' } }],
    ['an unsupported content type', 415, '415 Unsupported Media Type', 'API_UNSUPPORTED_MEDIA_TYPE', { method: 'POST', url: '/v3/personal-access-tokens', payload: 'name=x', headers: { 'content-type': 'text/plain' } }],
    ['a parameter the endpoint does not take', 400, '400.1 Bad Request Content', 'PARAM_UNSUPPORTED', { url: '/v3/personal-access-tokens?sorters=name' }],
    ['a body over 1 MiB', 413, '413 Payload Too Large', 'API_PAYLOAD_TOO_LARGE', { method: 'POST', url: '/v3/personal-access-tokens', payload: `{"name":"${'x'.repeat(1_100_000)}"}`, headers: { 'content-type': 'application/json' } }],
  ])('§7 %s → %i in the platform error body, its trackingId logged', async (_name, status, detailCode, code, request) => {
    const s = await testServer();
    try {
      const token = await tokenFor(s, ALICE_PAT);
      const res = await s.api.inject({ method: request.method ?? 'GET', url: request.url, payload: request.payload, headers: { ...bearer(token), ...request.headers } });
      expect(res.statusCode).toBe(status);
      const e = expectPlatformError(res.json());
      expect(e.detailCode).toBe(detailCode);
      expect(e.code).toBe(code);
      const line = s.logLines.find((l) => l.trackingId === e.trackingId);
      expect(line).toMatchObject({ level: 40, statusCode: status, detailCode, code });
    } finally {
      await s.close();
    }
  });

  it('lists each schema violation as a cause', async () => {
    const s = await testServer();
    try {
      const res = await s.api.inject({ method: 'POST', url: '/v3/personal-access-tokens', headers: bearer(await tokenFor(s, ALICE_PAT)), payload: { name: '' } });
      expect(res.json().causes).toEqual([{ locale: 'en-US', localeOrigin: 'DEFAULT', text: 'body/name must NOT have fewer than 1 characters' }]);
    } finally {
      await s.close();
    }
  });

  it('answers an internal failure with 500, a generic text, and the error in the log line', async () => {
    const s = await testServer();
    const token = await tokenFor(s, ALICE_PAT);
    s.store.db.close();
    try {
      const res = await s.api.inject({ url: '/v3/oauth-clients', headers: bearer(token) });
      expect(res.statusCode).toBe(500);
      const e = expectPlatformError(res.json());
      expect(e.detailCode).toBe('500.0 Internal Fault');
      expect(e.code).toBe('API_INTERNAL');
      expect(e.text).toBe('An internal fault occurred.');
      const line = s.logLines.find((l) => l.trackingId === e.trackingId)!;
      expect(line.level).toBe(50);
      expect((line.err as { message: string }).message).toMatch(/database connection is not open/);
    } finally {
      await s.close();
    }
  });

  it('catalogues every OAuth error code it maps to an RFC 6749 name', () => {
    for (const code of Object.keys(OAUTH_ERRORS)) expect(isErrorCode(code), code).toBe(true);
    expect(ERROR_CATALOGUE.API_OAUTH_INVALID_CLIENT!.status).toBe(401);
  });
});
