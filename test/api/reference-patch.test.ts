// Statement §4.5 of docs/api.md's statement table (PATCH: RFC 6902,
// https://developer.sailpoint.com/docs/api/patch-requests) through HTTP (inject), in memory and
// with a store file (--db): "every
// operation has exactly one op and exactly one path". A body whose operation repeats a member
// is refused with a 400 naming the operation and the member, and the source is unchanged.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPlatformError } from './helpers.js';
import { ADMIN_PAT, resourceServer, tokenOf, type ResourceServer } from './resources-server.js';

const dir = mkdtempSync(join(tmpdir(), 'reference-patch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each([
  ['in memory', undefined],
  ['with --db', join(dir, 'store.sqlite')],
])('%s', (_label, db) => {
  let server: ResourceServer;
  let headers: Record<string, string>;
  let source: { id: string; name: string; description: string | null };

  beforeAll(async () => {
    server = await resourceServer({ db });
    headers = { authorization: `Bearer ${await tokenOf(server, ADMIN_PAT)}`, 'content-type': 'application/json-patch+json' };
    source = (await server.api.inject({ url: '/sources/v1?limit=1', headers: { authorization: headers.authorization! } })).json()[0];
  });
  afterAll(() => server.close());

  const patch = (payload: string) => server.api.inject({ method: 'PATCH', url: `/sources/v1/${source.id}`, headers, payload });
  const current = async () => (await server.api.inject({ url: `/sources/v1/${source.id}`, headers: { authorization: headers.authorization! } })).json();

  it.each([
    ['two op members', '[{"op":"replace","op":"remove","path":"/description"}]', 0, 'op'],
    ['two path members', '[{"op":"replace","path":"/description","path":"/name","value":"renamed"}]', 0, 'path'],
    ['two value members in the second operation', '[{"op":"test","path":"/name","value":"x"},{"op":"replace","path":"/description","value":"a","value":"b"}]', 1, 'value'],
  ])('§4.5 an operation with %s is a 400 naming the operation and the member, and nothing changes', async (_name, body, index, member) => {
    const before = await current();
    const res = await patch(body);
    expect(res.statusCode).toBe(400);
    const err = expectPlatformError(res.json());
    expect(err.text).toContain(`operation ${index}`);
    expect(err.text).toContain(`'${member}'`);
    expect(res.json().causes.map((c: { text: string }) => c.text).join(' ')).toContain(`operation ${index}`);
    expect(await current()).toEqual(before);
  });

  it('§4.5 a repeated member inside a value is refused too (any duplicate member)', async () => {
    const res = await patch('[{"op":"add","path":"/connectorAttributes/x","value":{"a":1,"a":2}}]');
    expect(res.statusCode).toBe(400);
    expect(expectPlatformError(res.json()).text).toMatch(/repeats the member 'a' at \/0\/value\/a/);
  });

  it('§4.5 member order inside an operation does not matter; one of each member applies', async () => {
    const res = await patch('[{"value":"patched by reference test","path":"/description","op":"replace"}]');
    expect(res.statusCode).toBe(200);
    expect(res.json().description).toBe('patched by reference test');
  });
});
