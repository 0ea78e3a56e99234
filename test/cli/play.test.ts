// `identity-transforms play`: its usage errors, in process. The command serving its page is the
// browser test's (test/e2e/play-browser.test.ts), run from the installed package.

import { describe, expect, it } from 'vitest';
import { runCli } from './run.js';

describe('identity-transforms play', () => {
  it('says what it does, and that it serves on loopback', async () => {
    const { code, out } = await runCli('play', '--help');
    expect(code).toBe(0);
    expect(out).toContain('Serve the playground on 127.0.0.1');
    expect((await runCli('--help')).out).toContain('play --fixtures <dir>');
  });

  it.each([
    [['play'], 'play needs --fixtures <dir>'],
    [['play', '--fixtures', 'no/such/dir'], '--fixtures no/such/dir is not a directory'],
    [['play', '--fixtures', 'fixtures', 'extra'], 'play takes no arguments (got "extra")'],
    [['play', '--fixtures', 'fixtures', '--port', '70000'], '--port must be an integer from 0 to 65535'],
    [['play', '--fixture', 'fixtures'], 'did you mean --fixtures?'],
    [['play', '--fixtures', 'fixtures', '--impact-time', '0'], '--impact-time must be an integer from 1 to 86400'],
    [['play', '--fixtures', 'fixtures', '--impact-memory', '1e9'], '--impact-memory must be an integer from 64 to 65536'],
  ])('%j: CLI_USAGE, exit 2', async (argv, message) => {
    const { code, err } = await runCli(...argv);
    expect(code).toBe(2);
    expect(err).toContain('CLI_USAGE');
    expect(err).toContain(message);
  });
});
