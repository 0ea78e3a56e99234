// POST /identity-profiles/identity-preview in both layouts (https://developer.sailpoint.com/docs/api/v3/show-generate-identity-preview): the
// answer equals the engine's own evaluation over the same tenant (the adapter adds nothing),
// per-attribute errors come back as errorMessages, previousValue is the identity's stored value.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/engine/engine.js';
import { createMemoryProviders } from '../../../src/providers/memory.js';
import { loadFixtures } from '../../../src/providers/fixtures.js';
import type { IdentityProfile } from '../../../src/providers/types.js';
import { ADMIN_PAT, TENANT, USER_PAT, resourceServer, tokenOf, type ResourceServer } from '../resources-server.js';
import { expectPlatformError } from '../helpers.js';
import { MAX_PREVIEW_MAPPINGS, MAX_PREVIEW_RESPONSE } from '../../../src/api/plugins/preview.js';

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

  it('reports a failing attribute\'s error in full, and nothing for a failure firstValid skipped', async () => {
    const identity = fixtures.identities[0]!;
    const lookup = { type: 'lookup', attributes: { input: { type: 'identityAttribute', attributes: { name: 'noSuchAttribute' } }, table: { A: 'a' } } };
    const res = await preview({
      identityId: identity.id,
      identityAttributeConfig: {
        attributeTransforms: [
          { identityAttributeName: 'skipped', transformDefinition: { type: 'firstValid', attributes: { ignoreErrors: true, values: [lookup, 'fallback'] } } },
          { identityAttributeName: 'failed', transformDefinition: lookup },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { previewAttributes: PreviewAttribute[] }).previewAttributes.map(({ name, value, errorMessages }) => ({ name, value, errorMessages }))).toEqual([
      { name: 'skipped', value: 'fallback', errorMessages: [] },
      {
        name: 'failed',
        value: null,
        errorMessages: [
          {
            locale: 'en-US',
            localeOrigin: 'DEFAULT',
            text: 'no table key matches null and the table has no default',
            code: 'EVAL_LOOKUP_NO_MATCH',
            path: '/identityAttributeConfig/attributeTransforms/1/transformDefinition/attributes/table',
          },
        ],
      },
    ]);
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

// Hostile transforms (docs/limits.md): the preview evaluates under the server's limits, so a
// template that would exhaust the heap or loop for seconds ends, within about 100 ms of work, in
// a coded error for its attribute; the server answers 200 and keeps serving.
describe('identity preview under the server limits', () => {
  const identityId = fixtures.identities[0]!.id;
  const mapping = (transformDefinition: unknown, name = 'hostile') => ({ identityAttributeName: name, transformDefinition });
  const body = (...mappings: unknown[]) => ({ identityId, identityAttributeConfig: { attributeTransforms: mappings } });
  const GROW_LIST = '#set($l = [])#set($x = "x")#set($s = $x.repeat(100000))#foreach($i in [1..100000])#set($ok = $l.add("$s$i"))#end$l.size()';
  const codesOf = (res: { json(): unknown }) =>
    (res.json() as { previewAttributes: PreviewAttribute[] }).previewAttributes.map((a) => a.errorMessages.map((e) => e.code));

  it.each([
    ['a list of 100,000 strings of 100 KB', GROW_LIST, ['EVAL_LIMIT_STRING', 'EVAL_LIMIT_ALLOCATION', 'EVAL_LIMIT_TIME']],
    ['a list of 100,000 strings of 50 KB', GROW_LIST.replace('100000))', '50000))'), ['EVAL_LIMIT_ALLOCATION', 'EVAL_LIMIT_TIME']],
    ['$s.repeat(500000000)', '#set($s = "x")$s.repeat(500000000)', ['EVAL_LIMIT_STRING']],
    ['a BigInt squaring loop', '#set($n = 3)#foreach($i in [1..1000])#set($n = $n * $n)#end$n', ['EVAL_LIMIT_NUMBER']],
    ['a loop of a billion iterations', '#foreach($i in [1..1000000000])#end', ['EVAL_LIMIT_ITERATIONS', 'EVAL_LIMIT_TIME']],
  ])('%s: a coded error for the attribute, the others still evaluated', async (_name, template, codes) => {
    const res = await preview(body(mapping({ type: 'static', attributes: { value: template } }), mapping({ type: 'static', attributes: { value: 'fine' } }, 'other')));
    expect(res.statusCode).toBe(200);
    const [hostile, other] = codesOf(res);
    expect(hostile).toHaveLength(1);
    expect(codes).toContain(hostile![0]);
    expect(other).toEqual([]);
  });

  it('usernameGenerator: 2,000 looping patterns and 20,000 colliding ones are coded errors, not a 6 s stall or a stack overflow', async () => {
    // Every candidate is another identity's name, so every pattern is tried.
    const taken = fixtures.identities.find((i) => i.id !== identityId)!.name;
    const looping = Array.from({ length: 2_000 }, () => '#foreach($i in [1..99999])#{end}${first}');
    const colliding = Array.from({ length: 20_000 }, () => taken);
    const res = await preview(body(
      mapping({ type: 'usernameGenerator', attributes: { patterns: looping, first: taken } }, 'looping'),
      mapping({ type: 'usernameGenerator', attributes: { patterns: colliding } }, 'colliding'),
    ));
    expect(res.statusCode).toBe(200);
    const [looped, collided] = codesOf(res);
    expect(['EVAL_LIMIT_ITERATIONS', 'EVAL_LIMIT_TIME']).toContain(looped![0]);
    expect(['EVAL_LIMIT_USERNAME', 'EVAL_LIMIT_TIME', 'EVAL_ILLEGAL_STATE']).toContain(collided![0]);
  });

  it('a transform nested deeper than maxDepth is COMPILE_TOO_DEEP for its attribute; a 10,000-level body is a 400, not a 500', async () => {
    // Sent as text: the test's own JSON.stringify would not go 10,000 levels deep.
    const nested = (levels: number) => '{"type":"upper","attributes":{"input":'.repeat(levels) + '"x"' + '}}'.repeat(levels);
    const payload = (deep: string) => `{"identityId":${JSON.stringify(identityId)},"identityAttributeConfig":{"attributeTransforms":[{"identityAttributeName":"deep","transformDefinition":${deep}}]}}`;
    const send = (deep: string) => server.api.inject({ method: 'POST', url: '/v3/identity-profiles/identity-preview', headers: { ...auth, 'content-type': 'application/json' }, payload: payload(deep) });
    // 100 transforms deep: within the body's depth limit, beyond the engine's maxDepth (64).
    const tooDeep = await send(nested(100));
    expect(tooDeep.statusCode).toBe(200);
    expect(codesOf(tooDeep)).toEqual([['COMPILE_TOO_DEEP']]);
    // 10,000 deep: refused at the API boundary, with the platform's error body.
    const bomb = await send(nested(10_000));
    expect(bomb.statusCode).toBe(400);
    expect(bomb.json()).toMatchObject({ detailCode: expect.any(String), messages: expect.any(Array) });
  });

  it('a stored transform that exceeds the budget gives later previews the coded error, and the server keeps serving', async () => {
    const created = await server.api.inject({ method: 'POST', url: '/v3/transforms', headers: auth, payload: { name: 'Grow A List', type: 'static', attributes: { value: GROW_LIST } } });
    expect(created.statusCode).toBe(201);
    const byReference = body(mapping({ type: 'reference', attributes: { id: 'Grow A List' } }));
    for (let i = 0; i < 3; i++) {
      const res = await preview(byReference);
      expect(res.statusCode).toBe(200);
      expect(['EVAL_LIMIT_STRING', 'EVAL_LIMIT_ALLOCATION', 'EVAL_LIMIT_TIME']).toContain(codesOf(res)[0]![0]);
    }
    expect((await preview(body(mapping({ type: 'static', attributes: { value: 'still here' } })))).json().previewAttributes[0].value).toBe('still here');
  });
});

// What one preview may hold and answer (docs/limits.md): mappings sharing one attribute name
// multiplied one large value into hundreds of megabytes of response, and a 50 KB template parsed
// for seconds; each is now a coded refusal, bounded in work and in the size of the answer.
describe('identity preview bounds', () => {
  const identityId = fixtures.identities[0]!.id;
  const mapping = (name: string, value = 'v') => ({ identityAttributeName: name, transformDefinition: { type: 'static', attributes: { value } } });
  const body = (mappings: unknown[]) => ({ identityId, identityAttributeConfig: { attributeTransforms: mappings } });

  it(`evaluates ${MAX_PREVIEW_MAPPINGS} mappings (more than real profiles hold), and refuses one more with API_PREVIEW_TOO_MANY_MAPPINGS`, async () => {
    const names = Array.from({ length: MAX_PREVIEW_MAPPINGS + 1 }, (_, i) => `attribute${i}`);
    const within = await preview(body(names.slice(0, -1).map((n) => mapping(n))));
    expect(within.statusCode).toBe(200);
    expect(within.json().previewAttributes).toHaveLength(MAX_PREVIEW_MAPPINGS);
    const over = await preview(body(names.map((n) => mapping(n))));
    expect(over.statusCode).toBe(400);
    expect(expectPlatformError(over.json()).code).toBe('API_PREVIEW_TOO_MANY_MAPPINGS');
  });

  it('refuses an attribute mapped twice with API_PREVIEW_DUPLICATE_ATTRIBUTE, naming the second mapping', async () => {
    const res = await preview(body([mapping('a'), mapping('b'), mapping('a')]));
    expect(res.statusCode).toBe(400);
    const error = expectPlatformError(res.json());
    expect(error.code).toBe('API_PREVIEW_DUPLICATE_ATTRIBUTE');
    expect(error.text).toContain('"a"');
  });

  it(`refuses values above ${MAX_PREVIEW_RESPONSE} characters in all with API_PREVIEW_TOO_LARGE (each value within the evaluation limits)`, async () => {
    const big = '#set($s = "x")$s.repeat(90000)';
    const res = await preview(body(Array.from({ length: 50 }, (_, i) => mapping(`big${i}`, big))));
    expect(res.statusCode).toBe(400);
    expect(expectPlatformError(res.json()).code).toBe('API_PREVIEW_TOO_LARGE');
    expect(res.body.length).toBeLessThan(10_000);
  });

  it('a 50 KB template of references stops parsing with a coded error for its attribute; the others are evaluated', async () => {
    const res = await preview(body([mapping('long', '$a '.repeat(17_000)), mapping('other', 'fine')]));
    expect(res.statusCode).toBe(200);
    const [long, other] = res.json().previewAttributes as PreviewAttribute[];
    expect(['COMPILE_TEMPLATE_TOO_LARGE', 'COMPILE_LIMIT_TIME']).toContain(long!.errorMessages[0]!.code);
    expect(other).toMatchObject({ value: 'fine', errorMessages: [] });
  });
});
