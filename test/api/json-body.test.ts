// How the API reads a JSON body (src/api/json-body.ts), over real HTTP: a body declaring a charset
// other than UTF-8 is 415 (the token endpoint's form bodies too), and a key that would set a
// prototype is refused by name and pointer — both in the platform's error body.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE_PAT, expectPlatformError, testServer, tokenFor, type TestServer } from './helpers.js';


const TRANSFORM = { name: 'Lower charset', type: 'lower', attributes: {} };

describe('JSON request bodies', () => {
  let s: TestServer;
  let base: string;
  let token: string;
  beforeAll(async () => {
    s = await testServer({ tokenRateLimit: false });
    base = (await s.listen({ host: '127.0.0.1' })).baseUrl;
    token = await tokenFor(s, ALICE_PAT);
  });
  afterAll(async () => {
    await s.close();
  });

  const post = (url: string, contentType: string, body: string) => fetch(`${base}${url}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, body });

  it.each(['application/json; charset=utf-16', 'application/json; CHARSET="UTF-16LE"', 'application/json;charset=iso-8859-1'])('answers %s with 415 API_UNSUPPORTED_MEDIA_TYPE', async (type) => {
    const res = await post('/v3/transforms', type, JSON.stringify(TRANSFORM));
    expect(res.status).toBe(415);
    const error = expectPlatformError(await res.json());
    expect(error.code).toBe('API_UNSUPPORTED_MEDIA_TYPE');
    expect(error.text).toMatch(/^The body must be UTF-8 JSON; Content-Type declares charset=(utf-16|utf-16le|iso-8859-1)\.$/);
  });

  it('refuses a JSON Patch body declaring another charset alike', async () => {
    const res = await fetch(`${base}/v3/sources/x`, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json-patch+json; charset=utf-16' }, body: '[]' });
    expect(res.status).toBe(415);
    expect(expectPlatformError(await res.json()).code).toBe('API_UNSUPPORTED_MEDIA_TYPE');
  });

  it.each(['application/json; charset=utf-8', 'application/json; charset="UTF-8"', 'application/json'])('takes %s', async (type) => {
    const res = await post('/v3/transforms', type, JSON.stringify({ ...TRANSFORM, name: `Lower ${type}` }));
    expect(res.status).toBe(201);
  });

  it('refuses a __proto__ key with 400 API_BAD_REQUEST naming the key and its JSON Pointer', async () => {
    const res = await post('/v3/transforms', 'application/json', '{"name":"p","type":"lower","attributes":{"input":[{"__proto__":{"x":1}}]}}');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { causes: unknown };
    const error = expectPlatformError(body);
    expect(error.code).toBe('API_BAD_REQUEST');
    expect(error.text).toBe("The body holds a key named __proto__ at /attributes/input/0/__proto__: refused, as it would set an object's prototype.");
  });

  it('refuses constructor.prototype alike, and still calls malformed JSON malformed', async () => {
    const ctor = expectPlatformError(await (await post('/v3/transforms', 'application/json', '{"constructor":{"prototype":{}}}')).json());
    expect(ctor.text).toBe("The body holds a key named constructor.prototype at /constructor/prototype: refused, as it would set an object's prototype.");
    const bad = await post('/v3/transforms', 'application/json', '{"name":');
    expect(bad.status).toBe(400);
    expect(expectPlatformError(await bad.json()).text).toMatch(/not valid JSON/);
  });
});

describe('the token endpoint\'s form bodies', () => {
  let s: TestServer;
  let base: string;
  beforeAll(async () => {
    s = await testServer({ tokenRateLimit: false });
    base = (await s.listen({ host: '127.0.0.1' })).baseUrl;
  });
  afterAll(async () => {
    await s.close();
  });

  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: ALICE_PAT.id, client_secret: ALICE_PAT.secret }).toString();
  const token = (contentType: string) => fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': contentType }, body: form });

  it.each(['application/x-www-form-urlencoded; charset=iso-8859-1', 'Application/X-WWW-Form-Urlencoded;CHARSET="UTF-16"'])('answers %s with 415 API_UNSUPPORTED_MEDIA_TYPE and issues no token', async (type) => {
    const res = await token(type);
    expect(res.status).toBe(415);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).not.toHaveProperty('access_token');
    const error = expectPlatformError(body);
    expect(error.code).toBe('API_UNSUPPORTED_MEDIA_TYPE');
    expect(error.text).toMatch(/^The body must be UTF-8 form data; Content-Type declares charset=(iso-8859-1|utf-16)\.$/);
  });

  it.each(['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=UTF-8'])('issues a token for %s', async (type) => {
    const res = await token(type);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { access_token?: unknown }).access_token).toEqual(expect.any(String));
  });
});
