// The command line: parse the command name, hand the rest to its module, map errors to exit
// codes. Commands load lazily so that `validate` starts fast and never loads the server's
// dependencies (Fastify, better-sqlite3, jose, pino), which only `serve` needs: optional peer
// dependencies, checked before serve's module loads (cli/peers.ts). The executable
// is bin/identity-transforms.js; this module only exports `main`.

import { isTransformsError } from '../errors/index.js';
import { closestName } from '../errors/suggest.js';
import { terminalMessage, terminalText } from '../errors/terminal.js';
import { EXIT_INVALID, EXIT_USAGE, packageManifest, processOutput, shownPointer, type Output } from './io.js';

const HELP = `Usage: identity-transforms <command> [options]

Commands:
  validate <files|dirs|globs|->   Validate transforms and the transforms inside identity and
                                   create profiles (schema + compile + set checks)
  evaluate <transform.json|->      Evaluate a transform for one identity (fixtures or --tenant)
  refresh                          Evaluate an identity profile for every identity (NDJSON)
  impact                           What a change to transforms would do to every identity
  verify                           Does this engine agree with the attributes your tenant stored?
  serve                            Serve the platform API over a fixture tenant
  snapshot                         Copy a tenant into a fixture directory (--since, --pseudonymize)
  gen-tenant                       Write a synthetic tenant in the fixture format
  lsp --stdio                      The language server for editors (Language Server Protocol)
  mcp                              The server for assistants (Model Context Protocol)
  play --fixtures <dir>            The playground: edit, evaluate and explain in a browser

Run 'identity-transforms <command> --help' for the options of a command.
`;

type Command = (argv: string[], io: Output) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  validate: async () => (await import('./validate.js')).validateCommand,
  evaluate: async () => (await import('./evaluate.js')).evaluateCommand,
  refresh: async () => (await import('./refresh.js')).refreshCommand,
  serve: async () => {
    (await import('./peers.js')).requirePeers('serve');
    return (await import('./serve.js')).serveCommand;
  },
  impact: async () => (await import('./impact.js')).impactCommand,
  verify: async () => (await import('./verify.js')).verifyCommand,
  snapshot: async () => (await import('./snapshot.js')).snapshotCommand,
  'gen-tenant': async () => (await import('./gen-tenant.js')).genTenantCommand,
  lsp: async () => (await import('./lsp.js')).lspCommand,
  play: async () => (await import('./play.js')).playCommand,
  mcp: async () => {
    (await import('./peers.js')).requirePeers('mcp');
    return (await import('./mcp.js')).mcpCommand;
  },
};

export async function main(argv: string[], io: Output = processOutput): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(HELP);
    return name === undefined ? EXIT_USAGE : 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(packageManifest().version + '\n');
    return 0;
  }
  const load = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    const suggestion = closestName(name, Object.keys(COMMANDS));
    io.err(`CLI_USAGE unknown command "${terminalText(name)}"${suggestion ? `; did you mean "${suggestion}"?` : ''}\n\n${HELP}`);
    return EXIT_USAGE;
  }
  try {
    const command = await load();
    return await command(rest, io);
  } catch (error) {
    return report(error, io);
  }
}

function report(error: unknown, io: Output): number {
  if (isTransformsError(error)) {
    // A located message already starts with file:line:column; otherwise the file or pointer follows.
    const file = error.details?.file !== undefined ? String(error.details.file) : undefined;
    // Both come from the user's files: shown on one line, a long pointer cut in its middle
    // (`--format json` carries the whole one).
    const where = file !== undefined ? (error.message.includes(file) ? '' : ` (${terminalText(file)})`) : error.path ? ` (${shownPointer(error.path)})` : '';
    // The message quotes names and values from the same input: escaped, a caret excerpt kept on its lines.
    const excerpt = typeof error.details?.excerpt === 'string' ? error.details.excerpt : undefined;
    io.err(`${error.code} ${terminalMessage(error.message, excerpt)}${where}\n`);
    // Usage errors and unreadable input (a missing --rules module, an unreadable version of
    // impact, a tenant verify has nothing to compare with) exit 2, as ajv-cli and check-jsonschema do.
    return error.code.startsWith('CLI_') || error.code.startsWith('VERIFY_') || error.code === 'RULES_MODULE_INVALID' || error.code === 'IMPACT_VERSION' ? EXIT_USAGE : EXIT_INVALID;
  }
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
    io.err(`CLI_USAGE ${terminalText((error as Error).message)}\n`);
    return EXIT_USAGE;
  }
  // An unexpected failure: one line, no stack trace unless asked for.
  io.err(`internal error: ${terminalText(error instanceof Error ? error.message : String(error))}\n`);
  if (process.env.IDT_DEBUG && error instanceof Error) io.err(`${error.stack}\n`);
  return EXIT_INVALID;
}
