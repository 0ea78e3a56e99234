// The response check of the API suite (contract.ts) fails a response the document does not
// describe: an undocumented status, a body of the wrong shape, an undocumented content type or
// X-Total-Count. What a well-behaved response looks like passes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ContractValidator, servedDocument } from './contract.js';
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
