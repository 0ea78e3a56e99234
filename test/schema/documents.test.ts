// validateDocument / validateProfile: what a document is follows from its members; the
// transforms inside profiles are validated as nested definitions, findings pointing into the profile.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentKind, validateDocument, validateProfile } from '../../src/index.js';

const bundled = JSON.parse(readFileSync(new URL('../../fixtures/identity-profiles/default.json', import.meta.url), 'utf8')) as unknown;

describe('documentKind', () => {
  it.each([
    [{ type: 'lower', attributes: {} }, 'transform'],
    [{ name: 'x', attributes: {} }, 'transform'],
    [[1], 'transform'],
    [{ name: 'P', identityAttributeConfig: { attributeTransforms: [] } }, 'identity-profile'],
    [{ name: 'Account', usageType: 'CREATE', fields: [] }, 'create-profile'],
    [{ id: 'a', nativeIdentity: 'n' }, 'unknown'],
  ])('%j is a %s', (json, kind) => {
    expect(documentKind(json)).toBe(kind);
  });
});

describe('validateDocument', () => {
  it('accepts the bundled identity profile', () => {
    expect(validateDocument(bundled, { knownNames: [] })).toMatchObject({ kind: 'identity-profile' });
  });

  it('points a finding inside a profile at the profile', () => {
    const result = validateDocument({ identityAttributeConfig: { attributeTransforms: [{ identityAttributeName: 'a', transformDefinition: { type: 'nope' } }] } });
    expect(result.valid).toBe(false);
    expect(result.issues).toEqual([expect.objectContaining({ code: 'SCHEMA_ENUM', path: '/identityAttributeConfig/attributeTransforms/0/transformDefinition/type' })]);
  });

  it('reports the same attribute mapped twice', () => {
    const t = { type: 'lower', attributes: { input: 'x' } };
    const result = validateDocument({ identityAttributeConfig: { attributeTransforms: [{ identityAttributeName: 'a', transformDefinition: t }, { identityAttributeName: 'a', transformDefinition: t }] } });
    expect(result.issues.map((i) => [i.code, i.path])).toEqual([['VALIDATE_DUPLICATE_NAME', '/identityAttributeConfig/attributeTransforms/1/identityAttributeName']]);
  });

  it('reports an unknown document as VALIDATE_UNKNOWN_DOCUMENT', () => {
    expect(validateDocument({ id: 'a' }).issues.map((i) => i.code)).toEqual(['VALIDATE_UNKNOWN_DOCUMENT']);
  });
});

describe('validateProfile', () => {
  it('refuses a transform: it is not a profile', () => {
    const result = validateProfile({ name: 'x', type: 'lower', attributes: {} });
    expect(result.valid).toBe(false);
    expect(result.issues[0]).toMatchObject({ code: 'VALIDATE_UNKNOWN_DOCUMENT', path: '' });
    expect(result.issues[0]!.message).toContain('not an identity profile');
  });
});
