// Requests that go wrong below the routes (docs/decisions.md A30: every 4xx carries the platform
// error body): credentials that do not decode, headers over Node's size limit, URLs that do not
// decode. Each answer is a 4xx in the platform's body, never a 500 or Fastify's own body.

import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE, expectPlatformError, testServer, type TestServer } from './helpers.js';

/** Send raw bytes and read the whole answer (the server closes the connection). */
function raw(port: number, request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('utf8')));
    socket.on('error', (err) => (data === '' ? reject(err) : undefined));
    socket.on('close', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1]), headers: head ?? '', body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
  });
}

describe('hostile HTTP', () => {
  let s: TestServer;
  let port: number;
  beforeAll(async () => {
    s = await testServer({ tokenRateLimit: false });
    const urls = await s.listen({ host: '127.0.0.1' });
    port = Number(new URL(urls.baseUrl).port);
  });
  afterAll(async () => {
    await s.close();
  });

  it.each([
    ['a bad % escape in the client id', `${encodeURIComponent(SERVICE.id)}%zz:secret`],
    ['a bad % escape in the secret', `${SERVICE.id}:%E0%A4%A`],
    ['a lone % at the end', `${SERVICE.id}:abc%`],
  ])('answers Basic credentials with %s as invalid_client (401) in the platform body', async (_name, credentials) => {
    const res = await s.api.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { authorization: `Basic ${Buffer.from(credentials).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    });
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json()).toMatchObject({ error: 'invalid_client' });
    expect(expectPlatformError(res.json()).text).toMatch(/malformed/);
  });

  it('answers a multipart token request that does not parse with invalid_request (400), not 500 (found by the HTTP fuzzer)', async () => {
    const res = await s.api.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '[{"op":"copy"}]' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request' });
    expect(expectPlatformError(res.json()).text).toMatch(/multipart body is malformed/);
  });

  it('answers headers over the size limit with 431 in the platform body', async () => {
    const res = await raw(port, `GET /oauth/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(expectPlatformError(JSON.parse(res.body))).toMatchObject({ detailCode: '431 Request Header Fields Too Large', code: 'API_HEADERS_TOO_LARGE' });
  });

  it('answers a request that is not HTTP with 400 in the platform body', async () => {
    const res = await raw(port, 'HELLO\r\n\r\n');
    expect(res.status).toBe(400);
    expect(expectPlatformError(JSON.parse(res.body)).detailCode).toBe('400.1 Bad Request Content');
  });

  it('answers a path that does not percent-decode with 400 in the platform body', async () => {
    const res = await s.api.inject({ url: '/v3/sources/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expectPlatformError(res.json());
  });
});
