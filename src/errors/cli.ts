import type { ErrorDefinition } from './types.js';

// The command line. Prefix CLI_. CLI usage errors exit 2.
export const cliErrors = {
  CLI_USAGE: { status: 400, description: 'The command line is wrong: an unknown flag, a missing argument.' },
  CLI_READ: { status: 400, description: 'An input file or directory cannot be read.' },
  CLI_LISTEN: { status: 400, description: 'serve cannot listen: a port is in use or needs privileges, or the host is not an address of this machine.' },
  CLI_STORE: { status: 400, description: 'serve --db names no store (and no --fixtures to create one), or a file of another program.' },
  CLI_MISSING_PEER: { status: 400, description: 'A command needs packages that are optional peer dependencies of this package and not installed (serve: Fastify, better-sqlite3, jose, pino; mcp: the MCP SDK); the message is the npm install command that adds them.' },
  CLI_FIXTURES: { status: 400, description: 'A fixtures directory is missing a file or holds data of the wrong shape (two identities with one id included), at file:line:column where the data is.' },
} as const satisfies Record<string, ErrorDefinition>;
