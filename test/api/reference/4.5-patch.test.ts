// Sources and source schemas over inject()
// (https://developer.sailpoint.com/docs/api/patch-requests): GET, PUT and PATCH in both layouts;
// 415 without the JSON Patch media type; immutable fields; atomicity; and the json-patch-tests
// vectors replayed through PATCH on a source's connectorAttributes.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PAT, resourceServer, tokenOf, type ResourceServer } from '../resources-server.js';
import { expectPlatformError } from '../helpers.js';
import { readConformanceJson } from '../../conformance/data.js';

const WORKDAY = '2c9180857c1c5f4a017c2d8e0f4b1a01';
const OKTA = '2c9180867d3e4b5a017d4f6a7b8c0d03';
const PATCH_TYPE = { 'content-type': 'application/json-patch+json' };

let server: ResourceServer;
let auth: Record<string, string>;

beforeAll(async () => {
  server = await resourceServer({ clock: () => Date.parse('2026-03-01T12:00:00Z') });
  auth = { authorization: `Bearer ${await tokenOf(server, ADMIN_PAT)}` };
});
afterAll(() => server.close());

const get = (url: string) => server.api.inject({ method: 'GET', url, headers: auth });
const patch = (url: string, ops: unknown, headers: Record<string, string> = PATCH_TYPE) =>
  server.api.inject({ method: 'PATCH', url, headers: { ...auth, ...headers }, payload: typeof ops === 'string' ? ops : JSON.stringify(ops) });
const put = (url: string, body: unknown) => server.api.inject({ method: 'PUT', url, headers: auth, payload: body as Record<string, unknown> });

describe('PATCH a source', () => {
  it.each([
    ['application/json', { 'content-type': 'application/json' }],
    ['text/plain', { 'content-type': 'text/plain' }],
  ])('§4.5 PATCH with Content-Type %s → 415 with the error body, nothing changed', async (_name, headers) => {
    const before = (await get(`/v3/sources/${OKTA}`)).body;
    const res = await patch(`/v3/sources/${OKTA}`, [{ op: 'replace', path: '/description', value: 'x' }], headers);
    expect(res.statusCode).toBe(415);
    expect(expectPlatformError(res.json()).detailCode).toBe('415 Unsupported Media Type');
    expect((await get(`/v3/sources/${OKTA}`)).body).toBe(before);
  });

  it('§4.5 PATCH applies the operations and answers the updated resource, in both layouts', async () => {
    const res = await patch(`/sources/v1/${OKTA}`, [
      { op: 'replace', path: '/description', value: 'SSO directory' },
      { op: 'add', path: '/features/-', value: 'UNLOCK' },
      { op: 'add', path: '/connectorAttributes/healthy', value: true },
      { op: 'test', path: '/name', value: 'Okta' },
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: OKTA, description: 'SSO directory', features: ['ENABLE', 'PROVISIONING', 'PASSWORD', 'UNLOCK'], connectorAttributes: { healthy: true } });
    expect(body.modified).toBe('2026-03-01T12:00:00.000Z');
    expect((await get(`/v3/sources/${OKTA}`)).json()).toEqual(body);
  });

  it.each([
    ['id', [{ op: 'replace', path: '/id', value: 'other' }]],
    ['type', [{ op: 'replace', path: '/type', value: 'Other' }]],
    ['type, removed', [{ op: 'remove', path: '/type' }]],
    ['created', [{ op: 'replace', path: '/created', value: '2000-01-01T00:00:00Z' }]],
    ['schemas', [{ op: 'remove', path: '/schemas/0' }]],
    ['the whole document', [{ op: 'replace', path: '', value: {} }]],
    ['id, after a valid operation', [{ op: 'replace', path: '/description', value: 'changed' }, { op: 'move', from: '/id', path: '/oldId' }]],
  ])('§4.5 PATCH of an immutable field (%s) → 400, nothing changed', async (_name, ops) => {
    const before = (await get(`/v3/sources/${WORKDAY}`)).body;
    const res = await patch(`/v3/sources/${WORKDAY}`, ops);
    expect(res.statusCode).toBe(400);
    expectPlatformError(res.json());
    expect((await get(`/v3/sources/${WORKDAY}`)).body).toBe(before);
  });

  it.each([
    ['a failing test after a replace', [{ op: 'replace', path: '/description', value: 'changed' }, { op: 'test', path: '/name', value: 'Not Workday' }]],
    ['remove of a missing member', [{ op: 'remove', path: '/nope' }]],
    ['a prototype path', [{ op: 'add', path: '/__proto__/polluted', value: true }]],
    ['a constructor path', [{ op: 'add', path: '/owner/constructor', value: {} }]],
    ['a body that is not an array', { op: 'remove', path: '/description' }],
    ['an empty array', []],
    ['a value that breaks the source (name not a string)', [{ op: 'replace', path: '/name', value: 42 }]],
    ['a value that breaks the source (features not strings)', [{ op: 'add', path: '/features/-', value: {} }]],
    ['a name taken by another source', [{ op: 'replace', path: '/name', value: 'okta' }]],
  ])('§4.5 PATCH with %s → 400, nothing changed', async (_name, ops) => {
    const before = (await get(`/v3/sources/${WORKDAY}`)).body;
    const res = await patch(`/v3/sources/${WORKDAY}`, ops);
    expect(res.statusCode).toBe(400);
    expectPlatformError(res.json());
    expect((await get(`/v3/sources/${WORKDAY}`)).body).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a body with a __proto__ member is refused by the parser', async () => {
    const res = await patch(`/v3/sources/${WORKDAY}`, '[{"op":"add","path":"/x","value":{"__proto__":{"polluted":true}}}]');
    expect(res.statusCode).toBe(400);
  });

  it('an unknown source → 404', async () => {
    expect((await patch('/v3/sources/nope', [{ op: 'remove', path: '/description' }])).statusCode).toBe(404);
  });
});

describe('PUT a source (full replacement)', () => {
  it('§4.5 PUT replaces the mutable fields; immutable ones may be omitted or repeated', async () => {
    const current = (await get(`/v3/sources/${OKTA}`)).json();
    const { id: _id, type: _type, created: _created, ...rest } = current;
    const res = await put(`/v3/sources/${OKTA}`, { ...rest, description: 'replaced', deleteThreshold: 25 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: OKTA, type: current.type, created: current.created, description: 'replaced', deleteThreshold: 25 });
    expect((await put(`/sources/v1/${OKTA}`, { ...current, description: 'again' })).json().description).toBe('again');
  });

  it.each([
    ['a changed type', { type: 'Other' }],
    ['a changed id', { id: 'other' }],
    ['a missing name', { name: undefined }],
  ])('%s → 400, nothing changed', async (_name, change) => {
    const current = (await get(`/v3/sources/${OKTA}`)).json();
    const res = await put(`/v3/sources/${OKTA}`, { ...current, ...change });
    expect(res.statusCode).toBe(400);
    expect((await get(`/v3/sources/${OKTA}`)).json()).toEqual(current);
  });
});

describe('source schemas', () => {
  let schemaUrl: string;
  beforeAll(async () => {
    const [schema] = (await get(`/v3/sources/${WORKDAY}/schemas`)).json();
    schemaUrl = `/v3/sources/${WORKDAY}/schemas/${schema.id}`;
  });

  it('§2.6 each source has a discovered account schema whose attributes have the documented fields', async () => {
    const schema = (await get(schemaUrl)).json();
    expect(schema.name).toBe('account');
    const employeeId = schema.attributes.find((a: { name: string }) => a.name === 'EMPLOYEE_ID');
    expect(employeeId).toEqual({ name: 'EMPLOYEE_ID', type: 'STRING', schema: null, description: '', isMulti: false, isEntitlement: false, isGroup: false });
    expect((await get(schemaUrl.replace('/v3/sources/', '/sources/v1/'))).body).toBe((await get(schemaUrl)).body);
  });

  it('§4.5 PATCH of a source schema changes an attribute; 415 without the media type; immutable name → 400', async () => {
    const res = await patch(schemaUrl, [{ op: 'replace', path: '/attributes/0/description', value: 'Worker id' }, { op: 'add', path: '/displayAttribute', value: 'EMPLOYEE_ID' }]);
    expect(res.statusCode).toBe(200);
    expect(res.json().attributes[0].description).toBe('Worker id');
    expect((await get(schemaUrl)).json().displayAttribute).toBe('EMPLOYEE_ID');
    expect((await patch(schemaUrl, [{ op: 'remove', path: '/displayAttribute' }], { 'content-type': 'application/json' })).statusCode).toBe(415);
    const before = (await get(schemaUrl)).body;
    expect((await patch(schemaUrl, [{ op: 'replace', path: '/name', value: 'group' }])).statusCode).toBe(400);
    expect((await patch(schemaUrl, [{ op: 'add', path: '/attributes/-', value: { name: 'EMPLOYEE_ID' } }])).statusCode).toBe(400);
    expect((await get(schemaUrl)).body).toBe(before);
  });

  it('PUT replaces the schema but keeps its immutable fields', async () => {
    const current = (await get(schemaUrl)).json();
    const res = await put(schemaUrl, { ...current, attributes: current.attributes.slice(0, 2) });
    expect(res.statusCode).toBe(200);
    expect(res.json().attributes).toHaveLength(2);
    expect((await put(schemaUrl, { ...current, id: 'x' })).statusCode).toBe(400);
  });

  it('unknown schema or source → 404', async () => {
    expect((await get(`/v3/sources/${WORKDAY}/schemas/nope`)).statusCode).toBe(404);
    expect((await get('/v3/sources/nope/schemas')).statusCode).toBe(404);
  });
});

describe('json-patch-tests through PATCH /v3/sources/{id} (on connectorAttributes)', () => {
  interface Vector { comment?: string; doc: unknown; patch: Record<string, unknown>[]; expected?: unknown; error?: string; disabled?: boolean }
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  const vectors = ['tests.json', 'spec_tests.json'].flatMap((f) =>
    readConformanceJson<Vector[]>('json-patch-tests', f)
      .map((v, i) => [`${f} #${i} ${v.comment ?? v.error ?? ''}`, v] as const)
      // The document becomes a source's connectorAttributes, which must stay an object; an empty
      // patch is refused by the endpoint itself ("A request has one or more operations").
      .filter(([, v]) => v.disabled !== true && v.patch.length > 0 && isObject(v.doc) && (v.error !== undefined || isObject(v.expected))),
  );
  // Pointers move under /connectorAttributes; a malformed one stays as it is (and still fails).
  const under = (p: unknown) => (typeof p === 'string' && (p === '' || p.startsWith('/')) ? `/connectorAttributes${p}` : p);

  it.each(vectors)('%s', async (_name, v) => {
    const current = (await get(`/v3/sources/${OKTA}`)).json();
    expect((await put(`/v3/sources/${OKTA}`, { ...current, connectorAttributes: v.doc })).statusCode).toBe(200);
    const before = (await get(`/v3/sources/${OKTA}`)).body;
    const ops = v.patch.map((op) => {
      const out: Record<string, unknown> = { ...op };
      if ('path' in op) out.path = under(op.path);
      if ('from' in op) out.from = under(op.from);
      return out;
    });
    const res = await patch(`/v3/sources/${OKTA}`, ops);
    if (v.error !== undefined) {
      expect(res.statusCode).toBe(400);
      expect((await get(`/v3/sources/${OKTA}`)).body).toBe(before);
    } else {
      expect(res.statusCode).toBe(200);
      expect(res.json().connectorAttributes).toEqual(v.expected);
    }
  });
});
