// The response check of the API suite (contract.ts) fails a response the document does not
// describe: an undocumented status, a body of the wrong shape, an undocumented content type or
// X-Total-Count. What a well-behaved response looks like passes. The same check runs on what a
// listening server writes to its sockets and on what a `serve` process answers (contract-http.ts).

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ContractValidator, servedDocument } from './contract.js';
import { contractFetch, contractProxy, tapListener, takeViolations } from './contract-http.js';
import { testServer, type TestServer } from './helpers.js';

let server: TestServer;
let contract: ContractValidator;
beforeAll(async () => {
  server = await testServer();
  contract = new ContractValidator(await servedDocument(server.api));
});
afterAll(() => server.close());

const response = (statusCode: number, body: unknown, headers: Record<string, string> = {}) =>
  ({ statusCode, body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json; charset=utf-8', ...headers } }) as unknown as LightMyRequestResponse;

const CLIENT = { id: 'x', name: 'n', enabled: true, created: '2024-01-01T00:00:00.000Z', grantTypes: ['CLIENT_CREDENTIALS'], redirectUris: [], secret: null };

describe('the contract check of every API test response', () => {
  it('passes a documented status with a body of the documented shape', () => {
    expect(contract.check('api', 'GET', '/oauth-clients/v1?limit=1', response(200, [CLIENT], { 'x-total-count': '1' }))).toEqual([]);
  });

  it('fails an undocumented status', () => {
    expect(contract.check('api', 'GET', '/oauth-clients/v1', response(418, {}))[0]).toMatch(/status 418 is not documented/);
  });

  it('fails a body that does not match the schema', () => {
    expect(contract.check('api', 'GET', '/oauth-clients/v1', response(200, [{ ...CLIENT, secret: 'leaked' }]))[0]).toMatch(/does not match its schema/);
    expect(contract.check('api', 'GET', '/v3/sources/abc', response(404, { detailCode: 404 }))[0]).toMatch(/does not match its schema/);
  });

  it('fails an undocumented content type and an undocumented X-Total-Count', () => {
    expect(contract.check('api', 'GET', '/oauth-clients/v1/x', response(200, CLIENT, { 'content-type': 'text/plain' }))[0]).toMatch(/content type text\/plain/);
    expect(contract.check('api', 'GET', '/oauth-clients/v1/x', response(200, CLIENT, { 'x-total-count': '3' }))[0]).toMatch(/X-Total-Count is not documented/);
  });

  it('checks the login listener against its own paths', () => {
    expect(contract.check('login', 'GET', '/logout', response(200, '<html></html>', { 'content-type': 'text/html' }))).toEqual([]);
    expect(contract.check('login', 'GET', '/logout', response(302, '', { location: '/' }))[0]).toMatch(/status 302 is not documented/);
  });
});

describe('the contract check over real sockets', () => {
  it('records an answer a listening server writes that the document does not describe', async () => {
    const s = await testServer();
    try {
      const { baseUrl } = await s.listen();
      // A document without the 401 of GET /v3/sources: the server's real 401 is then undocumented.
      const doc = structuredClone(await servedDocument(s.api)) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
      delete doc.paths['/v3/sources']!.get!.responses['401'];
      tapListener(s.api.server, 'api', new ContractValidator(doc));
      expect((await fetch(`${baseUrl}/v3/sources`)).status).toBe(401);
      const found = takeViolations();
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^GET \/v3\/sources \(\/v3\/sources\) → 401: status 401 is not documented/);
      // The served document documents it: the tap installed by listen() records nothing.
      expect((await fetch(`${baseUrl}/oauth/info`)).status).toBe(200);
      expect(takeViolations()).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it("contractFetch throws on an answer of another process that its /openapi.json does not describe", async () => {
    const doc = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { '/ok': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array' } } } } } } } } };
    const other = createServer((req, res) => {
      const path = req.url!.split('?')[0];
      const body = path === '/openapi.json' ? JSON.stringify(doc) : path === '/ok' ? '[]' : '{}';
      res.writeHead(path === '/teapot' ? 418 : 200, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const checked = contractFetch({ baseUrl });
      expect((await checked(`${baseUrl}/ok`)).status).toBe(200);
      await expect(checked(`${baseUrl}/ok?x=1`, { method: 'GET' })).resolves.toBeInstanceOf(Response);
      doc.paths['/ok'].get.responses['200'].content['application/json'].schema.type = 'object';
      // The document was read once, on the first request: its later change is not seen.
      expect((await checked(`${baseUrl}/ok`)).status).toBe(200);
      const fresh = contractFetch({ baseUrl });
      await expect(fresh(`${baseUrl}/ok`)).rejects.toThrow(/GET \/ok \(\/ok\) → 200: the body does not match its schema/);
      doc.paths['/teapot' as '/ok'] = doc.paths['/ok'];
      await expect(contractFetch({ baseUrl })(`${baseUrl}/teapot`)).rejects.toThrow(/status 418 is not documented/);

      // The same check as a proxy, for a client in another process: the answer passes through unchanged.
      const proxy = await contractProxy(baseUrl);
      try {
        const res = await fetch(`${proxy.url}/teapot`, { method: 'POST', body: 'x' });
        expect([res.status, await res.text()]).toEqual([418, '{}']);
        // POST /teapot is no operation of the document: not checked, as with inject().
        expect(takeViolations()).toEqual([]);
        expect((await fetch(`${proxy.url}/teapot`)).status).toBe(418);
        expect(takeViolations()).toEqual([expect.stringMatching(/^GET \/teapot \(\/teapot\) → 418: status 418 is not documented/)]);
      } finally {
        await proxy.close();
      }
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
