// The executable's body: run the CLI with this process's arguments and set the exit code (0 ok,
// 1 invalid or failed, 2 usage). bin/identity-transforms.js (the package's "bin") imports the
// compiled copy; tests spawn this file through tsx. Importing it is running it, so nothing has to
// guess whether it is the main module.
import { EXIT_INVALID } from './io.js';
import { main } from './main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = EXIT_INVALID;
  },
);
