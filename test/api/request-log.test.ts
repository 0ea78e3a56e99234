// The request log: one line per request on every listener, and no credential in any line
// (RFC 6749 §2.3.1 lets a client send client_secret as a request parameter; the token endpoint
// also takes it in the query string, reference of the official SDK). Headers and bodies are
// never logged.

import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactUrl } from '../../src/api/request-log.js';
import { ALICE, ALICE_PAT, WEB_APP, bearer, form, testServer, tokenFor } from './helpers.js';

describe('redactUrl', () => {
  it.each([
    ['/oauth/token?grant_type=client_credentials&client_id=abc&client_secret=s3cr3t', `/oauth/token?grant_type=client_credentials&client_id=abc&client_secret=${REDACTED}`],
    ['/x?password=p&refresh_token=r&code=c&token=t&access_token=a', `/x?password=${REDACTED}&refresh_token=${REDACTED}&code=${REDACTED}&token=${REDACTED}&access_token=${REDACTED}`],
    ['/x?CLIENT_SECRET=s', `/x?CLIENT_SECRET=${REDACTED}`],
    ['/x?client%5Fsecret=s', `/x?client%5Fsecret=${REDACTED}`],
    ['/x?client_secret=a&client_secret=b', `/x?client_secret=${REDACTED}&client_secret=${REDACTED}`],
    ['/x?bad%zzname=1&code=%zz', `/x?bad%zzname=1&code=${REDACTED}`],
    ['/v3/sources?filters=name eq "x"&limit=5', '/v3/sources?filters=name eq "x"&limit=5'],
    ['/x?client_secret', '/x?client_secret'],
    ['/plain/path', '/plain/path'],
  ])('%s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});

describe('the request log of the listeners', () => {
  it('writes one line per request and never a credential', async () => {
    const s = await testServer();
    try {
      const secrets = [ALICE_PAT.secret, WEB_APP.secret, ALICE.password, 'wrong-password-xyz'];
      const query = new URLSearchParams({ grant_type: 'client_credentials', client_id: ALICE_PAT.id, client_secret: ALICE_PAT.secret });
      const byQuery = await s.api.inject({ method: 'POST', url: `/oauth/token?${query.toString()}` });
      expect(byQuery.statusCode).toBe(200);
      const token = (byQuery.json() as { access_token: string }).access_token;
      secrets.push(token);
      const basic = Buffer.from(`${WEB_APP.id}:${WEB_APP.secret}`).toString('base64');
      const basicForm = form({ grant_type: 'client_credentials' });
      await s.api.inject({ method: 'POST', url: '/oauth/token', payload: basicForm.payload, headers: { ...basicForm.headers, authorization: `Basic ${basic}` } });
      await s.api.inject({ url: '/v3/oauth-clients', headers: bearer(token) });
      await s.api.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/json' }, payload: `{"client_secret":"${ALICE_PAT.secret}"` });
      await s.login.inject({
        method: 'POST',
        url: '/oauth/authorize',
        ...form({ client_id: WEB_APP.id, response_type: 'code', redirect_uri: WEB_APP.redirectUri, username: ALICE.login, password: 'wrong-password-xyz' }),
      });
      const login = await s.login.inject({
        method: 'POST',
        url: '/oauth/authorize',
        ...form({ client_id: WEB_APP.id, response_type: 'code', redirect_uri: WEB_APP.redirectUri, username: ALICE.login, password: ALICE.password }),
      });
      const code = new URL(login.headers.location as string).searchParams.get('code')!;
      secrets.push(code);
      await s.api.inject({ method: 'POST', url: `/oauth/token?grant_type=authorization_code&code=${code}&client_id=${WEB_APP.id}&client_secret=${WEB_APP.secret}&redirect_uri=${encodeURIComponent(WEB_APP.redirectUri)}` });

      // The contract check of the test server fetches /openapi.json once per listener: not this test's requests.
      const requests = s.logLines.filter((l) => typeof l.method === 'string' && l.url !== '/openapi.json');
      expect(requests.map((l) => `${String(l.method)} ${String(l.url).split('?')[0]}`)).toEqual([
        'POST /oauth/token', 'POST /oauth/token', 'GET /v3/oauth-clients', 'POST /oauth/token', 'POST /oauth/authorize', 'POST /oauth/authorize', 'POST /oauth/token',
      ]);
      // The web app has no client-credentials grant: its Basic credentials are checked, then refused.
      expect(requests.map((l) => l.statusCode)).toEqual([200, 400, 200, 400, 200, 303, 200]);
      expect(requests[0]).toMatchObject({ level: 30, url: `/oauth/token?grant_type=client_credentials&client_id=${ALICE_PAT.id}&client_secret=${REDACTED}` });
      expect(requests[0]!.msg).toMatch(new RegExp(`^POST /oauth/token\\?grant_type=client_credentials&client_id=${ALICE_PAT.id}&client_secret=\\[REDACTED\\] 200 [\\d.]+ ms$`));
      expect(requests[3]).toMatchObject({ level: 40, code: 'API_BAD_REQUEST', detailCode: '400.1 Bad Request Content', trackingId: expect.stringMatching(/^[0-9a-f]{32}$/) });
      // Fastify's own two lines per request are gone.
      expect(s.logLines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toEqual([]);
      const all = s.logLines.map((l) => JSON.stringify(l)).join('\n');
      for (const secret of secrets) expect(all).not.toContain(secret);
      expect(all).not.toMatch(/"authorization"|Basic [A-Za-z0-9]|Bearer /i);
    } finally {
      await s.close();
    }
  });

  it('writes the lines of the levels its logger writes: at warn, failures but no successes', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const s = await testServer({ logger: pino({ level: 'warn' }, stream) as FastifyBaseLogger });
    try {
      const token = await tokenFor(s, ALICE_PAT);
      expect((await s.api.inject({ url: '/v3/oauth-clients', headers: bearer(token) })).statusCode).toBe(200);
      expect((await s.api.inject({ url: '/v3/oauth-clients' })).statusCode).toBe(401);
      expect(lines.filter((l) => typeof l.method === 'string' && l.url !== '/openapi.json')).toEqual([
        expect.objectContaining({ level: 40, method: 'GET', url: '/v3/oauth-clients', statusCode: 401, code: 'API_UNAUTHORIZED' }),
      ]);
    } finally {
      await s.close();
    }
  });
});
