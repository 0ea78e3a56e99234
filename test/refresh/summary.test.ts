// The readable end-of-run summary of a refresh (src/refresh/summary.ts): the profile's name and the
// fixtures' directory come from the user's files and print escaped, one line each.

import { describe, expect, it } from 'vitest';
import { formatSummary, type RefreshSummary } from '../../src/refresh/summary.js';

const summary: RefreshSummary = {
  profile: 'Employees\u001b[2J',
  fixtures: '/tmp/tenant\n  identities   0',
  shard: null,
  workers: 0,
  batchSize: 1,
  tenantIdentities: 1,
  identities: 1,
  complete: true,
  identitiesWithErrors: 0,
  attributes: 1,
  errors: 0,
  errorsByCode: {},
  accounts: 0,
  accountsIndex: 'merge',
  managers: 0,
  elapsedMs: 1,
  identitiesPerSecond: 1,
  caches: {},
  peakRssBytes: 0,
};

describe('formatSummary', () => {
  it('shows the profile and the fixtures with their control characters escaped, on the first line', () => {
    const text = formatSummary(summary);
    expect(text.split('\n')[0]).toBe('Identity refresh of /tmp/tenant\\n  identities   0 with profile "Employees\\u001b[2J"');
    expect(text.split('\n').filter((l) => l.startsWith('  identities'))).toHaveLength(1);
  });
});
