// The MCP server's own answers to what the SDK reads but does not answer: a line that is not
// JSON, or JSON that is no JSON-RPC message. JSON-RPC 2.0 answers both with an error whose id is
// null (https://www.jsonrpc.org/specification#error_object); the server then goes on serving.

import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/mcp/server.js';

type Line = { id?: unknown; error?: { code: number; message: string }; result?: unknown };

function served() {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: Line[] = [];
  let buffered = '';
  const waiting: (() => void)[] = [];
  output.on('data', (d: Buffer) => {
    buffered += d.toString();
    for (let i = buffered.indexOf('\n'); i !== -1; i = buffered.indexOf('\n')) {
      lines.push(JSON.parse(buffered.slice(0, i)) as Line);
      buffered = buffered.slice(i + 1);
      waiting.splice(0).forEach((wake) => wake());
    }
  });
  const next = async (): Promise<Line> => {
    while (lines.length === 0) await new Promise<void>((wake) => waiting.push(wake));
    return lines.shift()!;
  };
  return { input, output, next, send: (text: string) => input.write(text + '\n') };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('the MCP server over its streams', () => {
  it('answers a line that is not JSON with -32700 and a JSON line that is no message with -32600, then serves the next request', async () => {
    const s = served();
    const server = await startServer('0.0.0-test', () => undefined, { input: s.input, output: s.output });
    close = () => server.close();
    s.send('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"');
    expect(await s.next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: a line of standard input is not JSON (each line is one JSON-RPC message)' } });
    s.send('[1, 2, 3]');
    expect(await s.next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a line of standard input is JSON but no JSON-RPC 2.0 request, notification or response' } });
    s.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'unit', version: '1' } } }));
    const initialized = await s.next();
    expect(initialized.id).toBe(7);
    expect(initialized.result).toMatchObject({ serverInfo: { name: 'identity-transforms', version: '0.0.0-test' } });
  });
});
