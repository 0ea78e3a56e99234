import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { codedError } from '../../src/errors/index.js';
import { IDENTITIES, codedErrorOf, rejectionOf, tenantEngine } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const CSDU = 'Cloud Services Deployment Utility';
const rule = (attributes: Record<string, unknown>) => ({ name: 'r', type: 'rule', attributes });
const john = IDENTITIES[0]!;

describe('rule: Cloud Services Deployment Utility', () => {
  const engine = tenantEngine({ random: () => 0.999 });

  it.each([
    [{ includeNumbers: 'true', includeSpecialChars: 'true', length: '16' }, /^[A-Za-z0-9!@#$%&*()+<>?]{16}$/], // generate-random-string#2
    [{ includeNumbers: 'true', includeSpecialChars: 'false', length: '8' }, /^[A-Za-z0-9]{8}$/], // generate-random-string#3
    [{ includeNumbers: false, includeSpecialChars: false, length: 5 }, /^[A-Za-z]{5}$/],
  ])('generateRandomString %j', (attributes, pattern) => {
    expect(createEngine().evaluateSync(rule({ name: CSDU, operation: 'generateRandomString', ...attributes }))).toMatch(pattern);
  });

  it('generateRandomString draws from the injected source (the last special character for 0.999)', () => {
    expect(engine.evaluateSync(rule({ name: CSDU, operation: 'generateRandomString', includeNumbers: true, includeSpecialChars: true, length: 3 }))).toBe('???');
  });

  it.each([
    [{ numChars: '4' }, 'abcd1234', '1234'], // get-end-of-string#2
    [{ numChars: '16', input: 'This is a test.' }, undefined, null], // get-end-of-string#3: more than the length → null
    [{ numChars: 0 }, 'abc', ''],
    [{ numChars: 3, input: { type: 'trim' } }, '  abcdef  ', 'def'], // rule#3: a nested trim of the implicit input
    [{ numChars: 2 }, null, null],
  ])('getEndOfString %j on %j → %j', (attributes, input, expected) => {
    const t = rule({ name: CSDU, operation: 'getEndOfString', ...attributes });
    expect(engine.evaluateSync(t, input === undefined ? {} : { input })).toBe(expected);
  });

  it.each([
    ['manager', 'email', 'jane.boss@example.com'], // get-reference-identity-attribute#2
    ['jane.boss', 'country', 'US'], // #3 shape: by user name
    ['nobody', 'email', null],
    ['jane.boss', 'missing', null],
  ])('getReferenceIdentityAttribute uid %s, %s → %j', (uid, attributeName, expected) => {
    const t = rule({ name: CSDU, operation: 'getReferenceIdentityAttribute', uid, attributeName });
    expect(engine.evaluateSync(t, { identity: john })).toBe(expected);
  });

  it('getReferenceIdentityAttribute: no manager gives null; no identity is EVAL_NO_IDENTITY', () => {
    const t = rule({ name: CSDU, operation: 'getReferenceIdentityAttribute', uid: 'manager', attributeName: 'email' });
    expect(engine.evaluateSync(t, { identity: IDENTITIES[1]! })).toBeNull();
    expect(codedErrorOf(() => engine.evaluateSync(t)).code).toBe('EVAL_NO_IDENTITY');
  });

  it('getReferenceIdentityAttribute by name needs an identity provider', () => {
    const t = rule({ name: CSDU, operation: 'getReferenceIdentityAttribute', uid: 'jane.boss', attributeName: 'email' });
    expect(codedErrorOf(() => createEngine().evaluateSync(t, { identity: john })).code).toBe('EVAL_PROVIDER_MISSING');
  });

  it('an unknown utility operation is rejected at compile time', () => {
    const error = codedErrorOf(() => engine.compile(rule({ name: CSDU, operation: 'getStartOfString' })));
    expect(error.code).toBe('COMPILE_INVALID_ATTRIBUTE');
    expect(error.path).toBe('/attributes/operation');
  });

  it.each([[{ length: 451 }], [{ length: 0 }]])('generateRandomString %j is out of range (1 to 450)', (attributes) => {
    const error = codedErrorOf(() => engine.compile(rule({ name: CSDU, operation: 'generateRandomString', ...attributes })));
    expect(error.code).toBe('COMPILE_INVALID_ATTRIBUTE');
    expect(error.path).toBe('/attributes/length');
  });
});

describe('rule: rules registered on the engine', () => {
  const engine = createEngine({
    rules: {
      // The transform_rule.md Split sample: text.split(delimiter)[index]
      Split: ({ attributes }) => String(attributes.text).split(String(attributes.delimiter))[Number(attributes.index)] ?? null,
      Greeting: ({ input, identity }) => `Hello ${identity?.name ?? String(input)}`,
      Later: async ({ input }) => `later ${String(input)}`,
      Broken: () => {
        throw new Error('boom');
      },
      Coded: () => {
        throw codedError('EVAL_ILLEGAL_ARGUMENT', 'bad');
      },
      Nothing: () => undefined as never,
    },
  });

  it('passes the other attributes, evaluated, and returns the rule value', () => {
    expect(engine.evaluateSync(rule({ name: 'Split', delimiter: ',', index: 0, text: 'This,is,a,test' }))).toBe('This');
    expect(engine.evaluateSync(rule({ name: 'Split', delimiter: ',', index: 3, text: { type: 'static', attributes: { value: 'This,is,a,test' } } }))).toBe('test');
  });

  it('gives the rule the input and the identity', () => {
    expect(engine.evaluateSync(rule({ name: 'Greeting' }), { identity: john })).toBe('Hello john.doe');
    expect(engine.evaluateSync(rule({ name: 'Greeting' }), { input: 'you' })).toBe('Hello you');
  });

  it('supports asynchronous rules through evaluate()', async () => {
    expect(await engine.evaluate(rule({ name: 'Later' }), { input: 'x' })).toBe('later x');
  });

  it('an unregistered rule is EVAL_UNKNOWN_RULE naming it', () => {
    const error = codedErrorOf(() => engine.evaluateSync(rule({ name: 'Generate Random Number' })));
    expect(error.code).toBe('EVAL_UNKNOWN_RULE');
    expect(error.message).toContain('Generate Random Number');
    expect(error.path).toBe('/attributes/name');
  });

  it('a rule that throws is EVAL_RULE_FAILED with the cause chained', async () => {
    const error = codedErrorOf(() => engine.evaluateSync(rule({ name: 'Broken' })));
    expect(error.code).toBe('EVAL_RULE_FAILED');
    expect((error.cause as Error).message).toBe('boom');
    expect(codedErrorOf(() => engine.evaluateSync(rule({ name: 'Coded' }))).details).toMatchObject({ code: 'EVAL_ILLEGAL_ARGUMENT' });
    expect((await rejectionOf(engine.evaluate(rule({ name: 'Broken' })))).code).toBe('EVAL_RULE_FAILED');
  });

  it('undefined from a rule is null', () => {
    expect(engine.evaluateSync(rule({ name: 'Nothing' }))).toBeNull();
  });

  returnsValueOrCodedError('rule', ['name', 'operation', 'numChars', 'length', 'uid', 'attributeName', 'input']);
});

describe('rule: a registered rule that throws what is not an Error, or returns what no transform holds', () => {
  const throwing = (value: unknown) => () => {
    throw value;
  };
  const engine = createEngine({
    rules: {
      ThrowsNull: throwing(null),
      ThrowsBare: throwing(Object.create(null)),
      ThrowsUnprintable: throwing({
        toString() {
          throw new Error('no text');
        },
      }),
      ThrowsHuge: throwing('x'.repeat(1_000_000)),
      BigInt: () => 10n as never,
      Symbol: () => Symbol('s') as never,
      Function: () => (() => 1) as never,
      NaN: () => Number.NaN,
      Date: () => new Date(0) as never,
      Nested: () => ({ a: [1, { b: 2n }] }) as never,
      Cycle: () => {
        const list: unknown[] = [];
        list.push(list);
        return list as never;
      },
      BareMap: () => Object.assign(Object.create(null) as object, { a: 'x' }) as never,
      LaterBigInt: async () => 1n as never,
    },
  });

  it.each([
    ['ThrowsNull', 'rule "ThrowsNull" failed: null'],
    ['ThrowsBare', 'rule "ThrowsBare" failed: [object Object] that cannot be shown as text'],
    ['ThrowsUnprintable', 'rule "ThrowsUnprintable" failed: [object Object] that cannot be shown as text'],
    ['ThrowsHuge', `rule "ThrowsHuge" failed: ${'x'.repeat(500)}…`],
  ])('%s is EVAL_RULE_FAILED with a message that can be shown', (name, message) => {
    const error = codedErrorOf(() => engine.evaluateSync(rule({ name })));
    expect(error.code).toBe('EVAL_RULE_FAILED');
    expect(error.message).toBe(message);
    expect(error.path).toBe('/attributes/name');
  });

  it.each([
    ['BigInt', 'a bigint', ''],
    ['Symbol', 'a symbol', ''],
    ['Function', 'a function', ''],
    ['NaN', 'NaN', ''],
    ['Date', 'an instance of Date', ''],
    ['Nested', 'a bigint', '/a/1/b'],
  ])('returning %s is EVAL_RULE_FAILED naming it and where it is', (name, what, at) => {
    const error = codedErrorOf(() => engine.evaluateSync(rule({ name })));
    expect(error.code).toBe('EVAL_RULE_FAILED');
    expect(error.message).toBe(`rule "${name}" returned ${what}${at === '' ? '' : ` at ${at}`}: a transform's value is a string, a finite number, a boolean, null, a list or a map of these`);
    expect(error.details).toEqual({ rule: name, at });
  });

  it('an asynchronous rule is checked the same', async () => {
    expect(await rejectionOf(engine.evaluate(rule({ name: 'LaterBigInt' })))).toMatchObject({ code: 'EVAL_RULE_FAILED', details: { rule: 'LaterBigInt', at: '' } });
  });

  it('a map without a prototype is a map; a list that holds itself meets the output limit', () => {
    expect(engine.evaluateSync(rule({ name: 'BareMap' }))).toEqual({ a: 'x' });
    expect(codedErrorOf(() => engine.evaluateSync(rule({ name: 'Cycle' }))).code).toBe('EVAL_LIMIT_OUTPUT');
  });
});
