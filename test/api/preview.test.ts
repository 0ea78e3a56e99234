// POST /identity-profiles/identity-preview in both layouts (issue 8 "Identity preview"): the
// answer equals the engine's own evaluation over the same tenant (the adapter adds nothing),
// per-attribute errors come back as errorMessages, previousValue is the identity's stored value.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { createMemoryProviders, loadFixtures, type IdentityProfile } from '../../src/providers/memory.js';
import { ADMIN_PAT, TENANT, USER_PAT, resourceServer, tokenOf, type ResourceServer } from './resources-server.js';
import { expectPlatformError } from './helpers.js';

let server: ResourceServer;
let auth: Record<string, string>;
const fixtures = loadFixtures(TENANT);
const profile = fixtures.profiles[0] as IdentityProfile;

beforeAll(async () => {
  server = await resourceServer();
  auth = { authorization: `Bearer ${await tokenOf(server, ADMIN_PAT)}` };
});
afterAll(() => server.close());

const preview = (body: unknown, url = '/v3/identity-profiles/identity-preview', headers = auth) =>
  server.api.inject({ method: 'POST', url, headers, payload: body as Record<string, unknown> });

interface PreviewAttribute {
  name: string;
  value: unknown;
  previousValue: unknown;
  errorMessages: { locale: string; localeOrigin: string; text: string; code: string }[];
}

describe('identity preview', () => {
  it.each(fixtures.identities.slice(0, 12).map((i) => [i.name, i.id]))('%s: the profile evaluates as the engine evaluates it', async (_name, id) => {
    const engine = createEngine({ providers: createMemoryProviders(fixtures) });
    const identity = fixtures.identities.find((i) => i.id === id)!;
    const expected = await engine.evaluateProfile(profile, identity);
    const res = await preview({ identityId: id, identityAttributeConfig: profile.identityAttributeConfig });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { identity: unknown; previewAttributes: PreviewAttribute[] };
    expect(body.identity).toEqual({ type: 'IDENTITY', id, name: identity.name });
    expect(body.previewAttributes.map((a) => a.name)).toEqual(profile.identityAttributeConfig.attributeTransforms.map((m) => m.identityAttributeName));
    for (const a of body.previewAttributes) {
      expect(a.value).toEqual(expected.attributes[a.name] ?? null);
      expect(a.previousValue).toEqual(identity.attributes[a.name] ?? null);
      expect(a.errorMessages.map((e) => e.code)).toEqual(expected.errors.filter((e) => e.attribute === a.name).map((e) => e.code));
    }
  });

  it('is served in both layouts', async () => {
    const body = { identityId: fixtures.identities[0]!.id, identityAttributeConfig: profile.identityAttributeConfig };
    expect((await preview(body, '/identity-profiles/v1/identity-preview')).body).toBe((await preview(body)).body);
  });

  it('previews a transform that is not saved yet, and reports per-attribute errors without stopping the others', async () => {
    const identity = fixtures.identities[0]!;
    const res = await preview({
      identityId: identity.id,
      identityAttributeConfig: {
        enabled: true,
        attributeTransforms: [
          { identityAttributeName: 'shout', transformDefinition: { type: 'upper', attributes: { input: { type: 'identityAttribute', attributes: { name: 'uid' } } } } },
          { identityAttributeName: 'broken', transformDefinition: { type: 'replace', attributes: { regex: '(', replacement: '' } } },
          { identityAttributeName: 'missing', transformDefinition: { type: 'reference', attributes: { id: 'No Such Transform' } } },
          { identityAttributeName: 'saved', transformDefinition: { type: 'reference', attributes: { id: 'Clean Department' } } },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    const [shout, broken, missing, saved] = res.json().previewAttributes as PreviewAttribute[];
    expect(shout).toMatchObject({ name: 'shout', value: String(identity.attributes.uid).toUpperCase(), errorMessages: [] });
    for (const failed of [broken!, missing!]) {
      expect(failed.value).toBeNull();
      expect(failed.errorMessages).toHaveLength(1);
      expect(failed.errorMessages[0]).toMatchObject({ locale: 'en-US', localeOrigin: 'DEFAULT', text: expect.any(String), code: expect.any(String) });
    }
    expect(saved!.errorMessages).toEqual([]);
  });

  it('sees a transform as soon as it is updated through the API', async () => {
    const identity = fixtures.identities[0]!;
    const created = (await server.api.inject({ method: 'POST', url: '/v3/transforms', headers: auth, payload: { name: 'Preview Me', type: 'static', attributes: { value: 'one' } } })).json();
    const body = { identityId: identity.id, identityAttributeConfig: { attributeTransforms: [{ identityAttributeName: 'x', transformDefinition: { type: 'reference', attributes: { id: 'Preview Me' } } }] } };
    expect((await preview(body)).json().previewAttributes[0].value).toBe('one');
    await server.api.inject({ method: 'PUT', url: `/v3/transforms/${created.id}`, headers: auth, payload: { name: 'Preview Me', type: 'static', attributes: { value: 'two' } } });
    expect((await preview(body)).json().previewAttributes[0].value).toBe('two');
  });

  it.each([
    ['an unknown identity', { identityId: 'nope', identityAttributeConfig: { attributeTransforms: [] } }, 404],
    ['no identityId', { identityAttributeConfig: { attributeTransforms: [] } }, 400],
    ['a mapping without a definition', { identityId: 'x', identityAttributeConfig: { attributeTransforms: [{ identityAttributeName: 'a' }] } }, 400],
  ])('%s → %i with the platform body', async (_name, body, status) => {
    const res = await preview(body);
    expect(res.statusCode).toBe(status);
    expectPlatformError(res.json());
  });

  it('needs a right on identity profiles', async () => {
    const token = await tokenOf(server, USER_PAT);
    const res = await preview({ identityId: 'x', identityAttributeConfig: { attributeTransforms: [] } }, undefined, { authorization: `Bearer ${token}` });
    expect(res.statusCode).toBe(403);
  });
});
