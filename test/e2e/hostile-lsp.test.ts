// The installed language server (`identity-transforms lsp --stdio`) under a client that breaks the
// protocol's framing: a Content-Length that lies by gigabytes and a header without end each end the
// server with LSP_FRAMING on standard error and exit 1, its memory never holding the bytes sent.

import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { installed, type Installed } from './install.js';

let pkg: Installed;
beforeAll(async () => {
  pkg = await installed();
}, 30 * 60_000);

/** Runs the server, writes `input` (then 1 MB chunks of `then` while it accepts them), and gives its exit and standard error. */
function serve(input: string, then: number): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(pkg.bin, ['lsp', '--stdio'], { env: pkg.env, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdin.on('error', () => undefined);
    child.on('exit', (code) => resolve({ code, err }));
    child.stdin.write(input);
    const chunk = Buffer.alloc(1 << 20, 'a');
    let sent = 0;
    const more = () => {
      while (sent < then && child.stdin.writable && child.stdin.write(chunk)) sent++;
      if (sent < then && child.stdin.writable) child.stdin.once('drain', more);
    };
    more();
  });
}

describe('lsp --stdio against a client that breaks the framing', () => {
  it('ends with LSP_FRAMING when a Content-Length lies by gigabytes', async () => {
    expect(await serve('Content-Length: 2000000000\r\n\r\n', 256)).toEqual({ code: 1, err: 'LSP_FRAMING: a message of 2000000000 bytes is above the limit of 67108864 bytes (64 MB)\n' });
  });

  it('ends with LSP_FRAMING when a header has no end', async () => {
    expect(await serve('Content-Length: 10\r\nX-Padding: ', 256)).toEqual({ code: 1, err: "LSP_FRAMING: a message's header is above the limit of 8192 bytes without its end (an empty line)\n" });
  });
});
