// `identity-transforms mcp`: the Model Context Protocol server for assistants, on standard input
// and output (src/mcp/). The SDK is an optional peer dependency (it brings an HTTP stack of its
// own): without it, the command says what to install.

import { readFileSync } from 'node:fs';
import { codedError } from '../errors/index.js';
import { EXIT_OK, UsageError, parseCommandLine, type Output } from './io.js';

/** The SDK range this package is built and tested with (package.json peerDependencies). */
function sdkRange(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { peerDependencies?: Record<string, string> };
  return pkg.peerDependencies?.['@modelcontextprotocol/sdk'] ?? 'latest';
}

export const MCP_HELP = `Usage: identity-transforms mcp

Run the Model Context Protocol server for assistants on standard input and output. Tools:
  validate   Validate a transform or profile (with fixtures: its source and attribute names)
  evaluate   The value of a transform for an identity of a fixtures directory
  explain    The evaluation node by node, with the decisions that made the value
  impact     What a change (two directories or git refs) does to every identity
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
  let server: typeof import('../mcp/server.js');
  try {
    server = await import('../mcp/server.js');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((error as Error).message).includes('@modelcontextprotocol/sdk')) {
      throw codedError('MCP_SDK_MISSING', `identity-transforms mcp needs the @modelcontextprotocol/sdk package (an optional peer dependency): run 'npm install @modelcontextprotocol/sdk@${sdkRange()}'`, { cause: error });
    }
    throw error;
  }
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  const running = await server.startServer(pkg.version);
  // The transport ends with standard input; the process then exits.
  return new Promise<number>((resolve) => {
    running.onclose = () => resolve(EXIT_OK);
  });
}
