// Regression cases from `verify --cases` (docs/verify.md "Cases"): every case file under
// data/verify-cases runs each of its cases on its own inputs at its time. A case `fixed` must
// compute the platform's value (the difference it reported is gone and stays gone); a case
// `open` must still compute ours, so that a case reduced from a user's tenant keeps showing the
// difference it was sent for until the engine is fixed and the case marked fixed.

import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CASE_FORMAT, CASE_VERSION, runCase, type CaseFile } from '../../src/verify/index.js';
import { conformancePath, readConformanceJson } from './data.js';

const files = readdirSync(conformancePath('verify-cases')).filter((f) => f.endsWith('.json')).sort();

describe('verify cases', () => {
  it('has case files to run', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  describe.each(files)('%s', (file) => {
    const cases = readConformanceJson<CaseFile>('verify-cases', file);

    it('is a verify case file this version reads', () => {
      expect({ format: cases.format, version: cases.version }).toEqual({ format: CASE_FORMAT, version: CASE_VERSION });
      expect(cases.cases.length).toBeGreaterThan(0);
    });

    it.each(cases.cases.map((c) => [c.id, c] as const))('%s', async (_, c) => {
      expect(await runCase(c, cases.now)).toBe(c.status === 'fixed' ? c.platform : c.ours);
    });
  });
});
