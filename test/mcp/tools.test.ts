// The MCP server's tools without the protocol: each answers from the service and the engine,
// and bad arguments get coded errors.

import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATION_URI, SCHEMA_URI, ToolHost } from '../../src/mcp/tools.js';

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
    ['a missing argument', 'evaluate', { document: '{}' }, 'the argument "fixtures" is required'],
    ['a mistyped argument', 'validate', { document: { type: 'upper' } }, 'the argument "document" must be a string'],
    ['a document above 400 KB', 'validate', { document: ' '.repeat(500_000) }, 'the limit is 409600'],
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
