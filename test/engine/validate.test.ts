import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSetValidator, validateTransform, validateTransformSet } from '../../src/engine/validate.js';
import { renderErrorsDoc, renderSchemaFile } from '../../src/schema/artefacts.js';
import { ERROR_CATALOGUE } from '../../src/errors/index.js';
import { createEngine } from '../../src/engine/engine.js';
import { attributesSchema, defineOperation } from '../../src/operations/spec.js';

const ok = (t: unknown) => validateTransform(t);
const first = (t: unknown) => validateTransform(t).issues[0];

describe('the transform schema accepts what the platform accepts', () => {
  it.each([
    ['a numeric string length', { name: 'p', type: 'leftPad', attributes: { length: '8', padding: '0' } }],
    ['an integer length', { name: 'p', type: 'leftPad', attributes: { length: 8 } }],
    ['a double that is an integer (API read-back)', { name: 's', type: 'substring', attributes: { begin: 1, end: -1.0, beginOffset: 2.0 } }],
    ['"8.0" as a string', { name: 'p', type: 'rightPad', attributes: { length: '8.0' } }],
    ['a string boolean', { name: 'f', type: 'firstValid', attributes: { values: ['a'], ignoreErrors: 'true' } }],
    ['requiresPeriodicRefresh at the top level', { name: 'l', type: 'lower', attributes: {}, requiresPeriodicRefresh: true }],
    ['requiresPeriodicRefresh inside attributes', { name: 'l', type: 'lower', attributes: { requiresPeriodicRefresh: 'true' } }],
    ['id and internal at the top level', { id: 'abc', internal: false, name: 'l', type: 'lower', attributes: {} }],
    ['no attributes where nothing is required (as the doc examples write them)', { name: 'b', type: 'base64Encode' }],
    ['null attributes where nothing is required', { name: 'c', type: 'iso3166', attributes: null }],
    ['a nested transform without attributes', { name: 'r', type: 'upper', attributes: { input: { type: 'trim' } } }],
    ['dynamic variables on static', { name: 's', type: 'static', attributes: { fn: { type: 'lower', attributes: {} }, value: '$fn' } }],
    ['a nested transform as a substring begin', { name: 's', type: 'substring', attributes: { begin: { type: 'indexOf', attributes: { substring: '@' } } } }],
    ['a $schema key for editors', { $schema: '../schemas/transform.schema.json', name: 'l', type: 'lower', attributes: {} }],
    ['join, documented but not in the enum', { name: 'j', type: 'join', attributes: { values: ['a', 'b'], separator: '-' } }],
  ])('accepts %s', (_label, t) => {
    expect(ok(t)).toEqual({ valid: true, issues: [] });
  });
});

describe('invalid transforms get their code and pointer', () => {
  it.each([
    ['root without name', { type: 'lower', attributes: {} }, 'SCHEMA_REQUIRED', '/name'],
    ['root without the attributes its operation requires', { name: 'x', type: 'replace' }, 'SCHEMA_REQUIRED', '/attributes'],
    ['unknown type', { name: 'x', type: 'lowercase', attributes: {} }, 'SCHEMA_ENUM', '/type'],
    ['unknown top-level key', { name: 'x', type: 'lower', attributes: {}, extra: 1 }, 'SCHEMA_UNKNOWN_PROPERTY', '/extra'],
    ['unknown attribute', { name: 'x', type: 'replace', attributes: { regex: 'a', replacement: 'b', flags: 'g' } }, 'SCHEMA_UNKNOWN_PROPERTY', '/attributes/flags'],
    ['missing required attribute', { name: 'x', type: 'replace', attributes: { regex: 'a' } }, 'SCHEMA_REQUIRED', '/attributes/replacement'],
    ['non-integer length', { name: 'x', type: 'leftPad', attributes: { length: 'eight' } }, 'SCHEMA_TYPE', '/attributes/length'],
    ['non-boolean flag', { name: 'x', type: 'firstValid', attributes: { values: [], ignoreErrors: 'yes' } }, 'SCHEMA_TYPE', '/attributes/ignoreErrors'],
    ['bad nested transform', { name: 'x', type: 'concat', attributes: { values: ['a', { type: 'lookup', attributes: {} }] } }, 'SCHEMA_REQUIRED', '/attributes/values/1/attributes/table'],
    ['nested transform without type', { name: 'x', type: 'upper', attributes: { input: { attributes: {} } } }, 'SCHEMA_REQUIRED', '/attributes/input/type'],
    ['an operator outside the enum', { name: 'x', type: 'dateCompare', attributes: { firstDate: 'now', secondDate: 'now', operator: 'EQ', positiveCondition: 'a', negativeCondition: 'b' } }, 'SCHEMA_ENUM', '/attributes/operator'],
    ['displayName with null attributes', { name: 'x', type: 'displayName', attributes: null }, 'SCHEMA_TYPE', '/attributes'],
    ['a name longer than 50 characters', { name: 'x'.repeat(51), type: 'lower', attributes: {} }, 'SCHEMA_CONSTRAINT', '/name'],
    ['not an object', ['lower'], 'SCHEMA_NOT_OBJECT', ''],
    ['a filter that does not parse (compile)', { name: 'x', type: 'accountAttribute', attributes: { sourceName: 's', attributeName: 'a', accountPropertyFilter: '(a ==' } }, 'FILTER_SYNTAX', '/attributes/accountPropertyFilter'],
    ['an accountFilter on an unsearchable property (compile)', { name: 'x', type: 'accountAttribute', attributes: { sourceName: 's', attributeName: 'a', accountFilter: '(department == "x")' } }, 'COMPILE_FILTER_PROPERTY', '/attributes/accountFilter'],
  ])('%s → %s at %s', (_label, t, code, path) => {
    const result = validateTransform(t);
    expect(result.valid).toBe(false);
    expect(result.issues).toContainEqual(expect.objectContaining({ severity: 'error', code, path }));
  });

  it('warns about a lookup without default but stays valid', () => {
    const result = validateTransform({ name: 'x', type: 'lookup', attributes: { table: { a: 'b' } } });
    expect(result.valid).toBe(true);
    expect(result.issues).toEqual([expect.objectContaining({ severity: 'warning', code: 'VALIDATE_LOOKUP_NO_DEFAULT', path: '/attributes/table' })]);
  });

  it('rejects transforms above the 400 KB upload limit', () => {
    const big = { name: 'x', type: 'static', attributes: { value: 'a'.repeat(410 * 1024) } };
    expect(first(big)).toMatchObject({ code: 'VALIDATE_TOO_LARGE', path: '' });
  });

  it('rejects 10,000 levels of nesting without overflowing the stack', () => {
    let t: Record<string, unknown> = { type: 'trim', attributes: {} };
    for (let i = 0; i < 10_000; i++) t = { type: 'upper', attributes: { input: t } };
    expect(first({ name: 'deep', ...t })).toMatchObject({ code: 'VALIDATE_TOO_DEEP' });
  });

  it('honours a nesting-depth option', () => {
    const t = { name: 'x', type: 'upper', attributes: { input: { type: 'lower', attributes: { input: { type: 'trim' } } } } };
    expect(validateTransform(t, { maxDepth: 1 }).issues[0]).toMatchObject({ code: 'VALIDATE_TOO_DEEP' });
    expect(validateTransform(t, { maxDepth: 2 }).valid).toBe(true);
  });
});

const SET = [
  { source: 'a.json', json: { name: 'A', type: 'reference', attributes: { id: 'B' } } },
  { source: 'b.json', json: { name: 'B', type: 'reference', attributes: { id: 'A' } } },
  { source: 'c.json', json: { name: 'C', type: 'reference', attributes: { id: 'Missing' } } },
  { source: 'd1.json', json: { name: 'D', type: 'lower', attributes: {} } },
  { source: 'd2.json', json: { name: 'D', type: 'upper', attributes: {} } },
];

describe('checks across a set of transforms', () => {
  const results = validateTransformSet(SET);
  const codes = (source: string) => results.find((r) => r.source === source)!.issues.map((i) => i.code);
  it('finds reference cycles', () => {
    expect([...codes('a.json'), ...codes('b.json')]).toContain('VALIDATE_REFERENCE_CYCLE');
  });
  it('finds references to unknown names', () => {
    expect(codes('c.json')).toEqual(['VALIDATE_UNKNOWN_REFERENCE']);
  });
  it('finds duplicate names in both files', () => {
    expect(codes('d1.json')).toEqual(['VALIDATE_DUPLICATE_NAME']);
    expect(codes('d2.json')).toEqual(['VALIDATE_DUPLICATE_NAME']);
  });
  it('names at most five of the other files of a duplicate name: 3,000 files of one name made 270 MB of SARIF', () => {
    const many = validateTransformSet(Array.from({ length: 40 }, (_, i) => ({ source: `t${i}.json`, json: { name: 'Same', type: 'lower', attributes: {} } })));
    expect(many[0]!.issues).toEqual([
      { severity: 'error', code: 'VALIDATE_DUPLICATE_NAME', path: '/name', message: 'the name "Same" is also used by t1.json, t2.json, t3.json, t4.json, t5.json and 34 more files' },
    ]);
    expect(many[39]!.issues[0]!.message).toBe('the name "Same" is also used by t0.json, t1.json, t2.json, t3.json, t4.json and 34 more files');
    expect(validateTransformSet(SET).find((r) => r.source === 'd1.json')!.issues[0]!.message).toBe('the name "D" is also used by d2.json');
  });
  it('finds a cycle through a transform too large to check (its references are still walked)', () => {
    const big = { name: 'Big', type: 'static', attributes: { value: 'a'.repeat(410 * 1024), next: { type: 'reference', attributes: { id: 'Small' } } } };
    const [small, large] = validateTransformSet([
      { source: 'small.json', json: { name: 'Small', type: 'reference', attributes: { id: 'Big' } } },
      { source: 'big.json', json: big },
    ]);
    expect(small!.issues).toEqual([]);
    expect(large!.issues.map((i) => [i.code, i.path])).toEqual([
      ['VALIDATE_TOO_LARGE', ''],
      ['VALIDATE_REFERENCE_CYCLE', '/attributes/next/attributes/id'],
    ]);
  });
  it('points at a reference below an attribute whose name needs escaping', () => {
    const t = { name: 'E', type: 'static', attributes: { value: '$a', 'a/b~c': { type: 'reference', attributes: { id: 'Nowhere' } } } };
    expect(validateTransformSet([{ source: 'e.json', json: t }])[0]!.issues).toEqual([
      expect.objectContaining({ code: 'VALIDATE_UNKNOWN_REFERENCE', path: '/attributes/a~1b~0c/attributes/id' }),
    ]);
  });
  it('one transform at a time gives the results of the whole set at once', () => {
    const set = createSetValidator();
    const streamed = SET.map((e) => set.add(e));
    set.finish();
    expect(streamed).toEqual(validateTransformSet(SET));
  });
});

describe('generated artefacts are up to date (run `npm run schemas`)', () => {
  it('schemas/transform.schema.json matches the registry', () => {
    expect(readFileSync(new URL('../../schemas/transform.schema.json', import.meta.url), 'utf8')).toBe(renderSchemaFile(createEngine().transformSchema()));
  });
  it('docs/errors.md matches the error catalogue', () => {
    const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    expect(doc).toBe(renderErrorsDoc());
    for (const code of Object.keys(ERROR_CATALOGUE)) expect(doc).toContain(`\`${code}\``);
  });
});

describe('validation is an engine\'s work', () => {
  const shout = defineOperation({
    type: 'shout',
    doc: 'shout — the input in upper case (an operation of the user\'s own)',
    attributesRequired: false,
    attributesSchema: attributesSchema({ properties: {} }),
    compile: () => (input) => (typeof input === 'string' ? input.toUpperCase() : input),
  });
  const doc = { name: 'Loud', type: 'shout' };

  it('validates with the engine given: its operations, its schema', () => {
    const engine = createEngine({ operations: [shout] });
    expect(validateTransform(doc, { engine })).toEqual({ valid: true, issues: [] });
    expect(validateTransformSet([{ source: 'loud.json', json: doc }], { engine })[0]!.valid).toBe(true);
  });

  it('without an engine, a built-in one of its own: nothing an earlier call\'s engine registered is seen', () => {
    expect(validateTransform(doc, { engine: createEngine({ operations: [shout] }) }).valid).toBe(true);
    expect(validateTransform(doc).issues).toEqual([{ severity: 'error', code: 'SCHEMA_ENUM', path: '/type', message: 'unknown transform type "shout"' }]);
  });

  it('built-in engines share one set of compiled schema validators; an engine with operations compiles its own', () => {
    const a = createEngine();
    const b = createEngine({ limits: { maxDepth: 3 } });
    const own = createEngine({ operations: [shout] });
    const validators = (engine: object) => (engine as { validators: unknown }).validators;
    expect(validators(a)).toBe(validators(b));
    expect(validators(own)).not.toBe(validators(a));
    expect(own.validateSchema(doc)).toEqual([]);
    expect(a.validateSchema(doc)[0]).toMatchObject({ code: 'SCHEMA_ENUM', path: '/type' });
  });
});
