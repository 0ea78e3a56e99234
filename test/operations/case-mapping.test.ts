// upper and lower (src/operations/upper.ts, src/operations/lower.ts): Java String.toUpperCase /
// toLowerCase in the root locale, one table for both — each row is a statement of the spec.

import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine();
const CASES = ['upper', 'lower'] as const;
type Case = (typeof CASES)[number];
const map = (type: Case, attributes: Record<string, unknown> = {}) => ({ name: type[0]!, type, attributes });
const stat = (value: string) => ({ type: 'static', attributes: { value } });

/** [operation, statement, attributes, implicit input (none when undefined), value] */
const ROWS: [Case, string, Record<string, unknown>, string | undefined, string][] = [
  ['upper', 'upper#2', { input: stat('inactive') }, undefined, 'INACTIVE'],
  ['upper', 'upper#3', { input: stat('Everyone') }, undefined, 'EVERYONE'],
  ['upper', 'the root locale maps ß to SS', { input: stat('straße') }, undefined, 'STRASSE'],
  ['upper', 'the root locale has no Turkish dotted İ', { input: stat('istanbul') }, undefined, 'ISTANBUL'],
  ['lower', 'lower#2', { input: stat('ACTIVE') }, undefined, 'active'],
  ['lower', 'lower#3', { input: stat('All-Access') }, undefined, 'all-access'],
  ['lower', 'overview:lower — the implicit input', {}, 'Foo', 'foo'],
  ['lower', 'overview:nested-lower-concat', { input: { type: 'concat', attributes: { values: ['Foo', 'Bar'] } } }, undefined, 'foobar'],
  ['lower', 'the root locale maps İ to i and a combining dot, as Java', {}, 'İSTANBUL', 'i̇stanbul'],
  ['lower', 'a word-final Σ becomes the final sigma ς, as Java', {}, 'ΟΔΟΣ', 'οδος'],
];

describe('upper and lower (Java case mapping in the root locale)', () => {
  it.each(ROWS)('%s: %s', (type, _statement, attributes, input, expected) => {
    expect(engine.evaluateSync(map(type, attributes), input === undefined ? {} : { input })).toBe(expected);
  });

  it.each(CASES)('%s: null stays null', (type) => {
    expect(engine.evaluateSync(map(type), { input: null })).toBeNull();
  });

  it('upper: numbers use their text', () => {
    expect(engine.evaluateSync(map('upper'), { input: 12 })).toBe('12');
  });

  for (const type of CASES) returnsValueOrCodedError(type, ['input']);
});
