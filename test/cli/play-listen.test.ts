// `identity-transforms play --port <n>` on a port something else holds: the coded CLI_LISTEN
// naming the flag, exit 2 — not an internal error.

import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli } from './run.js';

describe('identity-transforms play --port', () => {
  it('a port in use: CLI_LISTEN naming --port, exit 2', async () => {
    const holder = createServer();
    await new Promise<void>((listening) => holder.listen(0, '127.0.0.1', listening));
    const port = (holder.address() as { port: number }).port;
    try {
      const { code, err } = await runCli('play', '--fixtures', 'fixtures', '--port', String(port));
      expect(code).toBe(2);
      expect(err).toContain(`CLI_LISTEN port ${port} on 127.0.0.1 is already in use (--port)`);
    } finally {
      holder.close();
    }
  });
});
