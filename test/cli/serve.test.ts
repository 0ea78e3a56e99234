// `identity-transforms serve --help`: every endpoint group of the three listeners, and the exit codes.

import { describe, expect, it } from 'vitest';
import { runCli as run } from './run.js';

describe('serve --help', () => {
  it('lists every endpoint group and the exit codes', async () => {
    const r = await run('serve', '--help');
    expect(r.code).toBe(0);
    for (const group of ['OAuth', 'OAuth clients', 'personal access', 'public identities', 'accounts', 'account activities', 'sources', 'transforms', 'identity profiles', 'identity preview', 'search', 'openapi.json', '/oauth/authorize', 'non-employee sources']) {
      expect(r.out).toContain(group);
    }
    expect(r.out).toMatch(/Exit codes: 0 stopped by SIGINT or SIGTERM.*; 1 the server failed;\n2 usage error/s);
  });
});
