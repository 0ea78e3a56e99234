import { describe, expect, it } from 'vitest';
import { IDENTITIES, codedErrorOf, tenantEngine } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = tenantEngine();
const john = IDENTITIES[0]!;
const concat = (values: unknown) => ({ name: 'c', type: 'concat', attributes: { values } });
const hr = (attributeName: string) => ({ type: 'accountAttribute', attributes: { sourceName: 'HR Source', attributeName } });

describe('concat', () => {
  it('joins the values in order without a separator (concatenation#0, overview:concat)', () => {
    expect(engine.evaluateSync(concat(['John', ' ', 'Smith']))).toBe('John Smith');
    expect(engine.evaluateSync(concat(['Foo', 'Bar']))).toBe('FooBar');
  });

  it('evaluates nested transforms (concatenation#2 shape)', () => {
    expect(engine.evaluateSync(concat([hr('FirstName'), ' (', hr('department'), ')']), { identity: john })).toBe('John (Engineering)');
  });

  it('decision O5: a null value contributes nothing (observed on a tenant)', () => {
    expect(engine.evaluateSync(concat(['a', hr('missing'), 'b']), { identity: john })).toBe('ab');
  });

  it('renders numbers and booleans as Java would', () => {
    expect(engine.evaluateSync(concat([1, true, 2.5]))).toBe('1true2.5');
  });

  it('an empty list gives ""', () => {
    expect(engine.evaluateSync(concat([]))).toBe('');
  });

  it('requires values', () => {
    const error = codedErrorOf(() => engine.compile({ name: 'c', type: 'concat', attributes: {} }));
    expect(error.code).toBe('SCHEMA_REQUIRED');
    expect(error.path).toBe('/attributes/values');
  });

  returnsValueOrCodedError('concat', ['values']);
});
