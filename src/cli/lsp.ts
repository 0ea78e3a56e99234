// `identity-transforms lsp --stdio`: the language server, speaking the Language Server Protocol
// on standard input and output (src/lsp/server.ts). It loads nothing of the HTTP server.

import { EXIT_INVALID, EXIT_OK, UsageError, parseCommandLine, type Output } from './io.js';
import { isTransformsError } from '../errors/index.js';

export const LSP_HELP = `Usage: identity-transforms lsp --stdio

Run the language server for transform files and identity and create profiles: diagnostics
(everything validate finds, with did-you-mean), completion, hover with the value for an identity,
go to definition, references and rename of transforms, document symbols, and "Evaluate"/"Explain"
code lenses. It speaks the Language Server Protocol on standard input and output.

Settings (initializationOptions, or workspace/didChangeConfiguration under "identityTransforms"):
  fixtures   A fixture or snapshot directory (default: found by walking up from the files)
  identity   The identity (id or name) whose values hover and the code lenses show

Options:
  --stdio      Speak the protocol on standard input and output (required)
  -h, --help   Show this help
`;

export async function lspCommand(argv: string[], io: Output): Promise<number> {
  const { values } = parseCommandLine('lsp', {
    args: argv,
    strict: true,
    options: { stdio: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
  });
  if (values.help) {
    io.out(LSP_HELP);
    return EXIT_OK;
  }
  if (!values.stdio) throw new UsageError('lsp needs --stdio (the protocol runs on standard input and output)');
  const [{ startServer }, { BoundedFrames }, { createConnection }] = await Promise.all([import('../lsp/server.js'), import('../lsp/framing.js'), import('vscode-languageserver/node')]);
  const input = process.stdin.pipe(new BoundedFrames());
  const connection = startServer(createConnection(input, process.stdout));
  // It serves until the protocol's exit notification, then lets go of standard input so that the
  // process ends; a client past the framing's bounds ends it with LSP_FRAMING (exit 1).
  return new Promise<number>((resolve) => {
    const stop = (code: number) => {
      connection.dispose();
      process.stdin.destroy();
      resolve(code);
    };
    input.once('error', (error) => {
      io.err(`${isTransformsError(error) ? error.code : 'LSP_FRAMING'}: ${error.message}\n`);
      stop(EXIT_INVALID);
    });
    connection.onExit(() => stop(EXIT_OK));
    // A client that stops reading standard output (a write fails with EPIPE) has ended the session
    // as one that closes standard input does: the input is ended, and the server exits 1, as the
    // protocol says of an exit without shutdown, rather than serve no one.
    process.stdout.once('error', () => input.end());
  });
}
