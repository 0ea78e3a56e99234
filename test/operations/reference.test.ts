import { describe, expect, it } from 'vitest';
import { codedErrorOf, tenantEngine } from '../helpers.js';

const saved = [
  { name: 'Area', type: 'lookup', attributes: { table: { '512': 'Austin', default: 'Unknown' } } },
  { name: 'A', type: 'reference', attributes: { id: 'B' } },
  { name: 'B', type: 'reference', attributes: { id: 'A' } },
  { name: 'Broken', type: 'lookup', attributes: { table: {}, tabel: {} } },
];
const engine = tenantEngine({}, saved);

describe('reference (reference §4)', () => {
  it('evaluates the transform named by id with this input as its implicit input', () => {
    expect(engine.evaluateSync({ name: 'r', type: 'reference', attributes: { id: 'Area' } }, { input: '512' })).toBe('Austin');
    expect(engine.evaluateSync({ name: 'r', type: 'reference', attributes: { id: 'Area', input: '999' } }, { input: '512' })).toBe('Unknown');
  });
  it('reports an unknown name', () => {
    const error = codedErrorOf(() => engine.evaluateSync({ name: 'r', type: 'reference', attributes: { id: 'Nope' } }));
    expect(error.code).toBe('EVAL_UNKNOWN_REFERENCE');
    expect(error.path).toBe('/attributes/id');
  });
  it('detects cycles', () => {
    expect(codedErrorOf(() => engine.evaluateSync({ name: 'r', type: 'reference', attributes: { id: 'A' } })).code).toBe('EVAL_REFERENCE_CYCLE');
  });
  it('reports an invalid referenced transform with its own pointer in details', () => {
    const error = codedErrorOf(() => engine.evaluateSync({ name: 'r', type: 'reference', attributes: { id: 'Broken' } }));
    expect(error.code).toBe('SCHEMA_UNKNOWN_PROPERTY');
    expect(error.details).toMatchObject({ transform: 'Broken', transformPath: '/attributes/tabel' });
  });
});
