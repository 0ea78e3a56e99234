import { describe, expect, it } from 'vitest';
import { IDENTITIES, codedErrorOf, tenantEngine } from '../helpers.js';

const john = IDENTITIES[0]!;
const jane = IDENTITIES[1]!;
const engine = tenantEngine();
const empType = { type: 'accountAttribute', attributes: { sourceName: 'HR Source', attributeName: 'empType' } };
const st = (attributes: Record<string, unknown>) => ({ name: 's', type: 'static', attributes });

describe('static', () => {
  it('returns a fixed string', () => {
    expect(engine.evaluateSync(st({ value: 'Employee' }))).toBe('Employee');
  });

  it('renders a dynamic variable computed by a nested transform', () => {
    expect(engine.evaluateSync(st({ workerType: empType, value: '$workerType' }), { identity: john })).toBe('Employee');
  });

  // doc example static#4: "#if($workerType=='Employee')Full-Time#{else}Contingent#end"
  it.each([
    [john, 'Full-Time'],
    [jane, 'Contingent'],
  ])('evaluates #if/#{else} on the variable (%#)', (identity, expected) => {
    const t = st({ workerType: empType, value: "#if($workerType=='Employee')Full-Time#{else}Contingent#end" });
    expect(engine.evaluateSync(t, { identity })).toBe(expected);
  });

  it('renders variables as strings before use (numbers, lists)', () => {
    const t = st({ n: { type: 'static', attributes: { value: '7' } }, value: '$n$n' });
    expect(engine.evaluateSync(t)).toBe('77');
  });

  it('does not inject a null variable: referencing it is "Error rendering template"', () => {
    const t = st({ login: { type: 'accountAttribute', attributes: { sourceName: 'Okta', attributeName: 'login' } }, value: 'x$login' });
    expect(codedErrorOf(() => engine.evaluateSync(t, { identity: john })).code).toBe('TEMPLATE_RENDER');
  });

  it('decision E6: a variable holding "" is defined, `$!x` renders it empty (observed on a tenant)', () => {
    const t = st({ x: '', value: 'a$!x b' });
    expect(engine.evaluateSync(t)).toBe('a b');
    expect(engine.evaluateSync(st({ x: '', value: '[$x]#if($x)T#end' }))).toBe('[]T');
  });

  it('decision E6: a null variable is not, even as `$!x`', () => {
    const t = st({ x: { type: 'accountAttribute', attributes: { sourceName: 'Okta', attributeName: 'login' } }, value: 'a$!x b' });
    expect(codedErrorOf(() => engine.evaluateSync(t, { identity: john })).code).toBe('TEMPLATE_RENDER');
  });

  it('does not evaluate a dynamic variable the template never mentions', () => {
    const t = st({ broken: { type: 'lookup', attributes: { table: { a: 'b' } } }, value: 'fine' });
    expect(engine.evaluateSync(t, { identity: john, input: 'zzz' })).toBe('fine');
  });

  it('reads $identity and $oldValue from the context', () => {
    const t = st({ value: '$identity.getName()/$oldValue' });
    expect(engine.evaluateSync(t, { identity: john, variables: { oldValue: 'before' } })).toBe('john.doe/before');
  });

  it('reports a template syntax error at compile time with its pointer', () => {
    const error = codedErrorOf(() => engine.compile(st({ value: '#if($a' })));
    expect(error.code).toBe('TEMPLATE_SYNTAX');
    expect(error.path).toBe('/attributes/value');
  });

  it('renders every $-string of any transform through Velocity', () => {
    const t = { name: 'l', type: 'lookup', attributes: { table: { Employee: 'E:$identity.getName()', default: 'other' } } };
    expect(engine.evaluateSync(t, { identity: john, input: 'Employee' })).toBe('E:john.doe');
  });
});
