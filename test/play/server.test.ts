// The playground's HTTP server as a browser, another site's page and a careless client reach it:
// loopback only, the token on every API call, Host and Origin checked, bodies bounded and
// validated, and every refusal a coded error. The page it serves is the source HTML here (the
// built bundle is the browser test's, test/e2e/play-browser.test.ts).

import { request } from 'node:http';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlayHost } from '../../src/play/host.js';
import { MAX_BODY_BYTES, startPlayServer, type PlayServer } from '../../src/play/server.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures');
const PAGE = resolve(import.meta.dirname, '../../src/play/page');

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly the headers given (Host included, which fetch would not let us set). */
function call(server: PlayServer, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const url = new URL(path, server.origin);
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port: url.port, path: url.pathname + url.search, method: options.method ?? 'GET', headers: { host: url.host, ...options.headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => done({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end(options.body);
  });
}

const errorOf = (answer: Answer) => (JSON.parse(answer.body) as { error: { code: string; path?: string } }).error;

describe('the playground server', () => {
  let server: PlayServer;
  let auth: Record<string, string>;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(server, path, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  beforeAll(async () => {
    server = await startPlayServer(await PlayHost.open(FIXTURES), { assets: PAGE });
    auth = { authorization: `token ${server.token}` };
  });
  afterAll(() => server?.close());

  it('listens on the loopback address and prints a URL with a random token', () => {
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url).toBe(`${server.origin}/?token=${server.token}`);
    expect(server.token).toMatch(/^[0-9a-f]{64}$/);
  });

  it('serves the page under a strict Content-Security-Policy whose style nonce the page carries', async () => {
    const page = await call(server, '/');
    expect(page.status).toBe(200);
    const policy = String(page.headers['content-security-policy']);
    const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
    expect(policy).toContain("default-src 'none'; script-src 'self';");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(page.body).toContain(`<meta name="csp-nonce" content="${nonce}">`);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const again = await call(server, '/');
    expect(again.headers['content-security-policy']).not.toBe(policy);
  });

  it('answers its API with the token', async () => {
    const state = await call(server, '/api/state', { headers: auth });
    expect(state.status).toBe(200);
    expect(JSON.parse(state.body)).toMatchObject({ identities: 209, examples: expect.arrayContaining([expect.objectContaining({ file: 'transforms/clean-department.json' })]) });
    const value = await post('/api/analyze', { document: '{"name":"x","type":"static","attributes":{"value":"Hi"}}', identity: 'fatima.schroder' });
    expect(JSON.parse(value.body)).toMatchObject({ value: 'Hi' });
  });

  it.each([
    ['no token', (): Record<string, string> => ({})],
    ['another token', () => ({ authorization: 'token 0000' })],
    ['the token in another scheme', (token: string) => ({ authorization: `Bearer ${token}` })],
  ])('refuses an API call with %s: PLAY_TOKEN_INVALID', async (_, headers) => {
    const answer = await call(server, '/api/state', { headers: headers(server.token) });
    expect(answer.status).toBe(401);
    expect(errorOf(answer).code).toBe('PLAY_TOKEN_INVALID');
  });

  it.each(['evil.example:80', 'attacker.test', '127.0.0.1', '127.0.0.1:1'])('refuses the Host "%s" (DNS rebinding), even with the token', async (host) => {
    const answer = await call(server, '/api/state', { headers: { ...auth, host } });
    expect(answer.status).toBe(403);
    expect(errorOf(answer).code).toBe('PLAY_HOST_REFUSED');
  });

  it('answers under localhost too', async () => {
    const port = new URL(server.origin).port;
    expect((await call(server, '/api/state', { headers: { ...auth, host: `localhost:${port}`, origin: `http://localhost:${port}` } })).status).toBe(200);
  });

  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['the null Origin of a sandboxed frame', { origin: 'null' }],
    ['a cross-site fetch', { 'sec-fetch-site': 'cross-site' }],
  ])('refuses %s, even with the token: PLAY_ORIGIN_REFUSED', async (_, headers: Record<string, string>) => {
    const answer = await post('/api/analyze', { document: '{}' }, headers);
    expect(answer.status).toBe(403);
    expect(errorOf(answer).code).toBe('PLAY_ORIGIN_REFUSED');
  });

  it.each([
    ['a body that is not JSON', '{"document": "{"', {}, 'PLAY_REQUEST_INVALID', undefined],
    ['a form post', 'document=x', { 'content-type': 'application/x-www-form-urlencoded' }, 'PLAY_REQUEST_INVALID', undefined],
    ['an unknown member', { document: '{}', script: 'x' }, {}, 'PLAY_REQUEST_INVALID', '/script'],
    ['a missing member', { identity: 'x' }, {}, 'PLAY_REQUEST_INVALID', '/document'],
    ['a wrong type', { document: 42 }, {}, 'PLAY_REQUEST_INVALID', '/document'],
    ['a negative caret', { document: '{}', offset: -1 }, {}, 'PLAY_REQUEST_INVALID', '/offset'],
  ])('refuses %s with a coded error at its pointer', async (_, body, headers: Record<string, string>, code, path) => {
    const answer = await post('/api/analyze', body, headers);
    expect(answer.status).toBe(400);
    expect(errorOf(answer)).toMatchObject({ code, ...(path !== undefined ? { path } : {}) });
  });

  it('refuses a body above its bound, 1 MB pasted into the editor, and answers the next call', async () => {
    const answer = await post('/api/analyze', { document: 'x'.repeat(1024 * 1024) });
    expect(answer.status).toBe(413);
    expect(errorOf(answer).code).toBe('PLAY_REQUEST_TOO_LARGE');
    expect(MAX_BODY_BYTES).toBeLessThan(1024 * 1024);
    expect((await call(server, '/api/state', { headers: auth })).status).toBe(200);
  });

  it('refuses an impact of a document nested 40,000 levels deep with JSON_TOO_DEEP at its pointer, and runs the next', async () => {
    const deep = `{"name":"x","type":"static","attributes":${'{"a":'.repeat(40_000)}1${'}'.repeat(40_000)}}`;
    const answer = await post('/api/impact', { document: deep, file: 'transforms/clean-department.json' });
    expect(answer.status).toBe(400);
    expect(errorOf(answer)).toMatchObject({ code: 'JSON_TOO_DEEP', path: `/document/attributes${'/a'.repeat(999)}` });
    expect((await call(server, '/api/state', { headers: auth })).status).toBe(200);
  });

  it('says what it does not have, and which method a route takes', async () => {
    expect(errorOf(await call(server, '/api/nothing', { headers: auth }))).toMatchObject({ code: 'PLAY_NOT_FOUND' });
    expect(errorOf(await call(server, '/api/example?file=../package.json', { headers: auth }))).toMatchObject({ code: 'PLAY_NOT_FOUND' });
    const wrong = await call(server, '/api/analyze', { headers: auth });
    expect(wrong.status).toBe(405);
    expect(errorOf(wrong).code).toBe('PLAY_METHOD_NOT_ALLOWED');
  });
});

describe('a failure of the playground server itself', () => {
  const SECRET = "ENOENT: no such file or directory, open '/home/someone/private/tenant.json'";
  const logged: string[] = [];
  let server: PlayServer;

  beforeAll(async () => {
    const host = await PlayHost.open(FIXTURES);
    // A defect stood in for: the state route's host method throws an error nobody coded.
    const broken = Object.assign(Object.create(host) as PlayHost, {
      examples: () => {
        throw new Error(SECRET);
      },
    });
    server = await startPlayServer(broken, { assets: PAGE, log: (line) => logged.push(line) });
  });
  afterAll(() => server?.close());

  it('answers 500 PLAY_INTERNAL with a fixed message and a tracking id, the detail only in its log', async () => {
    const answer = await call(server, '/api/state', { headers: { authorization: `token ${server.token}` } });
    expect(answer.status).toBe(500);
    const error = (JSON.parse(answer.body) as { error: { code: string; message: string; trackingId: string } }).error;
    expect(error.code).toBe('PLAY_INTERNAL');
    expect(error.trackingId).toMatch(/^[0-9a-f]{32}$/);
    expect(error.message).toBe(`the playground failed to answer (tracking id ${error.trackingId}: the play command's standard error has the detail)`);
    expect(answer.body).not.toContain('/home/someone');
    expect(answer.body).not.toContain('ENOENT');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(`play: internal error ${error.trackingId}: Error: ${SECRET}`);
  });

  it('goes on serving, each failure under an id of its own', async () => {
    const ids = await Promise.all([1, 2].map(async () => (JSON.parse((await call(server, '/api/state', { headers: { authorization: `token ${server.token}` } })).body) as { error: { trackingId: string } }).error.trackingId));
    expect(new Set(ids).size).toBe(2);
    expect((await call(server, '/api/identities?q=', { headers: { authorization: `token ${server.token}` } })).status).toBe(200);
  });
});
