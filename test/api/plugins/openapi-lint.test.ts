// /openapi.json as its users consume it: Redocly CLI's `lint` with the recommended rules finds
// no error and no warning in the document a running server serves, and the document describes
// every listener, every operation's success and error answers, and the OAuth 2.0 flows.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerUrls } from '../../../src/api/index.js';
import { testServer, type TestServer } from '../helpers.js';

const REDOCLY = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'node_modules', '.bin', 'redocly');
type Op = { operationId: string; responses: Record<string, unknown>; security: unknown[] };
type Doc = {
  info: { license?: { name: string } };
  paths: Record<string, Record<string, Op> & { servers?: { url: string }[] }>;
  components: { securitySchemes: Record<string, { flows?: Record<string, Record<string, string>> }> };
};

let server: TestServer;
let urls: ServerUrls;
let doc: Doc;
const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));

beforeAll(async () => {
  server = await testServer();
  urls = await server.listen();
  doc = (await server.api.inject({ url: '/openapi.json' })).json() as Doc;
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([k]) => k !== 'servers')
      .map(([method, op]) => ({ path, method, op: op as Op })),
  );

describe('/openapi.json', () => {
  it('passes redocly lint with the recommended rules: 0 errors, 0 warnings', async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    const run = await promisify(execFile)(REDOCLY, ['lint', file, '--extends=recommended', '--format=json'], { env, maxBuffer: 16 << 20 }).catch(
      (err: { stdout: string; stderr: string }) => err,
    );
    const report = JSON.parse(run.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);

  it('gives every operation a success response and a 4xx response with the platform error body', () => {
    for (const { path, method, op } of operations()) {
      const statuses = Object.keys(op.responses);
      expect(statuses.some((s) => /^[23]\d\d$/.test(s)), `${method} ${path}`).toBe(true);
      expect(statuses.some((s) => /^4\d\d$/.test(s)), `${method} ${path}`).toBe(true);
      expect(statuses, `${method} ${path}`).not.toContain('default');
    }
  });

  it('documents collections as arrays of the resource with X-Total-Count, and PATCH as the updated resource', () => {
    const list = doc.paths['/sources/v1']!.get!.responses['200'] as { headers: Record<string, unknown>; content: Record<string, { schema: unknown }> };
    expect(list.content['application/json']!.schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Source' } });
    expect(list.headers['X-Total-Count']).toBeDefined();
    const patch = doc.paths['/sources/v1/{id}']!.patch! as Op & { requestBody: { content: Record<string, unknown> } };
    expect((patch.responses['200'] as { content: Record<string, { schema: unknown }> }).content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Source' });
    expect(Object.keys(patch.requestBody.content)).toEqual(['application/json-patch+json']);
  });

  it('describes the login and non-employee listeners with path-level servers', () => {
    expect(doc.paths['/oauth/authorize']!.servers).toEqual([expect.objectContaining({ url: urls.loginUrl })]);
    expect(doc.paths['/oauth/authorize']!.get).toBeDefined();
    expect(doc.paths['/oauth/authorize']!.post).toBeDefined();
    expect(doc.paths['/logout']!.servers).toEqual([expect.objectContaining({ url: urls.loginUrl })]);
    expect(doc.paths['/api/v2025/non-employee-sources']!.servers).toEqual([expect.objectContaining({ url: urls.nonEmployeeUrl })]);
  });

  it('has OAuth 2.0 client credentials, authorization code on the login listener, refresh, and a licence', () => {
    const flows = doc.components.securitySchemes.oauth2!.flows!;
    expect(flows.clientCredentials).toMatchObject({ tokenUrl: `${urls.baseUrl}/oauth/token`, refreshUrl: `${urls.baseUrl}/oauth/token` });
    expect(flows.authorizationCode).toMatchObject({ authorizationUrl: `${urls.loginUrl}/oauth/authorize`, tokenUrl: `${urls.baseUrl}/oauth/token` });
    expect(doc.info.license?.name).toBe('MIT');
  });

  it("puts each collection's filter and sorter table in its parameter descriptions", () => {
    const params = (doc.paths['/oauth-clients/v1']!.get as Op & { parameters: { name: string; description?: string }[] }).parameters;
    expect(params.map((p) => p.name)).toEqual(['limit', 'offset', 'count', 'filters']);
    expect(params.find((p) => p.name === 'filters')!.description).toContain('lastUsed: le, isnull');
  });
});
