// The language server as an editor runs it: the installed package's bin, `lsp --stdio`, spoken to
// over standard input and output with the protocol's own JSON-RPC library. Given a folder with a
// fixture tenant and transforms, when the editor opens, edits, completes, hovers and follows a
// reference, then the answers are the service's, at the right positions — and the server's HTTP
// dependencies are never loaded.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { installed, ROOT } from './install.js';
import { moduleTrace, type ModuleTrace } from './module-trace.js';

const SERVER_PACKAGES = /\/node_modules\/(fastify|@fastify\/[^/]+|better-sqlite3|pino)\//;

let dir: string;
let trace: ModuleTrace;
let child: ChildProcessWithoutNullStreams;
let connection: ProtocolConnection;
const published: PublishDiagnosticsParams[] = [];
const uri = (name: string) => pathToFileURL(join(dir, 'transforms', name)).href;

/** The first diagnostics of `file` published after now that satisfy `accept`. */
function nextDiagnostics(file: string, accept: (p: PublishDiagnosticsParams) => boolean = () => true): Promise<PublishDiagnosticsParams> {
  const from = published.length;
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const found = published.slice(from).find((p) => p.uri === uri(file) && accept(p));
      if (found) {
        clearInterval(timer);
        resolve(found);
      }
    }, 20);
    setTimeout(() => {
      clearInterval(timer);
      reject(new Error(`no diagnostics for ${file}: ${JSON.stringify(published.slice(from))}`));
    }, 20_000);
  });
}

/** Ask until the answer satisfies `accept` (the tenant model loads in the background). */
async function until<T>(ask: () => Promise<T>, accept: (answer: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const answer = await ask();
    if (accept(answer) || i === 200) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const open = (name: string, text: string) =>
  connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uri(name), languageId: 'json', version: 1, text } });

beforeAll(async () => {
  const pkg = await installed();
  dir = mkdtempSync(join(tmpdir(), 'idt-lsp-'));
  for (const file of ['sources.json', 'identities.json', 'accounts.json']) copyFileSync(join(ROOT, 'fixtures', file), join(dir, file));
  mkdirSync(join(dir, 'transforms'));
  writeFileSync(join(dir, 'transforms', 'base.json'), JSON.stringify({ name: 'Base', type: 'static', attributes: { value: 'from base' } }, null, 2));
  // Every module the server resolves, recorded by a module hook.
  trace = moduleTrace(dir);
  child = spawn(process.execPath, ['--import', trace.register, pkg.bin, 'lsp', '--stdio'], { cwd: dir, env: pkg.env });
  connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => void published.push(p));
  connection.listen();
  const init = await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(dir).href,
    workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'tenant' }],
    capabilities: {},
    initializationOptions: { identityTransforms: { identity: 'fatima.schroder' } },
  });
  expect((init as { capabilities: { textDocumentSync: number } }).capabilities.textDocumentSync).toBe(2);
  await connection.sendNotification('initialized', {});
});

afterAll(async () => {
  await connection?.sendRequest('shutdown').catch(() => undefined);
  await connection?.sendNotification('exit').catch(() => undefined);
  child?.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe('identity-transforms lsp --stdio', () => {
  it('publishes a broken file\'s diagnostics at the range of what is wrong, and new ones after an edit', async () => {
    const first = nextDiagnostics('broken.json');
    await open('broken.json', '{\n  "name": "Broken",\n  "type": "uper"\n}');
    const { diagnostics } = await first;
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'SCHEMA_ENUM', severity: 1, range: { start: { line: 2, character: 10 }, end: { line: 2, character: 16 } } });
    expect(diagnostics[0]!.message).toContain('did you mean "upper"?');

    const second = nextDiagnostics('broken.json', (p) => p.version === 2);
    await connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: uri('broken.json'), version: 2 },
      contentChanges: [{ range: { start: { line: 2, character: 11 }, end: { line: 2, character: 15 } }, text: 'upper', rangeLength: 4 }],
    });
    expect((await second).diagnostics).toEqual([]);

    const third = nextDiagnostics('broken.json', (p) => p.version === 3);
    await connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: uri('broken.json'), version: 3 },
      contentChanges: [{ range: { start: { line: 2, character: 18 }, end: { line: 2, character: 18 } }, text: ',' }],
    });
    expect((await third).diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([['VALIDATE_JSON_SYNTAX', 3]]);
  });

  it('completes operation types, and source names from the fixtures found by walking up', async () => {
    // An accountAttribute whose sourceName is being typed: its type completes, and its source.
    await open('complete.json', '{"name":"C","type":"accountAttribute","attributes":{"sourceName":""}}');
    const labels = (answer: unknown) => (answer as { label: string }[]).map((i) => i.label);
    const types = await connection.sendRequest('textDocument/completion', { textDocument: { uri: uri('complete.json') }, position: { line: 0, character: 20 } });
    expect(labels(types)).toContain('accountAttribute');
    const sources = await until(
      () => connection.sendRequest('textDocument/completion', { textDocument: { uri: uri('complete.json') }, position: { line: 0, character: 66 } }),
      (answer) => labels(answer).includes('Workday'),
    );
    expect(labels(sources)).toEqual(expect.arrayContaining(['Workday', 'Active Directory']));
  });

  it('shows the value for the configured identity on hover', async () => {
    const text = '{"name":"H","type":"upper","attributes":{"input":{"type":"accountAttribute","attributes":{"sourceName":"Workday","attributeName":"FIRST_NAME"}}}}';
    await open('hover.json', text);
    const hover = await until(
      () => connection.sendRequest('textDocument/hover', { textDocument: { uri: uri('hover.json') }, position: { line: 0, character: 21 } }),
      (answer) => JSON.stringify(answer ?? '').includes('FATIMA'),
    );
    expect((hover as { contents: { value: string } }).contents.value).toContain('**fatima.schroder**: `"FATIMA"`');
  });

  it('goes from a reference to the transform in another file, one the editor has not opened', async () => {
    await open('uses-base.json', '{"name":"U","type":"reference","attributes":{"id":"Base"}}');
    const found = await until(
      () => connection.sendRequest('textDocument/definition', { textDocument: { uri: uri('uses-base.json') }, position: { line: 0, character: 52 } }),
      (answer) => Array.isArray(answer) && answer.length > 0,
    );
    expect(found).toEqual([{ uri: uri('base.json'), range: { start: { line: 1, character: 10 }, end: { line: 1, character: 16 } } }]);
  });

  it('never loads the HTTP server\'s dependencies', () => {
    const urls = trace.urls();
    expect(urls.some((url) => url.includes('/identity-transforms/dist/lsp/server.js'))).toBe(true);
    expect(urls.filter((url) => SERVER_PACKAGES.test(url))).toEqual([]);
  });
});
