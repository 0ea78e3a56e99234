// The Model Context Protocol adapter: `identity-transforms mcp`, on the official SDK, over stdio.
// It lists the tools and resources of tools.ts and translates: a tool's answer becomes text and
// structured content, a coded error a tool result with isError and the code first.
// https://modelcontextprotocol.io/specification/2025-06-18/server/tools

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema, McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { isTransformsError } from '../errors/index.js';
import { BoundedLines } from './framing.js';
import { ToolHost, TOOLS } from './tools.js';

/**
 * JSON-RPC's answer to a line that is no request (https://www.jsonrpc.org/specification#error_object):
 * -32700 for one that is not JSON, -32600 for JSON that is no JSON-RPC message; the id is null, as
 * no request's id could be read. The SDK's transport reports both to `onerror` only and reads on,
 * so without this the client waited for an answer that never came.
 */
export function malformedLineAnswer(error: Error): { jsonrpc: '2.0'; id: null; error: { code: number; message: string } } | null {
  if (error instanceof SyntaxError) return { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: a line of standard input is not JSON (each line is one JSON-RPC message)' } };
  if (error.name === 'ZodError') return { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a line of standard input is JSON but no JSON-RPC 2.0 request, notification or response' } };
  return null;
}

/**
 * Serve the tools on standard input and output (or the streams given) until the client closes
 * them. A line above the bound of framing.ts ends the server with MCP_FRAMING, through `onFraming`.
 */
export async function startServer(
  version: string,
  onFraming: (error: Error) => void,
  streams: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream } = { input: process.stdin, output: process.stdout },
): Promise<Server> {
  const host = new ToolHost();
  const server = new Server({ name: 'identity-transforms', version }, { capabilities: { tools: {}, resources: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS.map((t) => ({ ...t })) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    try {
      const { text, data } = await host.call(request.params.name, request.params.arguments);
      return { content: [{ type: 'text', text }], structuredContent: data };
    } catch (error) {
      if (!isTransformsError(error)) throw error;
      const coded = { code: error.code, message: error.message, ...(error.path !== undefined ? { path: error.path } : {}) };
      return { isError: true, content: [{ type: 'text', text: `${error.code} ${error.message}` }], structuredContent: { error: coded } };
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: host.resources() }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    try {
      return { contents: [host.read(request.params.uri)] };
    } catch (error) {
      if (!isTransformsError(error)) throw error;
      throw new McpError(ErrorCode.InvalidParams, `${error.code} ${error.message}`, { code: error.code });
    }
  });
  const input = streams.input.pipe(new BoundedLines());
  input.once('error', (error) => {
    onFraming(error);
    void server.close();
  });
  const transport = new StdioServerTransport(input, streams.output as NodeJS.WriteStream);
  server.onerror = (error) => {
    const answer = malformedLineAnswer(error);
    if (answer) void transport.send(answer as unknown as Parameters<typeof transport.send>[0]);
  };
  await server.connect(transport);
  // The client closing standard input ends the session (a client that simply goes away included).
  input.once('end', () => void server.close());
  // So does a client that stops reading: the answer to a call under way then fails to be written
  // (EPIPE), which without a listener ended the process with Node's stack trace on standard error.
  streams.output.on('error', () => void server.close());
  return server;
}
