// The installed language server (`identity-transforms lsp --stdio`) under a client that breaks the
// protocol's framing: a Content-Length that lies by gigabytes and a header without end each end the
// server with LSP_FRAMING on standard error and exit 1, its memory never holding the bytes sent.
// And under one that floods it with document changes, or sends changes it should not: the server
// checks only the last of a flood, refuses a bad change with LSP_CHANGE_REFUSED, and its
// diagnostics are those of the editor's last version.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type LogMessageParams, type ProtocolConnection, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { installed, type Installed } from './install.js';

let pkg: Installed;
beforeAll(async () => {
  pkg = await installed();
}, 30 * 60_000);

/** Runs the server, writes `input` (then 1 MB chunks of `then` while it accepts them), and gives its exit and standard error. */
function serve(input: string, then: number): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(pkg.bin, ['lsp', '--stdio'], { env: pkg.env, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdin.on('error', () => undefined);
    child.on('exit', (code) => resolve({ code, err }));
    child.stdin.write(input);
    const chunk = Buffer.alloc(1 << 20, 'a');
    let sent = 0;
    const more = () => {
      while (sent < then && child.stdin.writable && child.stdin.write(chunk)) sent++;
      if (sent < then && child.stdin.writable) child.stdin.once('drain', more);
    };
    more();
  });
}

describe('lsp --stdio against a client that breaks the framing', () => {
  it('ends with LSP_FRAMING when a Content-Length lies by gigabytes', async () => {
    expect(await serve('Content-Length: 2000000000\r\n\r\n', 256)).toEqual({ code: 1, err: 'LSP_FRAMING: a message of 2000000000 bytes is above the limit of 67108864 bytes (64 MB)\n' });
  });

  it('ends with LSP_FRAMING when a header has no end', async () => {
    expect(await serve('Content-Length: 10\r\nX-Padding: ', 256)).toEqual({ code: 1, err: "LSP_FRAMING: a message's header is above the limit of 8192 bytes without its end (an empty line)\n" });
  });
});

describe('lsp --stdio against a client that stops reading', () => {
  // A check fell due after the client's end of standard output closed: sending its diagnostics
  // threw ConnectionError from a timer, which ended the server with Node's stack trace.
  it('exits 1, as without shutdown, and says nothing on standard error', async () => {
    const child = spawn(pkg.bin, ['lsp', '--stdio'], { env: pkg.env });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const send = (message: Record<string, unknown>) => {
      const body = JSON.stringify({ jsonrpc: '2.0', ...message });
      child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    };
    const initialized = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    send({ id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
    await initialized;
    send({ method: 'initialized', params: {} });
    // A template that spends an evaluation's whole iteration budget: each hover of it takes a while.
    const text = JSON.stringify({ name: 'Loop', type: 'static', attributes: { value: '#foreach($i in [1..100000000])#set($x = "$i")#end' } });
    send({ method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///loop.json', languageId: 'json', version: 1, text } } });
    for (let id = 2; id < 20; id++) send({ id, method: 'textDocument/hover', params: { textDocument: { uri: 'file:///loop.json' }, position: { line: 0, character: 30 } } });
    child.stdout.destroy();
    expect(await exited).toBe(1);
    expect(err).toBe('');
  });
});

describe('lsp --stdio against a client that floods it with changes, or sends bad ones', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idt-lsp-flood-'));
  let child: ChildProcessWithoutNullStreams;
  let connection: ProtocolConnection;
  const published: PublishDiagnosticsParams[] = [];
  const logged: string[] = [];
  const uri = (name: string) => pathToFileURL(join(dir, name)).href;
  const poll = <T>(read: () => T) => expect.poll(read, { timeout: 60_000, interval: 50 });
  const last = (name: string) => published.filter((p) => p.uri === uri(name)).at(-1);
  const change = (name: string, version: number, ...contentChanges: unknown[]) => connection.sendNotification('textDocument/didChange', { textDocument: { uri: uri(name), version }, contentChanges });
  const open = (name: string, version: number, text: string) => connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uri(name), languageId: 'json', version, text } });
  const at = (line: number, character: number) => ({ line, character });

  beforeAll(async () => {
    child = spawn(pkg.bin, ['lsp', '--stdio'], { cwd: dir, env: pkg.env });
    connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => void published.push(p));
    connection.onNotification('window/logMessage', (p: LogMessageParams) => void logged.push(p.message));
    connection.listen();
    await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(dir).href, capabilities: {} });
    await connection.sendNotification('initialized', {});
  });
  afterAll(async () => {
    await connection?.sendRequest('shutdown').catch(() => undefined);
    child?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checks the last of thousands of rapid full and incremental changes, not each: its diagnostics are the last version\'s', async () => {
    // A transform whose value is 200,000 characters: each check of it reads them all.
    const value = 'a'.repeat(200_000);
    await open('flood.json', 1, `{"name":"F","type":"static","attributes":{"value":"${value}"}}`);
    const CHANGES = 3000;
    for (let v = 2; v <= CHANGES; v++) {
      if (v % 100 === 0) await change('flood.json', v, { text: `{"name":"F","type":"static","attributes":{"value":"${value}${v}"}}` });
      else await change('flood.json', v, { range: { start: at(0, 50), end: at(0, 50) }, text: 'b' });
    }
    await change('flood.json', CHANGES + 1, { range: { start: at(0, 20), end: at(0, 26) }, text: 'uper' });
    await poll(() => last('flood.json')?.version).toBe(CHANGES + 1);
    const { diagnostics } = last('flood.json')!;
    expect(diagnostics.map((d) => [d.code, d.range])).toEqual([['SCHEMA_ENUM', { start: at(0, 19), end: at(0, 25) }]]);
    // One check a moment after the changes, not one per change.
    expect(published.filter((p) => p.uri === uri('flood.json')).length).toBeLessThan(CHANGES / 10);
    const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]);
    expect(peakKb).toBeLessThan(512 * 1024);
  }, 300_000);

  it('refuses a change to a document that is not open with LSP_CHANGE_REFUSED in its log, once', async () => {
    for (let v = 1; v <= 50; v++) await change('never-opened.json', v, { text: '{}' });
    await poll(() => logged.filter((m) => m.startsWith('LSP_CHANGE_REFUSED'))).toEqual([`LSP_CHANGE_REFUSED: a change to ${uri('never-opened.json')}, which is not open (textDocument/didOpen comes first)`]);
    expect(published.filter((p) => p.uri === uri('never-opened.json'))).toEqual([]);
  });

  it('refuses a version that goes back, holds the document at its last good version with a diagnostic saying so, until it is opened again', async () => {
    await open('back.json', 1, '{"name":"B","type":"upper"}');
    await change('back.json', 2, { range: { start: at(0, 20), end: at(0, 25) }, text: 'lower' });
    await poll(() => last('back.json')?.version).toBe(2);
    await change('back.json', 1, { text: '{"name":"B","type":"uper"}' });
    await change('back.json', 3, { text: '{"name":"B","type":"lowr"}' });
    await poll(() => last('back.json')?.diagnostics.map((d) => d.code)).toEqual(['LSP_CHANGE_REFUSED']);
    expect(last('back.json')).toMatchObject({ version: 2, diagnostics: [{ range: { start: at(0, 0), end: at(0, 0) }, message: expect.stringContaining('as version 1 after version 2: versions only increase') }] });
    expect(logged).toContain(`LSP_CHANGE_REFUSED: a change to ${uri('back.json')} as version 1 after version 2: versions only increase`);
    await connection.sendNotification('textDocument/didClose', { textDocument: { uri: uri('back.json') } });
    await open('back.json', 4, '{"name":"B","type":"uper"}');
    await poll(() => last('back.json')?.version).toBe(4);
    expect(last('back.json')!.diagnostics.map((d) => d.code)).toEqual(['SCHEMA_ENUM']);
  });

  it('applies a range that reaches a billion lines past the end as the end, and places the next diagnostics right', async () => {
    await open('range.json', 1, '{"name":"R",\n"type":"upper"}\n\n\n');
    await change('range.json', 2, { range: { start: at(1, 1_000_000), end: at(2_000_000_000, 7) }, text: '\n' });
    await change('range.json', 3, { range: { start: at(1, 8), end: at(1, 13) }, text: 'uper' });
    await poll(() => last('range.json')?.version).toBe(3);
    expect(last('range.json')!.diagnostics.map((d) => [d.code, d.range])).toEqual([['SCHEMA_ENUM', { start: at(1, 7), end: at(1, 13) }]]);
  });

  // They were answered with an InternalError carrying a TypeError's message ("Cannot read
  // properties of undefined (reading 'uri')").
  it.each([
    ['a completion of no document', 'textDocument/completion', { position: { line: 0, character: 0 } }, 'textDocument/completion: the params carry no textDocument.uri (a string)'],
    ['a hover without a position', 'textDocument/hover', { textDocument: { uri: 'file:///x.json' } }, 'textDocument/hover: the params carry no position of a line and a character (integers from 0)'],
    ['a completion at a negative line', 'textDocument/completion', { textDocument: { uri: 'file:///x.json' }, position: { line: -1, character: 0 } }, 'textDocument/completion: the params carry no position of a line and a character (integers from 0)'],
    ['references without their context', 'textDocument/references', { textDocument: { uri: 'file:///x.json' }, position: { line: 0, character: 0 } }, "textDocument/references: the params' context is not an object"],
    ['a rename without its new name', 'textDocument/rename', { textDocument: { uri: 'file:///x.json' }, position: { line: 0, character: 0 } }, "textDocument/rename: the params' newName is not a string"],
    ['document symbols of a URI that is a number', 'textDocument/documentSymbol', { textDocument: { uri: 7 } }, 'textDocument/documentSymbol: the params carry no textDocument.uri (a string)'],
  ])('answers %s with InvalidParams and LSP_REQUEST_INVALID, and the next request', async (_name, method, params, message) => {
    const error = await connection.sendRequest(method, params).then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ code: -32602, message: `LSP_REQUEST_INVALID: ${message}`, data: { code: 'LSP_REQUEST_INVALID' } });
    await open('after-invalid.json', 1, '{"name":"A","type":"upper"}');
    expect(await connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: uri('after-invalid.json') } })).toMatchObject([{ name: 'A' }]);
    await connection.sendNotification('textDocument/didClose', { textDocument: { uri: uri('after-invalid.json') } });
  });

  it('refuses a range of positions that are not numbers, and answers the next request', async () => {
    await open('nan.json', 1, '{"name":"N","type":"upper"}');
    await change('nan.json', 2, { range: { start: { line: 'x', character: 0 }, end: at(0, 1) }, text: '' });
    await poll(() => logged.some((m) => m.includes(`content change 0 to ${uri('nan.json')} has a range that is not two positions`))).toBe(true);
    const symbols = await connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: uri('nan.json') } });
    expect(symbols).toMatchObject([{ name: 'N' }]);
  });
});
