// RFC 6902 JSON Patch: the json-patch-tests vectors (test/conformance/data/json-patch-tests),
// and our own table of the rules (atomicity, prototype paths, immutable fields, error codes).

import { describe, expect, it } from 'vitest';
import { isTransformsError } from '../../../src/errors/index.js';
import { applyPatch, jsonEqual } from '../../../src/api/patch/index.js';
import { readConformanceJson } from '../../conformance/data.js';


interface Vector {
  comment?: string;
  doc: unknown;
  patch: unknown;
  expected?: unknown;
  error?: string;
  disabled?: boolean;
}

function vectors(file: string): [string, Vector][] {
  const all = readConformanceJson<Vector[]>('json-patch-tests', file);
  return all.map((v, i) => [`${file} #${i} ${v.comment ?? v.error ?? ''}`.trim(), v] as [string, Vector]).filter(([, v]) => v.disabled !== true);
}

describe('json-patch-tests conformance', () => {
  const all = [...vectors('tests.json'), ...vectors('spec_tests.json')];

  it('finds the non-disabled vectors', () => {
    expect(all.length).toBeGreaterThan(100);
  });

  it.each(all)('%s', (_name, v) => {
    const before = JSON.stringify(v.doc);
    if (v.error !== undefined) {
      let thrown: unknown;
      try {
        applyPatch(v.doc, v.patch);
      } catch (err) {
        thrown = err;
      }
      expect(isTransformsError(thrown), 'an error vector must throw a coded error').toBe(true);
      expect((thrown as { status: number }).status).toBe(400);
    } else if ('expected' in v) {
      expect(applyPatch(v.doc, v.patch)).toEqual(v.expected);
    } else {
      expect(() => applyPatch(v.doc, v.patch)).not.toThrow();
    }
    // Atomic and pure: the input document is never mutated, whatever happens.
    expect(JSON.stringify(v.doc)).toBe(before);
  });
});

function refusal(fn: () => unknown): { operation: unknown; path: unknown; code: string; status: number } {
  try {
    fn();
  } catch (err) {
    if (!isTransformsError(err)) throw err;
    return { operation: err.details?.operation, path: err.path, code: err.code, status: err.status };
  }
  throw new Error('expected the patch to fail');
}

const SOURCE = { id: 's1', type: 'DelimitedFile', name: 'HR', features: ['ENABLE', 'PASSWORD'], owner: { type: 'IDENTITY', id: 'i1' }, connectorAttributes: { delimiter: ',' } };

describe('operations', () => {
  it.each([
    ['add a member', [{ op: 'add', path: '/description', value: 'x' }], { ...SOURCE, description: 'x' }],
    ['add inserts into an array at an index', [{ op: 'add', path: '/features/0', value: 'UNLOCK' }], { ...SOURCE, features: ['UNLOCK', 'ENABLE', 'PASSWORD'] }],
    ['add with - appends', [{ op: 'add', path: '/features/-', value: 'UNLOCK' }], { ...SOURCE, features: ['ENABLE', 'PASSWORD', 'UNLOCK'] }],
    ['remove an array element', [{ op: 'remove', path: '/features/0' }], { ...SOURCE, features: ['PASSWORD'] }],
    ['replace a whole array', [{ op: 'replace', path: '/features', value: [] }], { ...SOURCE, features: [] }],
    ['replace one array element', [{ op: 'replace', path: '/features/1', value: 'X' }], { ...SOURCE, features: ['ENABLE', 'X'] }],
    ['move a value', [{ op: 'move', from: '/connectorAttributes/delimiter', path: '/delimiter' }], { ...SOURCE, connectorAttributes: {}, delimiter: ',' }],
    ['copy a value', [{ op: 'copy', from: '/owner', path: '/managementWorkgroup' }], { ...SOURCE, managementWorkgroup: { type: 'IDENTITY', id: 'i1' } }],
    ['test then replace', [{ op: 'test', path: '/name', value: 'HR' }, { op: 'replace', path: '/name', value: 'HR 2' }], { ...SOURCE, name: 'HR 2' }],
    ['member order inside an operation does not matter', [{ value: 'd', path: '/description', op: 'add' }], { ...SOURCE, description: 'd' }],
    ['a value of null is a value', [{ op: 'add', path: '/cluster', value: null }], { ...SOURCE, cluster: null }],
    ['escaped tokens ~0 and ~1', [{ op: 'add', path: '/connectorAttributes/a~1b~0c', value: 1 }], { ...SOURCE, connectorAttributes: { delimiter: ',', 'a/b~c': 1 } }],
  ])('%s', (_name, patch, expected) => {
    expect(applyPatch(SOURCE, patch)).toEqual(expected);
  });

  it('replace keeps the member order of the document', () => {
    expect(Object.keys(applyPatch(SOURCE, [{ op: 'replace', path: '/type', value: 'x' }]))).toEqual(Object.keys(SOURCE));
  });

  it('copied values are independent of their origin', () => {
    const out = applyPatch(SOURCE, [{ op: 'copy', from: '/owner', path: '/o2' }, { op: 'replace', path: '/o2/id', value: 'z' }]) as typeof SOURCE & { o2: { id: string } };
    expect(out.owner.id).toBe('i1');
    expect(out.o2.id).toBe('z');
  });
});

describe('refusals carry a code, the operation index and the pointer', () => {
  it.each([
    ['the body is not an array', { op: 'add' }, 'PATCH_NOT_ARRAY', undefined],
    ['an unknown op', [{ op: 'spam', path: '/a' }], 'PATCH_OPERATION_INVALID', 0],
    ['an upper-case op', [{ op: 'ADD', path: '/a', value: 1 }], 'PATCH_OPERATION_INVALID', 0],
    ['add without value', [{ op: 'add', path: '/a' }], 'PATCH_OPERATION_INVALID', 0],
    ['move without from', [{ op: 'move', path: '/a' }], 'PATCH_OPERATION_INVALID', 0],
    ['a path without a leading slash', [{ op: 'add', path: 'a', value: 1 }], 'PATCH_POINTER_INVALID', 0],
    ['a bad ~ escape', [{ op: 'add', path: '/a~2', value: 1 }], 'PATCH_POINTER_INVALID', 0],
    ['remove of a missing member', [{ op: 'remove', path: '/nope' }], 'PATCH_PATH_MISSING', 0],
    ['replace of a missing member', [{ op: 'replace', path: '/nope', value: 1 }], 'PATCH_PATH_MISSING', 0],
    ['add below a missing object', [{ op: 'add', path: '/nope/x', value: 1 }], 'PATCH_PATH_MISSING', 0],
    ['move from a missing member', [{ op: 'move', from: '/nope', path: '/x' }], 'PATCH_FROM_MISSING', 0],
    ['copy from a missing member', [{ op: 'copy', from: '/nope', path: '/x' }], 'PATCH_FROM_MISSING', 0],
    ['an index past the end', [{ op: 'add', path: '/features/3', value: 'x' }], 'PATCH_INDEX_INVALID', 0],
    ['an index with a leading zero', [{ op: 'add', path: '/features/01', value: 'x' }], 'PATCH_INDEX_INVALID', 0],
    ['remove with -', [{ op: 'remove', path: '/features/-' }], 'PATCH_PATH_MISSING', 0],
    ['move into its own child', [{ op: 'move', from: '/owner', path: '/owner/x' }], 'PATCH_MOVE_INTO_CHILD', 0],
    ['a failing test', [{ op: 'test', path: '/name', value: 'hr' }], 'PATCH_TEST_FAILED', 0],
    ['the second operation fails', [{ op: 'replace', path: '/name', value: 'A' }, { op: 'remove', path: '/nope' }], 'PATCH_PATH_MISSING', 1],
    ['inherited members are not members', [{ op: 'remove', path: '/toString' }], 'PATCH_PATH_MISSING', 0],
  ])('%s → %s', (_name, patch, code, operation) => {
    const r = refusal(() => applyPatch(SOURCE, patch));
    expect(r.code).toBe(code);
    expect(r.status).toBe(400);
    expect(r.operation).toBe(operation);
  });

  it('is atomic: a late failure leaves the document as it was', () => {
    const doc = structuredClone(SOURCE);
    expect(() => applyPatch(doc, [{ op: 'replace', path: '/name', value: 'changed' }, { op: 'add', path: '/features/-', value: 'X' }, { op: 'test', path: '/id', value: 'other' }])).toThrow();
    expect(doc).toEqual(SOURCE);
  });
});

describe('paths that reach the prototype chain are refused', () => {
  it.each([
    [{ op: 'add', path: '/__proto__/polluted', value: true }],
    [{ op: 'add', path: '/constructor/prototype/polluted', value: true }],
    [{ op: 'replace', path: '/owner/__proto__', value: {} }],
    [{ op: 'copy', from: '/constructor', path: '/x' }],
    [{ op: 'move', from: '/owner', path: '/prototype' }],
    [{ op: 'test', path: '/__proto__', value: {} }],
  ])('%j', (op) => {
    expect(refusal(() => applyPatch(SOURCE, [op])).code).toBe('PATCH_POINTER_FORBIDDEN');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('immutable fields', () => {
  const immutable = ['/id', '/type', '/owner/id'];
  it.each([
    ['replace /id', [{ op: 'replace', path: '/id', value: 'x' }]],
    ['remove /type', [{ op: 'remove', path: '/type' }]],
    ['replace an ancestor of an immutable member', [{ op: 'replace', path: '/owner', value: {} }]],
    ['replace the whole document', [{ op: 'replace', path: '', value: {} }]],
    ['move away from an immutable member', [{ op: 'move', from: '/id', path: '/x' }]],
    ['copy onto an immutable member', [{ op: 'copy', from: '/name', path: '/id' }]],
    ['add below an immutable member', [{ op: 'add', path: '/type/x', value: 1 }]],
  ])('%s → PATCH_IMMUTABLE', (_name, patch) => {
    const r = refusal(() => applyPatch(SOURCE, patch, { immutable }));
    expect(r.code).toBe('PATCH_IMMUTABLE');
    expect(r.status).toBe(400);
  });

  it.each([
    ['test an immutable member', [{ op: 'test', path: '/id', value: 's1' }]],
    ['copy from an immutable member', [{ op: 'copy', from: '/id', path: '/legacyId' }]],
    ['change a sibling of an immutable member', [{ op: 'replace', path: '/owner/type', value: 'GOVERNANCE_GROUP' }]],
  ])('%s is allowed', (_name, patch) => {
    expect(() => applyPatch(SOURCE, patch, { immutable })).not.toThrow();
  });
});

describe('jsonEqual', () => {
  it.each([
    [{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, true],
    [[1, 2], [2, 1], false],
    [{ a: null }, {}, false],
    [1, 1.0, true],
    ['1', 1, false],
    [{}, [], false],
  ])('%j = %j is %s', (a, b, equal) => {
    expect(jsonEqual(a, b)).toBe(equal);
  });
});
