// A transform checked against a tenant's names: every accountAttribute node, evaluated or not,
// whose attribute no account of its source carries is a warning naming the closest attribute.

import { describe, expect, it } from 'vitest';
import { checkAccountAttributeNames } from '../../src/engine/name-checks.js';
import { createMemoryProviders } from '../../src/providers/memory.js';
import { loadFixtures } from '../../src/providers/fixtures.js';
import { FIXTURES } from '../refresh/tenants.js';

const providers = createMemoryProviders(loadFixtures(FIXTURES));
const read = (sourceName: string, attributeName: string) => ({ type: 'accountAttribute', attributes: { sourceName, attributeName } });

describe('checkAccountAttributeNames', () => {
  it('warns of each unknown attribute with its pointer and the closest name', () => {
    const transform = { name: 't', type: 'conditional', attributes: { expression: '$a eq x', positiveCondition: 'y', negativeCondition: '$b', a: read('Workday', 'EMIAL'), b: read('Active Directory', 'mail') } };
    expect(checkAccountAttributeNames(transform, providers)).toEqual([
      {
        severity: 'warning',
        code: 'EVAL_UNKNOWN_ACCOUNT_ATTRIBUTE',
        path: '/attributes/a/attributes/attributeName',
        message: 'no account of source "Workday" carries "EMIAL": it reads as null; did you mean "EMAIL"?',
        suggestion: 'EMAIL',
      },
    ]);
  });

  it('says nothing of an unknown source (the evaluation reports it) or without names to check against', () => {
    expect(checkAccountAttributeNames(read('Nowhere', 'x'), providers)).toEqual([]);
    expect(checkAccountAttributeNames(read('Workday', 'EMIAL'), { sources: providers.sources })).toEqual([]);
  });
});
