// `identity-transforms gen-tenant`: its usage errors are coded and in its own words, also for a
// value node:util's parser would call "ambiguous" (a number with a minus sign).

import { describe, expect, it } from 'vitest';
import { runCli as run } from './run.js';

describe('gen-tenant usage errors', () => {
  it.each([
    [['--identities', '-5', '--out', 'x'], 'CLI_USAGE --identities must be a positive integer, got "-5"\n'],
    [['--identities=-5', '--out', 'x'], 'CLI_USAGE --identities must be a positive integer, got "-5"\n'],
    [['--identities', '0', '--out', 'x'], 'CLI_USAGE --identities must be between 1 and 10000000, got 0\n'],
    [['--identites', '5', '--out', 'x'], 'CLI_USAGE unknown option --identites; did you mean --identities? (see identity-transforms gen-tenant --help)\n'],
  ])('%j', async (argv, err) => {
    const r = await run('gen-tenant', ...argv);
    expect(r.code).toBe(2);
    expect(r.err).toBe(err);
  });
});
