// Which attributes cannot be compared, from the profile's transforms (docs/verify.md "Kinds"),
// through references, the most telling reason first.

import { describe, expect, it } from 'vitest';
import type { TransformDocument } from '../../src/providers/types.js';
import { reasonOf } from '../../src/verify/classify.js';

const saved: TransformDocument[] = [
  { name: 'Soon', type: 'dateMath', attributes: { expression: 'now+1d' } },
  { name: 'Fixed', type: 'dateMath', attributes: { expression: '+1d', input: '2026-01-01T00:00:00Z' } },
  { name: 'Wraps Soon', type: 'reference', attributes: { id: 'Soon' } },
  { name: 'Loop', type: 'reference', attributes: { id: 'Loop' } },
];
const find = (name: string) => saved.find((t) => t.name === name);
const reason = (definition: unknown, rules: string[] = []) => reasonOf(definition, find, new Set(rules));

describe('reasonOf', () => {
  it.each([
    ['dateMath from now', { type: 'dateMath', attributes: { expression: 'now-5d/d' } }, 'time'],
    ['dateMath from an input', { type: 'reference', attributes: { id: 'Fixed' } }, null],
    ['dateCompare with now', { type: 'dateCompare', attributes: { firstDate: 'now', secondDate: { type: 'static', attributes: { value: 'x' } }, operator: 'LT', positiveCondition: 'a', negativeCondition: 'b' } }, 'time'],
    ['a reference to a reference to now', { type: 'reference', attributes: { id: 'Wraps Soon' } }, 'time'],
    ['uuid', { type: 'uuid' }, 'random'],
    ['randomNumeric inside concat', { type: 'concat', attributes: { values: ['a', { type: 'randomNumeric', attributes: { length: 4 } }] } }, 'random'],
    ['generateRandomString', { type: 'rule', attributes: { name: 'Cloud Services Deployment Utility', operation: 'generateRandomString', length: 8 } }, 'random'],
    ['getReferenceIdentityAttribute', { type: 'rule', attributes: { name: 'Cloud Services Deployment Utility', operation: 'getReferenceIdentityAttribute', uid: 'manager', attributeName: 'email' } }, null],
    ['usernameGenerator', { type: 'usernameGenerator', attributes: { patterns: ['$a'] } }, 'unique'],
    ['a rule not registered, beside the clock', { type: 'firstValid', attributes: { values: [{ type: 'rule', attributes: { name: 'Mine' } }, { type: 'reference', attributes: { id: 'Soon' } }] } }, 'rule'],
    ['a reference cycle', { type: 'reference', attributes: { id: 'Loop' } }, null],
  ])('%s', (_, definition, expected) => {
    expect(reason(definition)).toBe(expected);
  });

  it('compares an attribute whose rule is registered', () => {
    expect(reason({ type: 'rule', attributes: { name: 'Mine' } }, ['Mine'])).toBeNull();
  });
});
