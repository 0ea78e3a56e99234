// What a transform write may not store (docs/decisions.md B36–B37): a reference cycle among
// transforms, a name that differs from a stored one only by case, and names carrying control or
// bidirectional formatting characters (NUL, RLO …). Each is a 400 naming the problem and its
// pointer, and the store is unchanged.

import { describe, expect, it } from 'vitest';
import { expectPlatformError } from '../helpers.js';
import { withResourceServer } from '../suites.js';

const session = withResourceServer();

const call = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: unknown) =>
  session.server.api.inject({ method, url, headers: session.auth, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
const ref = (id: string) => ({ type: 'reference', attributes: { id } });
const count = () => (session.server.store.db.prepare('SELECT count(*) AS n FROM transforms').get() as { n: number }).n;

describe('reference cycles', () => {
  it('refuses a PUT that closes a cycle, naming it, and keeps the stored attributes', async () => {
    const a = (await call('POST', '/v3/transforms', { name: 'Cycle A', type: 'upper', attributes: { input: { type: 'static', attributes: { value: 'x' } } } })).json();
    const b = await call('POST', '/v3/transforms', { name: 'Cycle B', type: 'lower', attributes: { input: ref('Cycle A') } });
    expect(b.statusCode, b.body).toBe(201);
    const res = await call('PUT', `/v3/transforms/${a.id}`, { name: 'Cycle A', type: 'upper', attributes: { input: ref('Cycle B') } });
    expect(res.statusCode, res.body).toBe(400);
    const e = expectPlatformError(res.json());
    expect(e.text).toBe('The transform would create a reference cycle: "Cycle A" → "Cycle B" → "Cycle A".');
    expect((await call('GET', `/v3/transforms/${a.id}`)).json().attributes).toEqual({ input: { type: 'static', attributes: { value: 'x' } } });
  });

  it('refuses a self-reference through PUT', async () => {
    const a = (await call('POST', '/v3/transforms', { name: 'Self', type: 'trim', attributes: { input: { type: 'static', attributes: { value: 'x' } } } })).json();
    const res = await call('PUT', `/v3/transforms/${a.id}`, { name: 'Self', type: 'trim', attributes: { input: ref('Self') } });
    expect(res.statusCode).toBe(400);
    expect(expectPlatformError(res.json()).text).toMatch(/"Self" → "Self"/);
  });

  it('refuses a longer cycle found through a nested reference (POST after the target was deleted and re-created)', async () => {
    const c = await call('POST', '/v3/transforms', { name: 'Ring C', type: 'upper', attributes: { input: { type: 'static', attributes: { value: 'x' } } } });
    expect(c.statusCode).toBe(201);
    expect((await call('POST', '/v3/transforms', { name: 'Ring D', type: 'upper', attributes: { input: ref('Ring C') } })).statusCode).toBe(201);
    expect((await call('POST', '/v3/transforms', { name: 'Ring E', type: 'upper', attributes: { input: ref('Ring D') } })).statusCode).toBe(201);
    // Ring C is deleted (no profile uses it) and created again, now referencing Ring E.
    expect((await session.server.api.inject({ method: 'DELETE', url: `/v3/transforms/${c.json().id}`, headers: session.auth })).statusCode).toBe(204);
    const before = count();
    const res = await call('POST', '/v3/transforms', {
      name: 'Ring C',
      type: 'concat',
      attributes: { values: ['a', { type: 'trim', attributes: { input: ref('Ring E') } }] },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(expectPlatformError(res.json()).text).toMatch(/"Ring C" → "Ring E" → "Ring D" → "Ring C"/);
    expect(count()).toBe(before);
  });

  it('refuses a cycle through a chain of 30,000 stored transforms with the coded error, not a stack overflow', async () => {
    const store = session.server.store;
    const N = 30_000;
    const chain = Array.from({ length: N }, (_, i) => ({ id: `deep-${i + 1}`, name: `Deep ${i + 1}`, type: 'upper', attributes: { input: ref(i + 1 < N ? `Deep ${i + 2}` : 'Deep 0') } }));
    store.transaction(() => chain.forEach((t) => store.resources.put('transforms', t)));
    try {
      const before = count();
      const res = await call('POST', '/v3/transforms', { name: 'Deep 0', type: 'upper', attributes: { input: ref('Deep 1') } });
      expect(res.statusCode).toBe(400);
      const e = expectPlatformError(res.json());
      expect(e.code).toBe('TRANSFORM_REFERENCE_CYCLE');
      expect(e.text).toMatch(/^The transform would create a reference cycle: "Deep 0" → "Deep 1" → "Deep 2" → .* → "Deep 30000" → "Deep 0"\.$/);
      expect(count()).toBe(before);
    } finally {
      store.transaction(() => chain.forEach((t) => store.resources.delete('transforms', t.id)));
    }
  });

  it('accepts references that form no cycle (a diamond)', async () => {
    expect((await call('POST', '/v3/transforms', { name: 'Leaf', type: 'upper', attributes: { input: { type: 'static', attributes: { value: 'x' } } } })).statusCode).toBe(201);
    expect((await call('POST', '/v3/transforms', { name: 'Left', type: 'upper', attributes: { input: ref('Leaf') } })).statusCode).toBe(201);
    expect((await call('POST', '/v3/transforms', { name: 'Right', type: 'lower', attributes: { input: ref('Leaf') } })).statusCode).toBe(201);
    const top = await call('POST', '/v3/transforms', { name: 'Top', type: 'concat', attributes: { values: [ref('Left'), ref('Right')] } });
    expect(top.statusCode, top.body).toBe(201);
  });
});

describe('names', () => {
  it('refuses a name that differs from a stored one only by case', async () => {
    const before = count();
    const res = await call('POST', '/v3/transforms', { name: 'clean DEPARTMENT', type: 'upper', attributes: {} });
    expect(res.statusCode, res.body).toBe(400);
    expect(expectPlatformError(res.json()).text).toMatch(/A transform named "Clean Department" already exists/);
    expect(count()).toBe(before);
  });

  it.each([
    ['NUL', 'Evil\u0000Name', 'U+0000'],
    ['a right-to-left override', 'Invoice\u202Etxt.exe', 'U+202E'],
    ['a right-to-left isolate', 'a\u2067b', 'U+2067'],
    ['a line feed', 'two\nlines', 'U+000A'],
    ['a C1 control', 'x\u0085y', 'U+0085'],
  ])('refuses a name with %s', async (_name, name, code) => {
    const before = count();
    const res = await call('POST', '/v3/transforms', { name, type: 'upper', attributes: {} });
    expect(res.statusCode, res.body).toBe(400);
    expect(expectPlatformError(res.json()).text).toContain(code);
    expect(count()).toBe(before);
  });

  it('accepts names in any script', async () => {
    const res = await call('POST', '/v3/transforms', { name: 'Nom déplacé — 名前 — اسم', type: 'upper', attributes: {} });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('holds PAT and source names to the same rule', async () => {
    const pat = await session.server.api.inject({ method: 'POST', url: '/v3/personal-access-tokens', headers: session.auth, payload: { name: 'ci\u202Ekey' } });
    expect(pat.statusCode).toBe(400);
    const patch = await session.server.api.inject({
      method: 'PATCH',
      url: '/v3/sources/2c9180867d3e4b5a017d4f6a7b8c0d03',
      headers: { ...session.auth, 'content-type': 'application/json-patch+json' },
      payload: JSON.stringify([{ op: 'replace', path: '/name', value: 'Ok\u0000ta' }]),
    });
    expect(patch.statusCode).toBe(400);
    expect(expectPlatformError(patch.json()).text).toContain('U+0000');
  });
});
