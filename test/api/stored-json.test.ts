// Stored JSON is bounded in depth and size at the API boundary (SECURITY.md "Limits";
// docs/decisions.md B35): SQLite's JSON functions refuse text nested deeper than 1000 levels, so
// one such stored value made every listing that sorts or filters on a JSON field a 500; a value
// nested 10,000 levels overflowed the stack while the patch was copied; a few `copy` operations
// could double a document into gigabytes. Each is now a 400 with the pointer, and nothing changes.

import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildServer } from '../../src/api/index.js';
import { cloneJson } from '../../src/api/patch/index.js';
import { isTransformsError } from '../../src/errors/index.js';
import { expectPlatformError } from './helpers.js';
import { withResourceServer } from './suites.js';

const OKTA = '2c9180867d3e4b5a017d4f6a7b8c0d03';
const PATCH_TYPE = { 'content-type': 'application/json-patch+json' };

/** `[[[…"x"…]]]` nested `levels` arrays deep, as JSON text (JSON.stringify overflows on deep values). */
const nestedText = (levels: number): string => '['.repeat(levels) + '"x"' + ']'.repeat(levels);
const nested = (levels: number): unknown => JSON.parse(nestedText(levels));

const session = withResourceServer();

const get = (url: string) => session.server.api.inject({ method: 'GET', url, headers: session.auth });
const patch = (ops: unknown) => session.server.api.inject({ method: 'PATCH', url: `/v3/sources/${OKTA}`, headers: { ...session.auth, ...PATCH_TYPE }, payload: typeof ops === 'string' ? ops : JSON.stringify(ops) });

/** Every listing that reads JSON fields of the sources' documents. */
async function listingsWork(): Promise<void> {
  for (const q of ['sorters=description', 'sorters=-owner.id,connectorName', 'filters=description%20sw%20%22S%22', 'filters=healthy%20eq%20true', 'filters=features%20ca%20(%22ENABLE%22)']) {
    const res = await get(`/v3/sources?${q}`);
    expect(res.statusCode, `${q}: ${res.body.slice(0, 200)}`).toBe(200);
  }
}

describe('stored JSON depth', () => {
  it.each([999, 10_000])('refuses a PATCH value nested %i levels with 400 and the pointer, nothing stored', async (levels) => {
    const before = (await get(`/v3/sources/${OKTA}`)).body;
    const res = await patch(`[{"op": "add", "path": "/description", "value": ${nestedText(levels)}}]`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    const e = expectPlatformError(res.json());
    expect(e.text).toMatch(/nests deeper than 256 levels at \/0\/value(\/0)+/);
    expect((await get(`/v3/sources/${OKTA}`)).body).toBe(before);
    await listingsWork();
  });

  it('stores a value at the depth limit, and every listing still answers', async () => {
    // The body is [ {op, path, value} ]: two levels above the value.
    const res = await patch([{ op: 'add', path: '/connectorAttributes/deep', value: nested(254) }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    await listingsWork();
  });

  it('refuses a document that a patch would make too deep (moving a subtree under itself repeatedly)', async () => {
    const ops = [{ op: 'add', path: '/connectorAttributes/grow', value: nested(250) }];
    for (let i = 0; i < 10; i++) ops.push({ op: 'copy', from: '/connectorAttributes/grow', path: '/connectorAttributes/grow/0' } as never);
    const res = await patch(ops);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    expect(expectPlatformError(res.json()).text).toMatch(/the source nests deeper than 256 levels at \/connectorAttributes\/grow/);
  });

  it('checks every JSON body, not only PATCH: a transform nested past the limit is 400 with its pointer', async () => {
    let input: Record<string, unknown> = { type: 'static', attributes: { value: 'x' } };
    for (let i = 0; i < 200; i++) input = { type: 'trim', attributes: { input } };
    const res = await session.server.api.inject({ method: 'POST', url: '/v3/transforms', headers: session.auth, payload: { name: 'too deep', type: 'trim', attributes: { input } } });
    expect(res.statusCode).toBe(400);
    expect(expectPlatformError(res.json()).text).toMatch(/the request body nests deeper than 256 levels at \/attributes(\/input\/attributes)+/);
  });

  it('answers a preview of a transform nested 10,000 levels with 400, not 500', async () => {
    const res = await session.server.api.inject({
      method: 'POST',
      url: '/v3/identity-profiles/identity-preview',
      headers: { ...session.auth, 'content-type': 'application/json' },
      payload: `{"identityId": "x", "identityAttributeConfig": {"attributeTransforms": [{"identityAttributeName": "a", "transformDefinition": ${nestedText(10_000)}}]}}`,
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(400);
    // The pointer, 2,500 characters long, is cut in its middle (json/depth.ts messagePointer).
    expect(expectPlatformError(res.json()).text).toMatch(/ at \/identityAttributeConfig\/attributeTransforms\/0\/transformDefi…(\/0){30}$/);
  });
});

describe('stored JSON size', () => {
  it('refuses a patch that copies a member until it is huge (400 PATCH_TOO_LARGE), nothing stored', async () => {
    const before = (await get(`/v3/sources/${OKTA}`)).body;
    const ops: unknown[] = [{ op: 'add', path: '/connectorAttributes/blob', value: { s: 'x'.repeat(100_000) } }];
    for (let i = 0; i < 40; i++) ops.push({ op: 'copy', from: '/connectorAttributes/blob', path: `/connectorAttributes/blob/c${i}` });
    const res = await patch(ops);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    expect(expectPlatformError(res.json()).text).toMatch(/copies more than 4194304 bytes/);
    expect((await get(`/v3/sources/${OKTA}`)).body).toBe(before);
  });

  it('refuses a patch whose result is larger than a request may be (400 DOCUMENT_TOO_LARGE)', async () => {
    const ops: unknown[] = [{ op: 'add', path: '/connectorAttributes/part', value: 'y'.repeat(400_000) }];
    for (let i = 0; i < 3; i++) ops.push({ op: 'copy', from: '/connectorAttributes/part', path: `/connectorAttributes/part${i}` });
    const res = await patch(ops);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    expect(expectPlatformError(res.json()).text).toMatch(/the source would be \d+ bytes of JSON; the limit is 1048576/);
  });
});

describe('cloneJson', () => {
  it('copies a value nested 100,000 levels without overflowing the stack', () => {
    const deep = nested(100_000);
    const copy = cloneJson(deep);
    expect(copy === deep).toBe(false);
    let a: unknown = copy;
    let n = 0;
    while (Array.isArray(a)) {
      a = a[0];
      n++;
    }
    expect([n, a]).toEqual([100_000, 'x']);
  });

  it('keeps an own __proto__ member as data', () => {
    const copy = cloneJson(JSON.parse('{"__proto__": {"polluted": true}, "a": [1, {"b": 2}]}'));
    expect(Object.prototype.hasOwnProperty.call(copy, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(copy.a).toEqual([1, { b: 2 }]);
  });
});

describe('fixtures', () => {
  it('refuses a fixture document nested past the limit (API_STORE), so it is never stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deep-fixture-'));
    mkdirSync(join(dir, 'transforms'));
    writeFileSync(join(dir, 'sources.json'), JSON.stringify([{ id: 's1', name: 'S', connectorAttributes: { deep: nested(999) } }]));
    try {
      await buildServer({ fixtures: dir, logger: false, secretHashCost: 10 });
      expect.unreachable();
    } catch (err) {
      expect(isTransformsError(err) && err.code).toBe('API_STORE');
      expect((err as Error).message).toMatch(/nests deeper than 257 levels at \/0\/connectorAttributes\/deep/);
    }
  });
});
