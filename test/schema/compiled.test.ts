import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { buildDefinitionValidatorSchema, buildValidatorSchema } from '../../src/schema/build.js';
import { compileSchema, precompiledFile, standaloneValidator } from '../../src/schema/compiled.js';
import { defineOperation } from '../../src/operations/spec.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const schema = buildValidatorSchema(createEngine().registry);
let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'idt-compiled-'));
  // The generated code requires ajv's runtime helpers, resolved from the package's node_modules.
  symlinkSync(join(root, 'node_modules'), join(tmp, 'node_modules'), 'dir');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A directory of its own for each test: require() caches a loaded file by its path. */
const freshDir = () => mkdtempSync(join(tmp, 'precompiled-'));

const fixtures = readdirSync(join(root, 'fixtures/transforms')).map((f) => JSON.parse(readFileSync(join(root, 'fixtures/transforms', f), 'utf8')) as unknown);
const invalid: unknown[] = [
  { type: 'lower', attributes: {} },
  { name: 'x', type: 'lowercase', attributes: {} },
  { name: 'x', type: 'replace', attributes: { regex: 'a', replacement: 'b', flags: 'g' } },
  { name: 'x', type: 'leftPad', attributes: { length: 'eight' } },
  { name: 'x', type: 'concat', attributes: { values: ['a', { type: 'lookup', attributes: {} }] } },
  { name: 'x', type: 'upper', attributes: { input: { attributes: {} } } },
  { name: 'x'.repeat(51), type: 'lower', attributes: {}, extra: 1 },
  ['lower'],
];

describe('generated (standalone) schema validators', () => {
  it('are found by the fingerprint of their schema; any other schema is compiled by ajv', () => {
    const dir = freshDir();
    writeFileSync(join(dir, precompiledFile(schema, false)), 'module.exports = () => "generated";');
    expect((compileSchema(schema, false, dir) as () => unknown)()).toBe('generated');
    // The all-errors validator and a registry with one more operation have other fingerprints.
    expect(precompiledFile(schema, true)).not.toBe(precompiledFile(schema, false));
    const extra = defineOperation({ type: 'shout', attributesSchema: { type: 'object' } } as never);
    const other = buildValidatorSchema(createEngine({ operations: [extra] }).registry);
    expect(precompiledFile(other, false)).not.toBe(precompiledFile(schema, false));
    expect(compileSchema(other, false, dir)({ name: 'x', type: 'shout', attributes: {} })).toBe(true);
  });

  it.each([
    ['transform, first error', schema, false],
    ['transform, all errors', schema, true],
    ['nested definition, first error', buildDefinitionValidatorSchema(schema), false],
    ['nested definition, all errors', buildDefinitionValidatorSchema(schema), true],
  ] as const)('%s: report exactly what ajv compiled at run time reports', (_label, s, allErrors) => {
    const dir = freshDir();
    const { file, code } = standaloneValidator(s, allErrors);
    expect(file).toBe(precompiledFile(s, allErrors));
    writeFileSync(join(dir, file), code);
    const generated = compileSchema(s, allErrors, dir);
    const runtime = compileSchema(s, allErrors, join(dir, 'absent'));
    expect(generated).not.toBe(runtime);
    for (const doc of [...fixtures, ...invalid]) {
      expect(generated(doc)).toBe(runtime(doc));
      expect(generated.errors ?? null).toEqual(runtime.errors ?? null);
    }
    expect(invalid.some((doc) => !generated(doc))).toBe(true);
  });
});
