// The second round of attacks on the installed package's `serve` (SECURITY.md "Limits"), each
// reproduced from outside over loopback: the answer is a coded refusal, bounded in size, and the
// server goes on answering a control request sent while the attack was in flight. How long the
// control waits under each attack is measured by bench/hostile.ts, not asserted here.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installed } from './install.js';

const ADMIN = { id: randomUUID(), secret: `${randomUUID()}${randomUUID()}` };
let serve: ChildProcess;
let base: string;
let auth: Record<string, string>;

beforeAll(async () => {
  const pkg = await installed();
  const fixtures = join(pkg.consumer, 'node_modules/identity-transforms/fixtures');
  serve = spawn(pkg.bin, ['serve', '--fixtures', fixtures, '--admin-client-id', ADMIN.id, '--admin-client-secret', ADMIN.secret], { cwd: pkg.consumer, env: pkg.env });
  base = await new Promise<string>((resolve, reject) => {
    serve.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    createInterface({ input: serve.stdout! }).on('line', (line) => {
      const m = /^listening (.*)$/.exec(line);
      if (m) resolve((JSON.parse(m[1]!) as { baseUrl: string }).baseUrl);
    });
  });
  const token = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: ADMIN.id, client_secret: ADMIN.secret }),
  });
  auth = { authorization: `Bearer ${((await token.json()) as { access_token: string }).access_token}` };
}, 1_800_000);

afterAll(() => {
  serve?.kill('SIGTERM');
});

const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const control = () => fetch(`${base}/v3/sources?limit=1`, { headers: auth });

/** The attack and a control sent while it is in flight: both answers, the attack's as text. */
async function underAttack(attack: () => Promise<Response>): Promise<{ status: number; text: string; controlStatus: number }> {
  const pending = attack();
  const controlled = control();
  const [response, controlResponse] = await Promise.all([pending, controlled]);
  return { status: response.status, text: await response.text(), controlStatus: controlResponse.status };
}

/**
 * The attack, and a control sent `after` ms later while the attack is in flight: both answers,
 * and the order in which they arrived.
 */
async function race(attack: () => Promise<Response>, after = 0): Promise<{ status: number; text: string; controlStatus: number; order: string[] }> {
  const order: string[] = [];
  const pending = attack().then(async (response) => {
    order.push('attack');
    return { status: response.status, text: await response.text() };
  });
  if (after > 0) await new Promise((resolve) => setTimeout(resolve, after));
  const controlled = control().then(async (response) => {
    order.push('control');
    await response.arrayBuffer();
    return response.status;
  });
  const [result, controlStatus] = await Promise.all([pending, controlled]);
  return { ...result, controlStatus, order };
}

async function identityId(): Promise<string> {
  const [first] = (await (await fetch(`${base}/v3/public-identities?limit=1`, { headers: auth })).json()) as { id: string }[];
  return first!.id;
}

describe('serve under hostile input (the installed package)', () => {
  it('a preview whose 2,000 mappings share one attribute name: 400 API_PREVIEW_TOO_MANY_MAPPINGS, a small answer', async () => {
    const id = await identityId();
    const mapping = { identityAttributeName: 'same', transformDefinition: { type: 'static', attributes: { value: '$a $a $a' , a: 'x' } } };
    const result = await underAttack(() => post('/v3/identity-profiles/identity-preview', { identityId: id, identityAttributeConfig: { attributeTransforms: Array(2_000).fill(mapping) } }));
    expect(result.status).toBe(400);
    expect(JSON.parse(result.text).code).toBe('API_PREVIEW_TOO_MANY_MAPPINGS');
    expect(result.text.length).toBeLessThan(10_000);
    expect(result.controlStatus).toBe(200);
  });

  it('a preview whose mappings share one attribute name: 400 API_PREVIEW_DUPLICATE_ATTRIBUTE', async () => {
    const id = await identityId();
    const mapping = { identityAttributeName: 'same', transformDefinition: { type: 'static', attributes: { value: 'v' } } };
    const result = await underAttack(() => post('/v3/identity-profiles/identity-preview', { identityId: id, identityAttributeConfig: { attributeTransforms: Array(400).fill(mapping) } }));
    expect(result.status).toBe(400);
    expect(JSON.parse(result.text).code).toBe('API_PREVIEW_DUPLICATE_ATTRIBUTE');
    expect(result.controlStatus).toBe(200);
  });

  it('a preview of 500 distinct mappings of 2 KB templates: a control sent meanwhile is answered first', async () => {
    const id = await identityId();
    const attributeTransforms = Array.from({ length: 500 }, (_, i) => ({ identityAttributeName: `a${i}`, transformDefinition: { type: 'static', attributes: { value: '$a '.repeat(650), a: 'x' } } }));
    const result = await race(() => post('/v3/identity-profiles/identity-preview', { identityId: id, identityAttributeConfig: { attributeTransforms } }));
    expect(result.order).toEqual(['control', 'attack']);
    expect(result.controlStatus).toBe(200);
    // Evaluated within the preview's time (a value per attribute), or stopped at it (coded).
    if (result.status === 200) expect((JSON.parse(result.text) as { previewAttributes: unknown[] }).previewAttributes).toHaveLength(500);
    else expect(JSON.parse(result.text)).toMatchObject({ code: 'API_PREVIEW_TIME', messages: [expect.objectContaining({ locale: 'en-US' })] });
  });

  it('a preview of 500 mappings that each loop for the whole evaluation budget: 400 API_PREVIEW_TIME after a control sent meanwhile', async () => {
    const id = await identityId();
    const loops = '#foreach($i in [1..300])#foreach($j in [1..300])#end#end';
    const attributeTransforms = Array.from({ length: 500 }, (_, i) => ({ identityAttributeName: `loop${i}`, transformDefinition: { type: 'static', attributes: { value: loops } } }));
    const result = await race(() => post('/v3/identity-profiles/identity-preview', { identityId: id, identityAttributeConfig: { attributeTransforms } }), 200);
    expect(result.order).toEqual(['control', 'attack']);
    expect(result.controlStatus).toBe(200);
    expect(result.status).toBe(400);
    expect(JSON.parse(result.text)).toMatchObject({ code: 'API_PREVIEW_TIME', detailCode: '400.1 Bad Request Content', messages: [expect.objectContaining({ locale: 'en-US' })] });
    expect(result.text.length).toBeLessThan(10_000);
  });

  it('a preview of a 50 KB template of references: its attribute has a coded parse error, the answer is small', async () => {
    const id = await identityId();
    const template = '$a '.repeat(17_000);
    const result = await underAttack(() =>
      post('/v3/identity-profiles/identity-preview', { identityId: id, identityAttributeConfig: { attributeTransforms: [{ identityAttributeName: 'long', transformDefinition: { type: 'static', attributes: { value: template, a: 'x' } } }] } }),
    );
    expect(result.status).toBe(200);
    const [attribute] = (JSON.parse(result.text) as { previewAttributes: { errorMessages: { code: string }[] }[] }).previewAttributes;
    expect(['COMPILE_TEMPLATE_TOO_LARGE', 'COMPILE_LIMIT_TIME']).toContain(attribute!.errorMessages[0]!.code);
    expect(result.text.length).toBeLessThan(10_000);
    expect(result.controlStatus).toBe(200);
  });

  it('POST /v3/transforms with a 40 KB template: 400 with a coded parse error', async () => {
    const result = await underAttack(() => post('/v3/transforms', { name: 'Long Template', type: 'static', attributes: { value: '$a '.repeat(13_000), a: 'x' } }));
    expect(result.status).toBe(400);
    expect(result.text).toMatch(/COMPILE_TEMPLATE_TOO_LARGE|COMPILE_LIMIT_TIME/);
    expect(result.controlStatus).toBe(200);
  });

  it('GET /v3/accounts with 500 or-ed comparisons: 400 FILTER_LIMIT, not a 500', async () => {
    const filters = encodeURIComponent(Array.from({ length: 500 }, (_, i) => `id eq "n${i}"`).join(' or '));
    const result = await underAttack(() => fetch(`${base}/v3/accounts?filters=${filters}`, { headers: auth }));
    expect(result.status).toBe(400);
    expect(JSON.parse(result.text).code).toBe('FILTER_LIMIT');
    expect(result.controlStatus).toBe(200);
  });

  it('a body nested 10,000 levels deep: 400 JSON_TOO_DEEP', async () => {
    const result = await underAttack(() =>
      fetch(`${base}/v3/transforms`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: `{"name":"deep","type":"static","attributes":{"value":${'['.repeat(10_000)}${']'.repeat(10_000)}}}` }),
    );
    expect(result.status).toBe(400);
    expect(JSON.parse(result.text).code).toBe('JSON_TOO_DEEP');
    expect(result.controlStatus).toBe(200);
  });
});
