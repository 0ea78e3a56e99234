#!/usr/bin/env node
// The installed command (package.json "bin"): runs the CLI of the compiled package with the
// process arguments (dist/cli/run.js calls main and sets the exit code: 0 ok, 1 invalid or
// failed, 2 usage).
import '../dist/cli/run.js';
