// The MCP server's tools without the protocol: each answers from the service and the engine,
// and bad arguments get coded errors.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_URI, SCHEMA_URI, ToolHost } from '../../src/mcp/tools.js';
import type { PlantedDifference } from '../../src/testing/generator/index.js';
import { verifyReport, type VerifyReport } from '../../src/verify/index.js';
import { ADMIN_PAT, resourceServer } from '../api/resources-server.js';
import { VERIFIED_AT, writePlantedTenant } from '../verify/planted-tenant.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures');
const host = new ToolHost();
const FIRST_NAME = JSON.stringify({ name: 'First', type: 'accountAttribute', attributes: { sourceName: 'Workday', attributeName: 'FIRST_NAME' } });

describe('the MCP tools', () => {
  it('validate: findings with line, column, code and the suggested name', async () => {
    const { data } = await host.call('validate', { document: '{"name":"x",\n"type":"uper"}' });
    expect(data).toEqual({ valid: false, findings: [expect.objectContaining({ line: 2, column: 8, code: 'SCHEMA_ENUM', suggestion: 'upper', pointer: '/type' })] });
  });

  it('validate with fixtures: an unknown source name', async () => {
    const { text } = await host.call('validate', { document: FIRST_NAME.replace('Workday', 'Workdya'), fixtures: FIXTURES });
    expect(text).toContain('error VALIDATE_UNKNOWN_SOURCE no source of the tenant has the sourceName "Workdya"; did you mean "Workday"?');
  });

  it('evaluate: the value for the identity', async () => {
    expect((await host.call('evaluate', { document: FIRST_NAME, fixtures: FIXTURES, identity: 'fatima.schroder' })).data).toEqual({ identity: 'fatima.schroder', value: 'Fatima' });
  });

  it('explain: the trace, with the accounts accountAttribute considered', async () => {
    const { text, data } = await host.call('explain', { document: FIRST_NAME, fixtures: FIXTURES, identity: 'fatima.schroder' });
    expect(text).toContain('2 accounts considered, sorted by created ascending');
    expect(text).toContain('won: "Fatima Schröder" (100000-R)');
    expect((data.trace as { type: string }).type).toBe('accountAttribute');
  });

  it('impact: the report of two versions', async () => {
    const { data } = await host.call('impact', { base: FIXTURES, head: FIXTURES, fixtures: FIXTURES });
    expect(data).toHaveProperty('profiles');
  });

  it.each([
    ['an unknown argument', 'validate', { document: '{}', extra: 1 }, 'unknown argument "extra"'],
    // Names every object inherits are no arguments either: they passed as known, and were dropped.
    ['an argument named as an inherited property', 'validate', { document: '{}', toString: 'x' }, 'unknown argument "toString"'],
    ['an argument named __proto__ in JSON', 'validate', JSON.parse('{"document":"{}","__proto__":"x"}') as Record<string, unknown>, 'unknown argument "__proto__"'],
    ['a missing argument', 'evaluate', { document: '{}' }, 'the argument "fixtures" is required'],
    ['a mistyped argument', 'validate', { document: { type: 'upper' } }, 'the argument "document" must be a string'],
    ['a document above 400 KB', 'validate', { document: ' '.repeat(500_000) }, 'the limit is 409600'],
    ['a document above 400 KB of UTF-8 in fewer characters', 'evaluate', { document: JSON.stringify({ name: 'x', type: 'static', attributes: { value: 'é'.repeat(300_000) } }), fixtures: FIXTURES, identity: 'fatima.schroder' }, 'document: the transform is 600054 bytes; the platform rejects transforms above 409600 bytes (400 KB)'],
    ['an identity that does not exist', 'evaluate', { document: FIRST_NAME, fixtures: FIXTURES, identity: 'nobody' }, 'no identity with id or name "nobody"'],
    ['a directory that does not exist', 'evaluate', { document: FIRST_NAME, fixtures: '/nonexistent', identity: 'x' }, 'no such directory'],
    ['arguments that are not an object', 'validate', [1], 'the arguments must be an object'],
  ])('refuses %s with MCP_INPUT_INVALID', async (_, tool, args, message) => {
    await expect(host.call(tool, args)).rejects.toMatchObject({ code: 'MCP_INPUT_INVALID', message: expect.stringContaining(message) });
  });

  it('refuses an unknown tool with MCP_UNKNOWN_TOOL', async () => {
    await expect(host.call('shell', {})).rejects.toMatchObject({ code: 'MCP_UNKNOWN_TOOL' });
  });

  it('a template past the budget gives the evaluation\'s coded limit', async () => {
    const document = JSON.stringify({ name: 'Loop', type: 'static', attributes: { value: '#foreach($i in [1..100000000])x#end' } });
    const { data } = await host.call('evaluate', { document, fixtures: FIXTURES, identity: 'fatima.schroder' });
    expect((data.error as { code: string }).code).toMatch(/^EVAL_LIMIT_/);
  });

  it('serves each operation\'s documentation and the JSON Schema as resources', () => {
    const uris = host.resources().map((r) => r.uri);
    expect(uris).toContain(SCHEMA_URI);
    expect(uris).toContain(`${OPERATION_URI}accountAttribute`);
    expect(JSON.parse(host.read(SCHEMA_URI).text).title).toBe('Identity Security Cloud transform');
    expect(host.read(`${OPERATION_URI}upper`).text).toContain('**upper**');
  });
});

describe('the MCP verify tool', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'idt-mcp-verify-'));
  const snapshot = join(tmp, 'tenant');
  let planted: PlantedDifference[];
  beforeAll(async () => {
    planted = await writePlantedTenant(snapshot, 200, 'mcp');
  }, 300_000);
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('reports a snapshot as verify does, in markdown and as data, with how one example of each group was computed', async () => {
    const { text, data } = await host.call('verify', { fixtures: snapshot, now: VERIFIED_AT });
    const report = data as unknown as VerifyReport;
    const direct = await verifyReport({ fixtures: snapshot, now: VERIFIED_AT, workers: 0 });
    expect(report.totals).toEqual(direct.totals);
    expect(report.totals.differ).toBe(planted.filter((p) => p.kind === 'differ').length);
    expect(report.totals.differ).toBeGreaterThan(0);
    expect(report.identities).toEqual(direct.identities);
    expect(text).toMatch(/^### verify Employees over /);
    const groups = report.attributes.flatMap((a) => a.groups);
    expect(groups.length).toBeGreaterThan(0);
    expect(groups.every((g) => g.explained !== undefined)).toBe(true);
  }, 120_000);

  it('verifies a tenant over its API with the server\'s credentials, and previews', async () => {
    const server = await resourceServer({ fixtures: snapshot });
    const baseUrl = await server.listen();
    process.env.IDT_CLIENT_ID = ADMIN_PAT.id;
    process.env.IDT_CLIENT_SECRET = ADMIN_PAT.secret;
    try {
      const { data } = await host.call('verify', { tenant: baseUrl, now: VERIFIED_AT, attributes: 'lastname,department', preview: 2 });
      const report = data as unknown as VerifyReport;
      expect(report.attributes.map((a) => a.attribute)).toEqual(['lastname', 'department']);
      expect(report.preview).toMatchObject({ asked: 2, identities: 2 });
    } finally {
      delete process.env.IDT_CLIENT_ID;
      delete process.env.IDT_CLIENT_SECRET;
      await server.close();
    }
  }, 120_000);

  it.each([
    ['neither a snapshot nor a tenant', {}, 'fixtures (a snapshot directory) or tenant'],
    ['both', { fixtures: FIXTURES, tenant: 'http://127.0.0.1:1' }, 'one of them'],
    ['a tenant without credentials in the environment', { tenant: 'http://127.0.0.1:1' }, 'IDT_CLIENT_ID and IDT_CLIENT_SECRET'],
    ['a preview that is not an integer', { fixtures: FIXTURES, preview: '3' }, 'the argument "preview" must be an integer from 1 to 1000'],
    ['a preview past the bound', { fixtures: FIXTURES, preview: 5000 }, 'from 1 to 1000'],
  ])('refuses %s with MCP_INPUT_INVALID', async (_, args, message) => {
    await expect(host.call('verify', args)).rejects.toMatchObject({ code: 'MCP_INPUT_INVALID', message: expect.stringContaining(message) });
  });

  it('passes verify\'s own coded errors on: an attribute the profile does not compute', async () => {
    await expect(host.call('verify', { fixtures: snapshot, attributes: 'emial' })).rejects.toMatchObject({ code: 'VERIFY_ATTRIBUTE_UNKNOWN' });
  });
});
