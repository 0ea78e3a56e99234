// One reader and one set of checks for fixture directories: records need their string members
// (pinned by code, pointer and file:line:column), a missing file is an empty collection, and an
// identity profile needs what evaluation reads of it.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFixtureRecord, checkIdentityProfile, loadFixtures } from '../../src/providers/fixtures.js';
import { isTransformsError } from '../../src/errors/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tenant(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'fixtures-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}
function errorOf(f: () => unknown) {
  try {
    f();
  } catch (error) {
    if (isTransformsError(error)) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('checkFixtureRecord', () => {
  it.each([
    ['sources', { id: 's', name: 'S' }, null],
    ['sources', { id: 's' }, { pointer: '/3', message: 'element 3 of the array needs a string "name"' }],
    ['identities', { id: 1, name: 'n' }, { pointer: '/3/id', message: 'element 3 of the array needs a string "id"' }],
    ['accounts', { id: 'a', identityId: 'i' }, { pointer: '/3', message: 'element 3 of the array needs a string "sourceId"' }],
    ['accounts', [], { pointer: '/3', message: 'element 3 of the array must be an object' }],
  ] as const)('%s %j', (kind, item, problem) => {
    expect(checkFixtureRecord(kind, item, 3)).toEqual(problem);
  });
});

describe('loadFixtures', () => {
  it('reads every part, gives records without attributes an empty object, and takes a missing file as empty', () => {
    const dir = tenant({
      'identities.json': '[{"id":"i1","name":"one"}]',
      'transforms/b.json': '{"name":"B","type":"static","attributes":{"value":"b"}}',
      'transforms/a.json': '{"name":"A","type":"static","attributes":{"value":"a"}}',
    });
    const fixtures = loadFixtures(dir);
    expect(fixtures.identities).toEqual([{ id: 'i1', name: 'one', attributes: {} }]);
    expect(fixtures.accounts).toEqual([]);
    expect(fixtures.sources).toEqual([]);
    expect(fixtures.transforms.map((t) => t.name)).toEqual(['A', 'B']);
    expect(fixtures.profiles).toEqual([]);
  });

  it('locates a record without its string members at file:line:column', () => {
    const dir = tenant({ 'accounts.json': '[\n  {"id":"a","identityId":"i","sourceId":7}\n]' });
    const error = errorOf(() => loadFixtures(dir));
    expect(error.code).toBe('CLI_FIXTURES');
    expect(error.path).toBe('/0/sourceId');
    expect(error.message).toBe(`${join(dir, 'accounts.json')}:2:30: element 0 of the array needs a string "sourceId"`);
  });

  it('rejects a file that is not an array, and a missing directory', () => {
    expect(errorOf(() => loadFixtures(tenant({ 'sources.json': '{}' }))).code).toBe('CLI_FIXTURES');
    expect(errorOf(() => loadFixtures(join(tmpdir(), 'no-such-fixtures-dir'))).code).toBe('CLI_FIXTURES');
  });
});

describe('checkIdentityProfile', () => {
  const mapping = { identityAttributeName: 'x', transformDefinition: { type: 'static', attributes: { value: '1' } } };
  it.each([
    ['a profile', { name: 'P', identityAttributeConfig: { attributeTransforms: [mapping] } }, null],
    ['not an object', [], { pointer: '', message: 'an identity profile must be a JSON object' }],
    ['no config', { name: 'P' }, { pointer: '/identityAttributeConfig', message: 'needs an "identityAttributeConfig" object' }],
    ['no mappings', { identityAttributeConfig: {} }, { pointer: '/identityAttributeConfig/attributeTransforms', message: 'needs an "attributeTransforms" array' }],
    ['a mapping without a name', { identityAttributeConfig: { attributeTransforms: [mapping, { ...mapping, identityAttributeName: '' }] } }, { pointer: '/identityAttributeConfig/attributeTransforms/1/identityAttributeName', message: 'mapping 1 needs an "identityAttributeName"' }],
    ['a mapping without a definition', { identityAttributeConfig: { attributeTransforms: [{ identityAttributeName: 'x', transformDefinition: 'static' }] } }, { pointer: '/identityAttributeConfig/attributeTransforms/0/transformDefinition', message: 'mapping 0 needs a "transformDefinition" object' }],
  ])('%s', (_label, profile, problem) => {
    expect(checkIdentityProfile(profile)).toEqual(problem);
  });
});
