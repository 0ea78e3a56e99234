import type { ErrorDefinition } from './types.js';

// The editor and assistant adapters (`lsp`, `mcp`). Prefixes LSP_ and MCP_.
export const languageErrors = {
  LSP_FRAMING: { status: 400, description: 'The language server\'s client broke the protocol\'s framing or its bounds: a header block above 8 KB, a message without a Content-Length of digits, or one above 64 MB. The server says so on standard error and exits 1 rather than buffer without bound.' },
  MCP_INPUT_INVALID: { status: 400, description: 'A tool of the MCP server was called with arguments it does not take: a missing or mistyped argument, an unknown one, or one above its bound (a document above 400 KB, a name above 1,000 characters).' },
  MCP_UNKNOWN_TOOL: { status: 404, description: 'The MCP client called a tool or read a resource the server does not have.' },
} as const satisfies Record<string, ErrorDefinition>;
