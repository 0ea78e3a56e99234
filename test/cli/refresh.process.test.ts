// `identity-transforms refresh` as a process whose standard output is a pipe (src/cli/refresh.ts):
// when the reader goes away, as `head` does, the run stops quietly.

import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { built, CLI } from '../e2e/install.js';
import { cleanUp, generatedTenant } from '../refresh/tenants.js';

// The command as a user runs it: this checkout's build (test/e2e/install.ts).
beforeAll(built);
afterAll(cleanUp);

describe('identity-transforms refresh', () => {
  it('stops quietly, exit 0, when the reader of stdout goes away (refresh … | head)', async () => {
    const fixtures = generatedTenant(3000);
    const child = spawn(process.execPath, [CLI, 'refresh', '--fixtures', fixtures, '--workers', '0', '--batch-size', '64'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk) => (err += String(chunk)));
    // Read the first chunk, then close our end of the pipe.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(err).toContain('stopped early');
    expect(err).not.toContain('EPIPE');
  });
});
