// GET /openapi.json is an OpenAPI 3 document generated from the route schemas.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testServer, type TestServer } from '../helpers.js';
import { ERROR_CATALOGUE } from '../../../src/errors/index.js';

describe('GET /openapi.json', () => {
  let s: TestServer;
  let doc: { openapi: string; paths: Record<string, Record<string, Record<string, unknown>>>; components: Record<string, Record<string, unknown>> };
  beforeAll(async () => {
    s = await testServer();
    doc = (await s.api.inject({ url: '/openapi.json' })).json();
  });
  afterAll(async () => {
    await s.close();
  });

  it('is OpenAPI 3.1 with the bearer scheme and the error body', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes!.bearer).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(doc.components.schemas!.ErrorResponse).toMatchObject({ required: ['detailCode', 'trackingId', 'messages', 'causes', 'code'] });
    // Our member: the catalogue's codes, so that generated clients know every value.
    expect((doc.components.schemas!.ErrorResponse as { properties: { code: { enum: string[] } } }).properties.code.enum).toEqual(Object.keys(ERROR_CATALOGUE));
  });

  it.each([
    ['/oauth-clients/v1', 'get'],
    ['/v3/oauth-clients', 'get'],
    ['/oauth-clients/v1/{id}', 'get'],
    ['/v3/oauth-clients/{id}', 'get'],
    ['/personal-access-tokens/v1', 'post'],
    ['/v3/personal-access-tokens', 'get'],
    ['/v3/personal-access-tokens/{id}', 'delete'],
    ['/oauth/token', 'post'],
    ['/oauth/info', 'get'],
  ])('documents %s %s', (path, method) => {
    expect(doc.paths[path]?.[method]).toBeDefined();
  });

  it('derives parameters, bodies and responses from the route schemas', () => {
    const get = doc.paths['/oauth-clients/v1/{id}']!.get!;
    expect(get.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }]);
    expect(get.security).toEqual([{ oauth2: [] }, { bearer: [] }]);
    const create = doc.paths['/personal-access-tokens/v1']!.post! as { requestBody: { content: Record<string, { schema: { required: string[] } }> } };
    expect(create.requestBody.content['application/json']!.schema.required).toEqual(['name']);
    const token = doc.paths['/oauth/token']!.post! as { security: unknown[]; requestBody: { content: Record<string, unknown> } };
    expect(token.security).toEqual([]);
    expect(Object.keys(token.requestBody.content)).toEqual(['application/x-www-form-urlencoded', 'multipart/form-data']);
  });

  it('gives every operation a unique operationId', () => {
    // Path items may also carry `servers` (the login and non-employee listeners), which are not operations.
    const ids = Object.values(doc.paths).flatMap((p) => Object.entries(p).filter(([k]) => k !== 'servers').map(([, op]) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
