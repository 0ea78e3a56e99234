import { describe, expect, it } from 'vitest';
import { IDENTITIES, codedErrorOf, tenantEngine } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = tenantEngine();
const john = IDENTITIES[0]!; // HR department: Engineering
const jane = IDENTITIES[1]!; // HR department: Sales
const cond = (attributes: Record<string, unknown>) => ({ name: 'c', type: 'conditional', attributes });
const department = { type: 'accountAttribute', attributes: { sourceName: 'HR Source', attributeName: 'department' } };
const building = (value: string) => ({ type: 'static', attributes: { value } });

describe('conditional', () => {
  it('conditional#0: a constant expression', () => {
    expect(engine.evaluateSync(cond({ expression: 'foo eq foo', positiveCondition: 'true', negativeCondition: 'false' }))).toBe('true');
    expect(engine.evaluateSync(cond({ expression: 'foo eq bar', positiveCondition: 'true', negativeCondition: 'false' }))).toBe('false');
  });

  // conditional#2: "$department eq Engineering" with department from the HR source
  it.each([
    [john, 'true'],
    [jane, 'false'],
  ])('conditional#2 shape: the dynamic variable decides (%#)', (identity, expected) => {
    const t = cond({ expression: '$department eq Engineering', positiveCondition: 'true', negativeCondition: 'false', department });
    expect(engine.evaluateSync(t, { identity })).toBe(expected);
  });

  // conditional#3: the conditions are themselves dynamic variables
  it.each([
    [john, 'Building S'],
    [jane, 'Building A'],
  ])('conditional#3 shape: $scienceBuilding / $adminBuilding (%#)', (identity, expected) => {
    const t = cond({
      expression: '$department eq Engineering',
      positiveCondition: '$scienceBuilding',
      negativeCondition: '$adminBuilding',
      department,
      scienceBuilding: building('Building S'),
      adminBuilding: building('Building A'),
    });
    expect(engine.evaluateSync(t, { identity })).toBe(expected);
  });

  it('compares case-sensitively (the docs: "engineering" is not "Engineering")', () => {
    const t = cond({ expression: '$department eq engineering', positiveCondition: 'yes', negativeCondition: 'no', department });
    expect(engine.evaluateSync(t, { identity: john })).toBe('no');
  });

  it('a null operand is IllegalArgumentException (the docs)', () => {
    const missing = { type: 'accountAttribute', attributes: { sourceName: 'HR Source', attributeName: 'nothing' } };
    const error = codedErrorOf(() =>
      engine.evaluateSync(cond({ expression: '$x eq y', positiveCondition: 'a', negativeCondition: 'b', x: missing }), { identity: john }),
    );
    expect(error.code).toBe('EVAL_ILLEGAL_ARGUMENT');
    expect(error.path).toBe('/attributes/x');
  });

  it('an expression without eq is rejected at compile time (constant) or IllegalArgumentException (computed)', () => {
    expect(codedErrorOf(() => engine.compile(cond({ expression: 'foo ne bar', positiveCondition: 'a', negativeCondition: 'b' }))).code).toBe(
      'COMPILE_INVALID_ATTRIBUTE',
    );
    const t = cond({ expression: '$department', positiveCondition: 'a', negativeCondition: 'b', department });
    const error = codedErrorOf(() => engine.evaluateSync(t, { identity: john }));
    expect(error.code).toBe('EVAL_ILLEGAL_ARGUMENT');
    expect(error.path).toBe('/attributes/expression');
  });

  it('evaluates only the chosen condition', () => {
    const failing = { type: 'lookup', attributes: { table: { x: 'y' } } };
    expect(engine.evaluateSync(cond({ expression: 'a eq a', positiveCondition: 'ok', negativeCondition: failing }), { input: 'zz' })).toBe('ok');
  });

  returnsValueOrCodedError('conditional', ['expression', 'positiveCondition', 'negativeCondition', 'x']);
});
