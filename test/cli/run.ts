// The command line run in-process as a user's shell would run it: argv in, exit code and the
// text written to stdout and stderr out.

import { main } from '../../src/cli/main.js';

export async function runCli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}
