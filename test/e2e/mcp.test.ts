// The MCP server as an assistant runs it: the installed package's bin, `mcp`, driven over stdio by
// the SDK's own client. Given a project that installed the SDK (the optional peer dependency, at
// the range package.json gives it, which the consumer project of test/e2e/install.ts has),
// the tools are listed and each answers; a hostile input gets a coded error; and a project
// without the SDK is told, coded, what to install.

import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installed, ROOT, type Installed } from './install.js';

const run = promisify(execFile);
const SDK = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['@modelcontextprotocol/sdk']!;
const FIXTURES = join(ROOT, 'fixtures');
const FIRST_NAME = JSON.stringify({ name: 'First', type: 'accountAttribute', attributes: { sourceName: 'Workday', attributeName: 'FIRST_NAME' } });

let pkg: Installed;
let client: Client;

type Result = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };
const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;

beforeAll(async () => {
  pkg = await installed();
  client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: pkg.bin, args: ['mcp'], cwd: pkg.consumer, env: pkg.env as Record<string, string>, stderr: 'pipe' }));
});

afterAll(async () => {
  await client?.close();
});

describe('identity-transforms mcp', () => {
  it('lists its tools and resources', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['validate', 'evaluate', 'explain', 'verify', 'impact']);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('identity-transforms://operations/accountAttribute');
    const schema = await client.readResource({ uri: 'identity-transforms://schema/transform.schema.json' });
    expect(JSON.parse((schema.contents[0] as { text: string }).text).title).toBe('Identity Security Cloud transform');
  });

  it('validates, with the suggested name', async () => {
    const result = await call('validate', { document: '{"name":"x","type":"uper"}' });
    expect(result.content[0]!.text).toBe('1:20 error SCHEMA_ENUM unknown transform type "uper"; did you mean "upper"? (/type)');
  });

  it('evaluates and explains for an identity of a fixtures directory', async () => {
    expect((await call('evaluate', { document: FIRST_NAME, fixtures: FIXTURES, identity: 'fatima.schroder' })).structuredContent).toEqual({ identity: 'fatima.schroder', value: 'Fatima' });
    const explained = await call('explain', { document: FIRST_NAME, fixtures: FIXTURES, identity: 'fatima.schroder' });
    expect(explained.content[0]!.text).toContain('2 accounts considered, sorted by created ascending');
  });

  it('reports the impact of two versions', async () => {
    const result = await call('impact', { base: FIXTURES, head: FIXTURES, fixtures: FIXTURES });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toHaveProperty('profiles');
  });

  it('verifies a snapshot as the verify command reports it', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'idt-e2e-mcp-verify-'));
    try {
      const dir = join(tmp, 'tenant');
      await run(pkg.bin, ['gen-tenant', '--identities', '200', '--seed', '7', '--out', dir, '--stored', '--plant'], { cwd: pkg.consumer, env: pkg.env });
      const now = '2026-03-01T00:00:00Z';
      const cli = JSON.parse((await run(pkg.bin, ['verify', '--fixtures', dir, '--now', now, '--format', 'json'], { cwd: pkg.consumer, env: pkg.env })).stdout) as { totals: { differ: number } };
      const result = await call('verify', { fixtures: dir, now });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent!.totals).toEqual(cli.totals);
      expect(cli.totals.differ).toBeGreaterThan(0);
      expect(result.content[0]!.text).toMatch(/^### verify /);
      const refused = await call('verify', { fixtures: dir, preview: 2 });
      expect(refused).toMatchObject({ isError: true, structuredContent: { error: { code: 'VERIFY_OPTION_INVALID' } } });
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 180_000);

  it('answers a hostile input with a coded error, and goes on serving', async () => {
    const result = await call('evaluate', { document: 'x'.repeat(500_000), fixtures: FIXTURES, identity: 'fatima.schroder' });
    expect(result).toMatchObject({ isError: true, structuredContent: { error: { code: 'MCP_INPUT_INVALID' } } });
    expect((await call('validate', { document: '{"name":"x","type":"upper"}' })).content[0]!.text).toBe('valid: no findings');
  });

  describe('a fixtures directory with files that are not what they should be', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'idt-e2e-mcp-fixtures-'));
    afterAll(() => rmSync(tmp, { recursive: true, force: true }));
    const fixtures = (name: string, change: (dir: string) => void) => {
      const dir = join(tmp, name);
      cpSync(FIXTURES, dir, { recursive: true });
      change(dir);
      return dir;
    };

    // A transforms/ that is a file or holds a dangling link answered -32603 with Node's ENOTDIR
    // or ENOENT; what cannot be read as a transform is left out of the names references find.
    it.each([
      ['whose transforms/ is a file', (dir: string) => {
        rmSync(join(dir, 'transforms'), { recursive: true });
        writeFileSync(join(dir, 'transforms'), 'not a folder');
      }],
      ['whose transforms/ holds a dangling link', (dir: string) => symlinkSync(join(dir, 'nowhere.json'), join(dir, 'transforms', 'gone.json'))],
    ])('validates and evaluates with one %s', async (name, change) => {
      const dir = fixtures(name.replace(/\W+/g, '-'), change);
      expect((await call('validate', { document: FIRST_NAME, fixtures: dir })).content[0]!.text).toBe('valid: no findings');
      expect((await call('evaluate', { document: FIRST_NAME, fixtures: dir, identity: 'fatima.schroder' })).structuredContent).toEqual({ identity: 'fatima.schroder', value: 'Fatima' });
    });

    // It answered -32603 with a SyntaxError ("Unexpected token '\ufffd'"), without code or place.
    it('refuses an identities.json with bytes that are not UTF-8 with CLI_FIXTURES at the element\'s line and column', async () => {
      const dir = fixtures('not-utf-8', (d) => writeFileSync(join(d, 'identities.json'), Buffer.concat([Buffer.from('[\n  '), Buffer.from([0xff, 0xfe]), Buffer.from('\n]')])));
      const result = await call('evaluate', { document: FIRST_NAME, fixtures: dir, identity: 'fatima.schroder' });
      const message = `${join(dir, 'identities.json')}:2:3: element 0 of the array is not valid JSON: unexpected character "\ufffd" where a value was expected`;
      expect(result).toMatchObject({ isError: true, structuredContent: { error: { code: 'CLI_FIXTURES', message, path: '/0' } } });
    });
  });

  // The client's end of the server's standard output closed while a call is under way: writing
  // its answer failed with EPIPE, which ended the server with exit 1 and Node's stack trace.
  it('ends quietly, exit 0, when its client stops reading in the middle of a call', async () => {
    const child = spawn(pkg.bin, ['mcp'], { cwd: pkg.consumer, env: pkg.env });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const send = (message: Record<string, unknown>) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const initialized = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gone', version: '1' } } });
    await initialized;
    send({ method: 'notifications/initialized' });
    // A call that spends an evaluation's whole iteration budget: its answer comes after the client is gone.
    const looping = JSON.stringify({ name: 'Loop', type: 'static', attributes: { value: '#foreach($i in [1..100000000])#set($x = "$i")#end' } });
    send({ id: 2, method: 'tools/call', params: { name: 'evaluate', arguments: { document: looping, fixtures: FIXTURES, identity: 'fatima.schroder' } } });
    child.stdout.destroy();
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  });

  // The SDK's reader gives up on a buffer above 10 MB by closing its transport without a word:
  // the process, its standard input still open, then answered nothing and never ended.
  it('ends with MCP_FRAMING, exit 1, on a line above 8 MB', async () => {
    const child = spawn(pkg.bin, ['mcp'], { cwd: pkg.consumer, env: pkg.env });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => undefined);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const chunk = Buffer.alloc(1 << 20, 'x');
    let sent = 0;
    const more = () => {
      while (sent < 64 && child.stdin.writable && child.stdin.write(chunk)) sent++;
      if (sent < 64 && child.stdin.writable) child.stdin.once('drain', more);
    };
    more();
    expect(await exited).toBe(1);
    expect(stderr).toBe('MCP_FRAMING: a message is above the limit of 8388608 bytes (8 MB): a line of stdio is one message\n');
  }, 120_000);

  it('says, coded, what to install in a project without the SDK', async () => {
    // The light project: the package alone, none of its optional peers installed.
    const bin = join(pkg.light, 'node_modules/identity-transforms/bin/identity-transforms.js');
    const failed = await run(process.execPath, [bin, 'mcp'], { cwd: pkg.light, env: pkg.env }).catch((error: { code: number; stderr: string }) => error);
    expect((failed as { code: number }).code).toBe(2);
    expect((failed as { stderr: string }).stderr).toBe(`CLI_MISSING_PEER mcp needs @modelcontextprotocol/sdk, optional peer dependencies of identity-transforms that are not installed: run npm install '@modelcontextprotocol/sdk@${SDK}'\n`);
  });
});
