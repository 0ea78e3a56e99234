// What the property suite shares: the bundled fixture tenant, and outcomes in a form that
// compares by value (a coded error by its code, path and message, never by identity).

import { join } from 'node:path';
import { loadFixtures } from '../../src/providers/fixtures.js';
import type { Outcome } from '../../src/testing/sample-engine.js';

export const fixtures = loadFixtures(join(import.meta.dirname, '../../fixtures'));

export function comparable(outcome: Outcome): unknown {
  return outcome.kind === 'value'
    ? { value: outcome.value }
    : { phase: outcome.phase, code: outcome.error.code, path: outcome.error.path, message: outcome.error.message };
}
