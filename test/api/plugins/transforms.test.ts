// Transforms over inject() (https://developer.sailpoint.com/docs/api/v3/transforms): list, get,
// create (validated by the project's validator), update (attributes only), delete (refused while an
// identity profile uses the transform), in both layouts.

import { describe, expect, it } from 'vitest';
import { USER_PAT, tokenOf } from '../resources-server.js';
import { withResourceServer } from '../suites.js';
import { expectPlatformError } from '../helpers.js';

const session = withResourceServer();

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  session.server.api.inject({ method, url, headers: session.auth, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
const byName = async (name: string) => (await call('GET', `/v3/transforms?filters=${encodeURIComponent(`name eq "${name}"`)}`)).json()[0];

describe('list and get', () => {
  it('lists every stored transform in the TransformRead shape, sorted by name by default', async () => {
    const list = (await call('GET', '/v3/transforms?count=true'));
    const items = list.json() as { name: string; id: string; internal: boolean; type: string; attributes: unknown }[];
    expect(items.length).toBe(Number(list.headers['x-total-count']));
    expect(items.map((t) => t.name)).toEqual([...items.map((t) => t.name)].sort());
    for (const t of items) expect(Object.keys(t)).toEqual(expect.arrayContaining(['id', 'name', 'type', 'attributes', 'internal']));
  });

  it.each([
    ['name sw "Clean"', (n: string) => n.startsWith('Clean')],
    ['internal eq false', () => true],
  ])('filters=%s', async (filters, test) => {
    const items = (await call('GET', `/transforms/v1?filters=${encodeURIComponent(filters)}`)).json() as { name: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((t) => test(t.name))).toBe(true);
  });

  it('the name parameter picks the transform of that name (any case)', async () => {
    const items = (await call('GET', '/v3/transforms?name=clean%20department&filters=internal%20eq%20false')).json() as { name: string }[];
    expect(items.map((t) => t.name)).toEqual(['Clean Department']);
    expect((await call('GET', '/v3/transforms?name=Clean')).json()).toEqual([]);
  });

  it('gets one by id; an unknown id is 404', async () => {
    const t = await byName('Clean Department');
    expect((await call('GET', `/transforms/v1/${t.id}`)).json()).toEqual(t);
    const res = await call('GET', '/v3/transforms/nope');
    expect(res.statusCode).toBe(404);
    expectPlatformError(res.json());
  });
});

describe('create', () => {
  it('validates, stores and answers 201 with a new id', async () => {
    const res = await call('POST', '/v3/transforms', { name: 'Strip Dashes', type: 'replace', attributes: { regex: '-', replacement: '' } });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({ name: 'Strip Dashes', type: 'replace', attributes: { regex: '-', replacement: '' }, internal: false });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await call('GET', `/v3/transforms/${created.id}`)).json()).toEqual(created);
  });

  it.each([
    ['a replace without regex', { name: 'Bad 1', type: 'replace', attributes: { replacement: '' } }],
    ['an unknown type', { name: 'Bad 2', type: 'frobnicate', attributes: {} }],
    ['a regex that does not compile', { name: 'Bad 3', type: 'replace', attributes: { regex: '(', replacement: '' } }],
    ['a reference to an unknown transform', { name: 'Bad 4', type: 'reference', attributes: { id: 'No Such Transform' } }],
    ['an unknown top-level property', { name: 'Bad 5', type: 'lower', attributes: {}, colour: 'red' }],
    ['no attributes', { name: 'Bad 6', type: 'lower' }],
  ])('%s → 400 listing the issues', async (_name, body) => {
    const res = await call('POST', '/v3/transforms', body);
    expect(res.statusCode).toBe(400);
    const err = res.json();
    expectPlatformError(err);
    expect(err.causes.length).toBeGreaterThan(0);
    expect((await call('GET', `/v3/transforms?filters=${encodeURIComponent(`name eq "${body.name}"`)}`)).json()).toEqual([]);
  });

  it('a duplicate name → 400', async () => {
    const res = await call('POST', '/transforms/v1', { name: 'Clean Department', type: 'lower', attributes: {} });
    expect(res.statusCode).toBe(400);
    expectPlatformError(res.json());
  });

  it('needs the manage right', async () => {
    const token = await tokenOf(session.server, USER_PAT);
    const res = await session.server.api.inject({ method: 'POST', url: '/v3/transforms', headers: { authorization: `Bearer ${token}` }, payload: { name: 'X', type: 'lower', attributes: {} } });
    expect(res.statusCode).toBe(403);
  });
});

describe('update: only attributes may change', () => {
  it('replaces the attributes', async () => {
    const t = await byName('First Initial');
    const res = await call('PUT', `/v3/transforms/${t.id}`, { name: t.name, type: t.type, attributes: { ...t.attributes, end: 2 } });
    expect(res.statusCode).toBe(200);
    expect(res.json().attributes.end).toBe(2);
    expect((await call('GET', `/v3/transforms/${t.id}`)).json().attributes.end).toBe(2);
  });

  it.each([
    ['the name', { name: 'Renamed' }],
    ['the type', { type: 'upper' }],
    ['the id', { id: 'other' }],
  ])('changing %s → 400, nothing changed', async (_name, change) => {
    const t = await byName('Base64 Employee ID');
    const res = await call('PUT', `/transforms/v1/${t.id}`, { name: t.name, type: t.type, attributes: t.attributes, ...change });
    expect(res.statusCode).toBe(400);
    expectPlatformError(res.json());
    expect(await byName('Base64 Employee ID')).toEqual(t);
  });

  it('invalid new attributes → 400, nothing changed', async () => {
    const t = await byName('First Initial');
    const res = await call('PUT', `/v3/transforms/${t.id}`, { name: t.name, type: t.type, attributes: { begin: 'zero' } });
    expect(res.statusCode).toBe(400);
    expect(await byName('First Initial')).toEqual(t);
  });

  it('an unknown id → 404', async () => {
    expect((await call('PUT', '/v3/transforms/nope', { name: 'x', type: 'lower', attributes: {} })).statusCode).toBe(404);
  });
});

describe('delete', () => {
  it('is refused while an identity profile uses the transform', async () => {
    const t = await byName('Clean Department');
    const res = await call('DELETE', `/v3/transforms/${t.id}`);
    expect(res.statusCode).toBe(400);
    expect(expectPlatformError(res.json()).text).toContain('Employees');
    expect((await call('GET', `/v3/transforms/${t.id}`)).statusCode).toBe(200);
  });

  it('deletes an unused transform: 204, then 404', async () => {
    const t = await byName('ASCII Last Name');
    const res = await call('DELETE', `/transforms/v1/${t.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await call('GET', `/v3/transforms/${t.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/v3/transforms/${t.id}`)).statusCode).toBe(404);
  });

  it('internal transforms cannot be changed or deleted', async () => {
    session.server.store.resources.put('transforms', { id: 'internal-1', name: 'Internal Lower', type: 'lower', attributes: {}, internal: true });
    expect((await call('DELETE', '/v3/transforms/internal-1')).statusCode).toBe(400);
    expect((await call('PUT', '/v3/transforms/internal-1', { name: 'Internal Lower', type: 'lower', attributes: { input: 'x' } })).statusCode).toBe(400);
    expect((await call('GET', '/v3/transforms/internal-1')).json().internal).toBe(true);
  });
});
