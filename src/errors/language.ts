import type { ErrorDefinition } from './types.js';

// The editor and assistant adapters (`lsp`, `mcp`). Prefixes LSP_ and MCP_.
export const languageErrors = {
  LSP_FRAMING: { status: 400, description: 'The language server\'s client broke the protocol\'s framing or its bounds: a header block above 8 KB, a message without a Content-Length of digits, or one above 64 MB. The server says so on standard error and exits 1 rather than buffer without bound.' },
  LSP_CHANGE_REFUSED: { status: 400, description: 'The language server\'s client sent a document change it cannot apply as the protocol says: to a document that is not open, with a version that does not increase, with a range that is not line and character numbers, making the document longer than 64 Mi characters, or of edits that would copy more than 256 Mi characters in all. The server says so in its log (window/logMessage) and, for an open document, in a diagnostic at its start; the document stays at its last good version until the editor opens it again.' },
  LSP_REQUEST_INVALID: { status: 400, description: 'The language server\'s client sent a request without what the protocol says it carries: no textDocument.uri, a position whose line or character is not an integer from 0, a rename without its newName, references without their context. The answer is the protocol\'s InvalidParams error with the code in its data; the server goes on serving.' },
  MCP_FRAMING: { status: 400, description: 'The MCP server\'s client sent a line (one JSON-RPC message on stdio) above 8 MB. The server says so on standard error and exits 1 rather than buffer without bound.' },
  MCP_INPUT_INVALID: { status: 400, description: 'A tool of the MCP server was called with arguments it does not take: a missing or mistyped argument, an unknown one, or one above its bound (a document above 400 KB, a name above 1,000 characters).' },
  MCP_UNKNOWN_TOOL: { status: 404, description: 'The MCP client called a tool or read a resource the server does not have.' },
} as const satisfies Record<string, ErrorDefinition>;
