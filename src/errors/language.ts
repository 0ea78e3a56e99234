import type { ErrorDefinition } from './types.js';

// The editor and assistant adapters (`lsp`, `mcp`). Prefix MCP_.
export const languageErrors = {
  MCP_INPUT_INVALID: { status: 400, description: 'A tool of the MCP server was called with arguments it does not take: a missing or mistyped argument, an unknown one, or one above its bound (a document above 400 KB, a name above 1,000 characters).' },
  MCP_UNKNOWN_TOOL: { status: 404, description: 'The MCP client called a tool or read a resource the server does not have.' },
} as const satisfies Record<string, ErrorDefinition>;
