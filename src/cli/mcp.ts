// `identity-transforms mcp`: the Model Context Protocol server for assistants, on standard input
// and output (src/mcp/). The SDK is an optional peer dependency (it brings an HTTP stack of its
// own): without it, the command says what to install.

import { readFileSync } from 'node:fs';
import { isTransformsError } from '../errors/index.js';
import { EXIT_INVALID, EXIT_OK, UsageError, parseCommandLine, type Output } from './io.js';

export const MCP_HELP = `Usage: identity-transforms mcp

Run the Model Context Protocol server for assistants on standard input and output. Tools:
  validate   Validate a transform or profile (with fixtures: its source and attribute names)
  evaluate   The value of a transform for an identity of a fixtures directory
  explain    The evaluation node by node, with the decisions that made the value
  impact     What a change (two directories or git refs) does to every identity
  verify     Does this engine agree with the tenant's stored attributes (a snapshot or the
             tenant's API, credentials from IDT_CLIENT_ID and IDT_CLIENT_SECRET)
Resources: each operation's documentation and the JSON Schema of transforms.

It needs the @modelcontextprotocol/sdk package (an optional peer dependency):
  npm install @modelcontextprotocol/sdk

Options:
  -h, --help   Show this help
`;

export async function mcpCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseCommandLine('mcp', { args: argv, allowPositionals: true, strict: true, options: { help: { type: 'boolean', short: 'h', default: false } } });
  if (values.help) {
    io.out(MCP_HELP);
    return EXIT_OK;
  }
  if (positionals.length > 0) throw new UsageError(`mcp takes no arguments (got "${positionals[0]}")`);
  // The SDK's presence is checked before this module loads (peers.ts, COMMAND_PEERS).
  const server = await import('../mcp/server.js');
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  // The transport ends with standard input; the process then exits (1 after MCP_FRAMING), standard
  // input let go of, as a transport closed with it still open would hold the process.
  let code = EXIT_OK;
  const running = await server.startServer(pkg.version, (error) => {
    io.err(`${isTransformsError(error) ? error.code : 'MCP_FRAMING'}: ${error.message}\n`);
    code = EXIT_INVALID;
  });
  return new Promise<number>((resolve) => {
    running.onclose = () => {
      process.stdin.destroy();
      resolve(code);
    };
  });
}
