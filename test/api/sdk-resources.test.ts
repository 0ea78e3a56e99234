// The resource endpoints through the official SDK (`sailpoint-api-client`, unmodified) against a real listener:
// transforms CRUD, sources with filters/sorters/count, a source PATCH, public identities through
// its Paginator, more than 10,000 identities through its searchAfter paginator, identity preview.

import {
  Configuration,
  IdentityProfilesApi,
  Paginator,
  PublicIdentitiesApi,
  SearchApi,
  SourcesApi,
  TransformsApi,
  type IdentityAttributeConfig,
  type SearchDocument,
} from 'sailpoint-api-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PAT, resourceServer, type ResourceServer } from './resources-server.js';

const BULK = 10_300;
let server: ResourceServer;
let config: Configuration;

beforeAll(async () => {
  server = await resourceServer();
  const insert = server.store.db.prepare('INSERT INTO identities (id, name, manager_id, doc) VALUES (?, ?, ?, ?)');
  server.store.transaction(() => {
    for (let n = 0; n < BULK; n++) {
      const id = `sdk-${String(n).padStart(6, '0')}`;
      insert.run(id, `sdk.user.${n}`, null, JSON.stringify({ id, name: `sdk.user.${n}`, attributes: { department: 'Load Test', email: `sdk.user.${n}@example.com` } }));
    }
  });
  const baseUrl = await server.listen();
  config = new Configuration({ baseurl: baseUrl, tokenUrl: `${baseUrl}/oauth/token`, clientId: ADMIN_PAT.id, clientSecret: ADMIN_PAT.secret });
  // The SDK's paginators log every page.
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await server.close();
});

describe('official SDK against a real listener', () => {
  it('lists, creates, updates and deletes transforms', async () => {
    const api = new TransformsApi(config);
    const before = await api.listTransforms({ filters: 'name sw "Clean"' });
    expect(before.data.length).toBeGreaterThan(0);
    expect((await api.listTransforms({ name: 'Clean Department' })).data.map((t) => t.name)).toEqual(['Clean Department']);
    const created = await api.createTransform({ transform: { name: 'SDK Upper', type: 'upper', attributes: { input: 'x' } as never } });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ name: 'SDK Upper', type: 'upper', internal: false });
    const updated = await api.updateTransform({ id: created.data.id, transform: { name: 'SDK Upper', type: 'upper', attributes: { input: 'y' } as never } });
    expect(updated.data.attributes).toEqual({ input: 'y' });
    expect((await api.getTransform({ id: created.data.id })).data.attributes).toEqual({ input: 'y' });
    expect((await api.deleteTransform({ id: created.data.id })).status).toBe(204);
    const gone = await api.getTransform({ id: created.data.id }).then(() => null, (e: { response?: { status: number } }) => e.response?.status);
    expect(gone).toBe(404);
  });

  it('lists sources with filters, sorters and count', async () => {
    const api = new SourcesApi(config);
    const res = await api.listSources({ filters: 'authoritative eq false', sorters: '-name', count: true, limit: 3 });
    expect(res.status).toBe(200);
    const names = res.data.map((s) => s.name);
    expect(names).toEqual([...names].sort().reverse());
    expect(Number(res.headers['x-total-count'])).toBeGreaterThanOrEqual(res.data.length);
    const bad = await api.listSources({ filters: 'name EQ "Okta"' }).then(() => null, (e: { response?: { status: number } }) => e.response?.status);
    expect(bad).toBe(400);
  });

  it('patches a source (the SDK sends application/json-patch+json)', async () => {
    const api = new SourcesApi(config);
    const [okta] = (await api.listSources({ filters: 'name eq "Okta"' })).data;
    const res = await api.updateSource({ id: okta!.id!, jsonPatchOperation: [{ op: 'replace', path: '/description', value: 'patched by the SDK' }] });
    expect(res.data.description).toBe('patched by the SDK');
    const refused = await api
      .updateSource({ id: okta!.id!, jsonPatchOperation: [{ op: 'replace', path: '/id', value: 'x' }] })
      .then(() => null, (e: { response?: { status: number } }) => e.response?.status);
    expect(refused).toBe(400);
  });

  it('pages through public identities with its Paginator', async () => {
    const api = new PublicIdentitiesApi(config);
    const res = await Paginator.paginate(api, api.getPublicIdentities, { limit: 1_000 }, 250);
    expect(res.data).toHaveLength(1_000);
    expect(new Set(res.data.map((p) => p.id)).size).toBe(1_000);
  });

  it('pages through more than 10,000 identities with its searchAfter paginator', async () => {
    const api = new SearchApi(config);
    const res = await Paginator.paginateSearchApi(api, { indices: ['identities'], query: { query: 'attributes.department:"Load Test"' }, sort: ['name'] }, 2_500);
    const ids = (res.data as SearchDocument[]).map((d) => (d as { id: string }).id);
    expect(ids).toHaveLength(BULK);
    expect(new Set(ids).size).toBe(BULK);
  });

  it('previews a transform through identity preview', async () => {
    const api = new IdentityProfilesApi(config);
    const identityAttributeConfig = {
      enabled: true,
      attributeTransforms: [{ identityAttributeName: 'loud', transformDefinition: { type: 'upper', attributes: { input: { type: 'identityAttribute', attributes: { name: 'uid' } } } } }],
    } as unknown as IdentityAttributeConfig;
    const res = await api.showIdentityPreview({ identityPreviewRequest: { identityId: '2c918084461c483f12bc83900e60d551', identityAttributeConfig } });
    expect(res.data.identity).toEqual({ type: 'IDENTITY', id: '2c918084461c483f12bc83900e60d551', name: 'noah.andersen' });
    expect(res.data.previewAttributes).toEqual([{ name: 'loud', value: 'NOAH.ANDERSEN', previousValue: null, errorMessages: [] }]);
  });
});
