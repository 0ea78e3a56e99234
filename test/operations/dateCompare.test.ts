import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { createMemoryProviders } from '../../src/providers/memory.js';
import type { Identity } from '../../src/providers/types.js';
import { account, codedErrorOf } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const now = new Date('2024-01-15T12:00:00Z');
function tenant(attributes: Record<string, unknown>) {
  const identity: Identity = { id: 'i', name: 'i', attributes: {} };
  const providers = createMemoryProviders({
    sources: [{ id: 'hr', name: 'HR Source' }],
    identities: [identity],
    accounts: [account({ id: 'a', identityId: 'i', sourceId: 'hr', attributes })],
  });
  return { engine: createEngine({ providers, clock: () => now }), identity };
}
const hr = (attributeName: string) => ({ type: 'accountAttribute', attributes: { sourceName: 'HR Source', attributeName } });
const dc = (attributes: Record<string, unknown>) => ({ name: 'dc', type: 'dateCompare', attributes });

describe('dateCompare', () => {
  // date-compare#2: termination_date > now → active, otherwise terminated
  it.each([
    ['2024-06-30T00:00:00.000Z', 'active'],
    ['2023-12-31T00:00:00.000Z', 'terminated'],
    ['2024-01-15T12:00:00.000Z', 'terminated'],
  ])('date-compare#2: termination_date %s → %s', (termination, expected) => {
    const { engine, identity } = tenant({ termination_date: termination });
    const t = dc({ firstDate: hr('termination_date'), secondDate: 'now', operator: 'gt', positiveCondition: 'active', negativeCondition: 'terminated' });
    expect(engine.evaluateSync(t, { identity })).toBe(expected);
  });

  // date-compare#3: hire_date <= dateFormat("12/31/1995", M/d/yyyy → ISO8601) → legacy
  it.each([
    ['1995-12-31T00:00:00.000Z', 'legacy'],
    ['1990-05-01T00:00:00.000Z', 'legacy'],
    ['1996-01-01T00:00:00.000Z', 'regular'],
  ])('date-compare#3: hire_date %s → %s', (hire, expected) => {
    const { engine, identity } = tenant({ hire_date: hire });
    const t = dc({
      firstDate: hr('hire_date'),
      secondDate: { type: 'dateFormat', attributes: { input: '12/31/1995', inputFormat: 'M/d/yyyy', outputFormat: 'ISO8601' } },
      operator: 'lte',
      positiveCondition: 'legacy',
      negativeCondition: 'regular',
    });
    expect(engine.evaluateSync(t, { identity })).toBe(expected);
  });

  it.each([
    ['LT', 'yes'], ['lt', 'yes'], ['LTE', 'yes'], ['GT', 'no'], ['Gte', 'no'],
  ])('decision: operator %s is case-insensitive', (operator, expected) => {
    const { engine } = tenant({});
    const t = dc({ firstDate: '2020-01-01T00:00:00Z', secondDate: 'now', operator, positiveCondition: 'yes', negativeCondition: 'no' });
    expect(engine.evaluateSync(t)).toBe(expected);
  });

  it('only the chosen condition is evaluated', () => {
    const { engine } = tenant({});
    const failing = { type: 'lookup', attributes: { table: { x: 'y' } } };
    const t = dc({ firstDate: 'now', secondDate: '2000-01-01T00:00:00Z', operator: 'GT', positiveCondition: 'ok', negativeCondition: failing });
    expect(engine.evaluateSync(t, { input: 'no-match' })).toBe('ok');
  });

  it('a null date is IllegalArgumentException at the attribute; a non-ISO one EVAL_DATE_PARSE', () => {
    const { engine, identity } = tenant({});
    const nullDate = codedErrorOf(() =>
      engine.evaluateSync(dc({ firstDate: hr('missing'), secondDate: 'now', operator: 'GT', positiveCondition: 'a', negativeCondition: 'b' }), { identity }),
    );
    expect(nullDate.code).toBe('EVAL_ILLEGAL_ARGUMENT');
    expect(nullDate.path).toBe('/attributes/firstDate');
    const bad = codedErrorOf(() => engine.evaluateSync(dc({ firstDate: '12/31/1995', secondDate: 'now', operator: 'GT', positiveCondition: 'a', negativeCondition: 'b' })));
    expect(bad.code).toBe('EVAL_DATE_PARSE');
    expect(bad.path).toBe('/attributes/firstDate');
  });

  it('an unknown operator is rejected before evaluation', () => {
    const { engine } = tenant({});
    const error = codedErrorOf(() => engine.compile(dc({ firstDate: 'now', secondDate: 'now', operator: 'EQ', positiveCondition: 'a', negativeCondition: 'b' })));
    expect({ code: error.code, path: error.path }).toEqual({ code: 'SCHEMA_ENUM', path: '/attributes/operator' });
  });

  returnsValueOrCodedError('dateCompare', ['firstDate', 'secondDate', 'operator', 'positiveCondition', 'negativeCondition']);
});
