// Schema findings name what was meant: an unknown transform type or key suggests the closest
// known one, and a misspelt required key is one finding (the unknown key's code), not two.

import { describe, expect, it } from 'vitest';
import { validateDocument, validateTransform } from '../../src/engine/validate.js';

describe('did you mean, in schema findings', () => {
  it('suggests the transform type an unknown one is a typo of', () => {
    expect(validateTransform({ name: 't', type: 'firstvalid', attributes: { values: ['a'] } }).issues).toEqual([
      { severity: 'error', code: 'SCHEMA_ENUM', path: '/type', message: 'unknown transform type "firstvalid"; did you mean "firstValid"?', suggestion: 'firstValid' },
    ]);
  });

  it('suggests nothing for a type too far from any', () => {
    expect(validateTransform({ name: 't', type: 'shout' }).issues).toEqual([{ severity: 'error', code: 'SCHEMA_ENUM', path: '/type', message: 'unknown transform type "shout"' }]);
  });

  it('suggests nested types too', () => {
    const issues = validateTransform({ name: 't', type: 'upper', attributes: { input: { type: 'accountAtribute', attributes: {} } } }).issues;
    expect(issues).toEqual([expect.objectContaining({ code: 'SCHEMA_ENUM', path: '/attributes/input/type', suggestion: 'accountAttribute' })]);
  });

  it('makes a misspelt required attribute one finding naming the key, with the unknown key\'s code', () => {
    const issues = validateTransform({ name: 't', type: 'accountAttribute', attributes: { sourceName: 'HR', atributeName: 'email' } }).issues;
    expect(issues).toEqual([
      {
        severity: 'error',
        code: 'SCHEMA_UNKNOWN_PROPERTY',
        path: '/attributes/atributeName',
        message: 'unknown attribute "atributeName"; did you mean "attributeName"? (it is required)',
        suggestion: 'attributeName',
      },
    ]);
  });

  it('keeps the required finding when the unknown key is not close to it', () => {
    const codes = validateTransform({ name: 't', type: 'accountAttribute', attributes: { sourceName: 'HR', colour: 'red' } }).issues.map((i) => i.code).sort();
    expect(codes).toEqual(['SCHEMA_REQUIRED', 'SCHEMA_UNKNOWN_PROPERTY']);
  });

  it('suggests an optional attribute the operation has and the node does not', () => {
    const issues = validateTransform({ name: 't', type: 'accountAttribute', attributes: { sourceName: 'HR', attributeName: 'x', accountSortAtribute: 'created' } }).issues;
    expect(issues).toEqual([expect.objectContaining({ code: 'SCHEMA_UNKNOWN_PROPERTY', message: 'unknown attribute "accountSortAtribute"; did you mean "accountSortAttribute"?', suggestion: 'accountSortAttribute' })]);
  });

  it('suggests a transform\'s own keys (name, attributes)', () => {
    const issues = validateTransform({ nmae: 't', type: 'upper', atributes: { input: 'a' } }).issues;
    expect(issues.map((i) => [i.code, i.path, i.suggestion])).toEqual([
      ['SCHEMA_UNKNOWN_PROPERTY', '/nmae', 'name'],
      ['SCHEMA_UNKNOWN_PROPERTY', '/atributes', 'attributes'],
    ]);
  });

  it('points the suggestion into an identity profile\'s mapping', () => {
    const profile = { name: 'p', identityAttributeConfig: { attributeTransforms: [{ identityAttributeName: 'email', transformDefinition: { type: 'lowr', attributes: {} } }] } };
    expect(validateDocument(profile).issues).toEqual([
      expect.objectContaining({ code: 'SCHEMA_ENUM', path: '/identityAttributeConfig/attributeTransforms/0/transformDefinition/type', suggestion: 'lower' }),
    ]);
  });
});
