// arbitraryTransform: every generated transform passes validateTransform, at every
// depth and shape; every registered type is drawn; each curated value is valid in its slot.

import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TransformsError } from '../../src/errors/index.js';
import { builtinOperations } from '../../src/operations/index.js';
import { loadFixtures } from '../../src/providers/fixtures.js';
import { validateTransform } from '../../src/engine/validate.js';
import {
  ACCOUNT_FILTERS,
  CONDITIONAL_EXPRESSIONS,
  DATE_FORMATS,
  DATE_OPERANDS,
  PHONE_REGIONS,
  REGEX_REPLACEMENTS,
  SPLIT_DELIMITERS,
  TEMPLATES,
  USERNAME_COUNTER_PATTERNS,
  USERNAME_PATTERNS,
} from '../../src/testing/curated.js';
import { arbitraryTransform } from '../../src/testing/transforms.js';

const fixtures = loadFixtures(join(import.meta.dirname, '../../fixtures'));

function errors(transform: unknown, definition = false): string[] {
  return validateTransform(transform, { definition }).issues.filter((i) => i.severity === 'error').map((i) => `${i.code} ${i.path} ${i.message}`);
}

/** Every transform node below a document. */
function types(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) types(v, out);
  else if (value !== null && typeof value === 'object') {
    const type = (value as { type?: unknown }).type;
    if (typeof type === 'string') out.add(type);
    for (const v of Object.values(value)) types(v, out);
  }
  return out;
}

describe('arbitraryTransform', () => {
  it('gives transforms validateTransform accepts (fixture shape, nested three deep)', () => {
    fc.assert(
      fc.property(arbitraryTransform({ shape: fixtures, maxDepth: 3 }), (t) => {
        expect(errors(t)).toEqual([]);
      }),
      { numRuns: 800 },
    );
  });

  it('gives valid transforms with the default shape, and literals only at depth 0', () => {
    fc.assert(fc.property(arbitraryTransform(), (t) => errors(t).length === 0), { numRuns: 300 });
    fc.assert(
      fc.property(arbitraryTransform({ maxDepth: 0 }), (t) => {
        expect(errors(t)).toEqual([]);
        expect(types(t.attributes).size).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('draws every registered type, at the root and nested', () => {
    const samples = fc.sample(arbitraryTransform({ shape: fixtures }), { numRuns: 1500, seed: 9 });
    const all = builtinOperations.map((s) => s.type).sort();
    expect([...new Set(samples.map((t) => t.type))].sort()).toEqual(all);
    const nested = new Set<string>();
    for (const t of samples) types(t.attributes, nested);
    expect([...nested].sort()).toEqual(all);
  });

  it('restricts the types when asked, and gives unnamed definitions with named: false', () => {
    fc.assert(
      fc.property(arbitraryTransform({ types: ['lower', 'concat'], named: false }), (t) => {
        expect(t.name).toBeUndefined();
        expect([...types(t)].every((type) => type === 'lower' || type === 'concat')).toBe(true);
        expect(errors(t, true)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('references the fixture’s transforms by name', () => {
    const names = new Set(fixtures.transforms.map((t) => t.name));
    fc.assert(
      fc.property(arbitraryTransform({ shape: fixtures, types: ['reference'] }), (t) => names.has((t.attributes as { id: string }).id)),
      { numRuns: 50 },
    );
  });

  it('rejects a type the registry does not have with a coded error', () => {
    expect(() => arbitraryTransform({ types: ['nope'] })).toThrow(TransformsError);
  });
});

describe('curated values', () => {
  const valid = (transform: Record<string, unknown>) => expect(errors({ name: 'curated', ...transform })).toEqual([]);

  it.each(REGEX_REPLACEMENTS)('replace %j → %j compiles', (regex, replacement) => valid({ type: 'replace', attributes: { regex, replacement } }));
  it.each(SPLIT_DELIMITERS)('split delimiter %j compiles', (delimiter) => valid({ type: 'split', attributes: { delimiter, index: 0 } }));
  it.each(TEMPLATES)('static template %j compiles', (value) => valid({ type: 'static', attributes: { value, a: 'A', b: 'B' } }));
  it.each(CONDITIONAL_EXPRESSIONS)('conditional expression %j compiles', (expression) =>
    valid({ type: 'conditional', attributes: { expression, positiveCondition: 'p', negativeCondition: 'n', a: 'A', b: 'B' } }));
  it.each([...USERNAME_PATTERNS, ...USERNAME_COUNTER_PATTERNS])('usernameGenerator pattern %j compiles (last)', (pattern) =>
    valid({ type: 'usernameGenerator', attributes: { patterns: [pattern], fn: 'a', ln: 'b', fi: 'c' } }));
  it.each(DATE_FORMATS)('date format %j compiles', (format) => valid({ type: 'dateFormat', attributes: { inputFormat: format, outputFormat: format } }));
  it.each(DATE_OPERANDS)('dateCompare operand %j is accepted', (date) =>
    valid({ type: 'dateCompare', attributes: { firstDate: date, secondDate: 'now', operator: 'LT', positiveCondition: 'y', negativeCondition: 'n' } }));
  it.each(ACCOUNT_FILTERS)('accountFilter %j compiles', (accountFilter) =>
    valid({ type: 'accountAttribute', attributes: { sourceName: 'Okta', attributeName: 'login', accountFilter } }));
  it.each(PHONE_REGIONS)('e164phone region %j is known', (defaultRegion) => valid({ type: 'e164phone', attributes: { defaultRegion } }));
});
