import { describe, expect, it } from 'vitest';
import { codedErrorOf, tenantEngine } from '../helpers.js';

const saved = [
  { name: 'Area', type: 'lookup', attributes: { table: { '512': 'Austin', default: 'Unknown' } } },
  { name: 'A', type: 'reference', attributes: { id: 'B' } },
  { name: 'B', type: 'reference', attributes: { id: 'A' } },
  { name: 'Broken', type: 'lookup', attributes: { table: {}, tabel: {} } },
  { name: 'Strict', type: 'lookup', attributes: { table: { a: 'A' } } },
  { name: 'Via Strict', type: 'reference', attributes: { id: 'Strict' } },
];
const engine = tenantEngine({}, saved);

describe('reference', () => {
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
  it('locates an evaluation error inside the referenced transform at the reference, its own pointer in details', () => {
    const error = codedErrorOf(() => engine.evaluateSync({ name: 'r', type: 'upper', attributes: { input: { type: 'reference', attributes: { id: 'Strict' } } } }, { input: 'x' }));
    expect(error.code).toBe('EVAL_LOOKUP_NO_MATCH');
    expect(error.path).toBe('/attributes/input/attributes/id');
    expect(error.message).toMatch(/^in referenced transform "Strict": /);
    expect(error.details).toMatchObject({ transform: 'Strict', transformPath: '/attributes/table' });
  });
  it('names every transform of a chain of references, outermost first', () => {
    const error = codedErrorOf(() => engine.evaluateSync({ name: 'r', type: 'reference', attributes: { id: 'Via Strict' } }, { input: 'x' }));
    expect(error.path).toBe('/attributes/id');
    expect(error.message).toMatch(/^in referenced transform "Via Strict": in referenced transform "Strict": /);
    expect(error.details).toMatchObject({ transform: 'Via Strict', transformPath: '/attributes/id' });
  });
});
