// `identity-transforms evaluate`: a uniqueness provider over the fixtures for usernameGenerator,
// --rules <module>, --format json, and usage errors that suggest the option meant.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli as run } from './run.js';
import { cleanUp, FIXTURES, handTenant, hrAccount, tempDir } from '../refresh/tenants.js';

afterAll(cleanUp);


const GENERATOR = {
  type: 'usernameGenerator',
  attributes: {
    sourceCheck: true,
    patterns: ['$fi$ln${uniqueCounter}'],
    fi: { type: 'substring', attributes: { begin: 0, end: 1, input: { type: 'lower', attributes: { input: { type: 'identityAttribute', attributes: { name: 'firstname' } } } } } },
    ln: { type: 'lower', attributes: { input: { type: 'identityAttribute', attributes: { name: 'lastname' } } } },
  },
};

function tenant(): { dir: string; transform: string } {
  const person = (id: string, name: string) => ({ id, name, attributes: { firstname: 'John', lastname: 'Doe', uid: name }, managerId: null });
  const dir = handTenant({
    sources: [
      { id: 'src-hr', name: 'HR' },
      { id: 'src-ad', name: 'AD' },
    ],
    identities: [person('i1', 'jdoe'), person('i2', 'john.doe.2'), person('i3', 'john.doe.3')],
    // i3 holds an AD account named jdoe1; i2's own HR account is jdoe2.
    accounts: [hrAccount('i3', {}, { id: 'ad-i3', sourceId: 'src-ad', nativeIdentity: 'jdoe1', name: 'jdoe1' }), hrAccount('i2', {}, { id: 'hr-i2', nativeIdentity: 'jdoe2', name: 'jdoe2' })],
  });
  const transform = join(dir, 'generator.json');
  writeFileSync(transform, JSON.stringify({ name: 'Gen', ...GENERATOR }));
  return { dir, transform };
}

describe('identity-transforms evaluate', () => {
  it('gives usernameGenerator a uniqueness provider over the fixtures (not EVAL_PROVIDER_MISSING)', async () => {
    const { dir, transform } = tenant();
    // jdoe is i1's name; with sourceCheck, jdoe1 is another identity's AD account.
    const r = await run('evaluate', transform, '--fixtures', dir, '--identity', 'john.doe.2');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe('"jdoe2"\n');
  });

  it('checks only the accounts of --source when given', async () => {
    const { dir, transform } = tenant();
    expect((await run('evaluate', transform, '--fixtures', dir, '--identity', 'i3', '--source', 'HR')).out).toBe('"jdoe1"\n');
    expect((await run('evaluate', transform, '--fixtures', dir, '--identity', 'i1', '--source', 'AD')).out).toBe('"jdoe"\n');
    const r = await run('evaluate', transform, '--fixtures', dir, '--identity', 'i1', '--source', 'Nope');
    expect(r.code).toBe(2);
    expect(r.err).toContain('--source: no source with id or name "Nope"');
  });

  it('evaluates the bundled Generate Username transform against the bundled fixtures', async () => {
    const r = await run('evaluate', join(FIXTURES, 'transforms', 'generate-username.json'), '--fixtures', FIXTURES, '--identity', 'fatima.schroder');
    expect(r.code).toBe(0);
    expect(r.out).toBe('"fatima.schroder"\n');
  });

  describe('--rules <module>', () => {
    const rule = join(FIXTURES, 'transforms', 'custom-rule-errors-unless-registered.json');
    const modules = () => {
      const dir = tempDir('idt-rules-');
      writeFileSync(join(dir, 'rules.mjs'), "export default { 'Generate Random Number': ({ identity }) => `n-${identity.name}` };\n");
      writeFileSync(join(dir, 'named.mjs'), "export const rules = { 'Generate Random Number': () => 42 };\n");
      writeFileSync(join(dir, 'not-functions.mjs'), "export default { 'Generate Random Number': 'nope' };\n");
      writeFileSync(join(dir, 'no-export.mjs'), 'export const x = 1;\n');
      writeFileSync(join(dir, 'broken.mjs'), 'export default {\n');
      return dir;
    };

    it('registers the rules of the module (default export or "rules")', async () => {
      const dir = modules();
      expect((await run('evaluate', rule, '--fixtures', FIXTURES, '--identity', 'fatima.schroder', '--rules', join(dir, 'rules.mjs'))).out).toBe('"n-fatima.schroder"\n');
      expect((await run('evaluate', rule, '--fixtures', FIXTURES, '--identity', 'fatima.schroder', '--rules', join(dir, 'named.mjs'))).out).toBe('42\n');
    });

    it.each([
      ['missing', 'missing.mjs', 'the rules module does not exist'],
      ['not functions', 'not-functions.mjs', 'rule "Generate Random Number" must be a function, not string'],
      ['without rules', 'no-export.mjs', 'must export its rules as the default export or as "rules"'],
      ['not loadable', 'broken.mjs', 'the rules module cannot be loaded'],
    ])('reports a module that is %s as RULES_MODULE_INVALID, exit 2 (unreadable input)', async (_label, name, message) => {
      const dir = modules();
      const r = await run('evaluate', rule, '--fixtures', FIXTURES, '--identity', 'fatima.schroder', '--rules', join(dir, name));
      expect(r.code).toBe(2);
      expect(r.err).toContain('RULES_MODULE_INVALID');
      expect(r.err).toContain(message);
      expect(r.err).not.toMatch(/\n\s+at /);
    });
  });

  it('--format json prints the value or the error as one JSON object', async () => {
    const lower = join(tempDir(), 'lower.json');
    writeFileSync(lower, JSON.stringify({ name: 'Lower', type: 'lower', attributes: { input: 'ABC' } }));
    expect((await run('evaluate', lower, '--fixtures', FIXTURES, '--identity', 'fatima.schroder', '--format', 'json')).out).toBe('{"value":"abc"}\n');
    const bad = join(tempDir(), 'bad.json');
    writeFileSync(bad, JSON.stringify({ name: 'Unregistered', type: 'rule', attributes: { name: 'Nope' } }));
    const r = await run('evaluate', bad, '--fixtures', FIXTURES, '--identity', 'fatima.schroder', '--format', 'json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toEqual({ error: { code: 'EVAL_UNKNOWN_RULE', message: expect.any(String), path: '/attributes/name' } });
    expect(r.err).toBe('');
  });

  it('reports a transform that is not JSON at file:line:column with a plain sentence', async () => {
    const bad = join(tempDir(), 'syntax.json');
    writeFileSync(bad, '{\n  "type": "lower",\n}\n');
    const r = await run('evaluate', bad, '--fixtures', FIXTURES, '--identity', 'fatima.schroder');
    expect(r.code).toBe(1);
    expect(r.err).toBe(`VALIDATE_JSON_SYNTAX ${bad}:3:1: the file is not valid JSON: a trailing comma is not allowed before "}"\n`);
  });

  it.each([
    [['--identity', 'x', '--fixture', FIXTURES], 'unknown option --fixture; did you mean --fixtures?'],
    [['--identty', 'x'], 'unknown option --identty; did you mean --identity?'],
    [['--frobnicate'], 'unknown option --frobnicate (see identity-transforms evaluate --help)'],
  ])('suggests the option meant: %j', async (args, message) => {
    const r = await run('evaluate', 'x.json', ...args);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`CLI_USAGE ${message}${message.endsWith(')') ? '' : ' (see identity-transforms evaluate --help)'}\n`);
  });

  it('says identities.json is missing when --fixtures names a directory without one', async () => {
    const empty = tempDir();
    const t = join(empty, 't.json');
    writeFileSync(t, JSON.stringify({ name: 't', type: 'static', attributes: { value: 'x' } }));
    const r = await run('evaluate', t, '--fixtures', empty, '--identity', 'john.doe');
    expect(r.code).toBe(2);
    expect(r.err).toContain(`CLI_USAGE ${join(empty, 'identities.json')} is missing`);
  });

  describe('names it knows from the fixtures', () => {
    const file = (doc: unknown) => {
      const path = join(tempDir(), 't.json');
      writeFileSync(path, JSON.stringify(doc));
      return path;
    };

    it('suggests the source an unknown sourceName is a typo of (EVAL_UNKNOWN_SOURCE)', async () => {
      const r = await run('evaluate', file({ name: 't', type: 'accountAttribute', attributes: { sourceName: 'Workdy', attributeName: 'EMAIL' } }), '--fixtures', FIXTURES, '--identity', 'fatima.schroder');
      expect(r.code).toBe(1);
      expect(r.err).toBe('EVAL_UNKNOWN_SOURCE no source matches {"sourceName":"Workdy"}; did you mean "Workday"? (/)\n');
    });

    it('warns of an attribute no account of the source carries, on stderr, and as data with --format json', async () => {
      const t = file({ name: 't', type: 'accountAttribute', attributes: { sourceName: 'Workday', attributeName: 'EMIAL' } });
      const text = await run('evaluate', t, '--fixtures', FIXTURES, '--identity', 'fatima.schroder');
      expect(text.code).toBe(0);
      expect(text.out).toBe('null\n');
      expect(text.err).toBe('warning EVAL_UNKNOWN_ACCOUNT_ATTRIBUTE no account of source "Workday" carries "EMIAL": it reads as null; did you mean "EMAIL"? (/attributes/attributeName)\n');
      const json = await run('evaluate', t, '--fixtures', FIXTURES, '--identity', 'fatima.schroder', '--format', 'json');
      expect(JSON.parse(json.out)).toEqual({ value: null, warnings: [expect.objectContaining({ code: 'EVAL_UNKNOWN_ACCOUNT_ATTRIBUTE', suggestion: 'EMAIL' })] });
    });
  });
});

describe('identity-transforms evaluate: where a failure is', () => {
  it('names a deep pointer on one line, cut in its middle; --format json carries it whole', async () => {
    let t: Record<string, unknown> = { type: 'lookup', attributes: { table: { a: 'A' }, input: 'zzz' } };
    for (let i = 0; i < 60; i++) t = { type: 'firstValid', attributes: { values: [t] } };
    const { dir } = tenant();
    const file = join(dir, 'deep.json');
    writeFileSync(file, JSON.stringify({ name: 'Deep', ...t }));
    const pointer = `${'/attributes/values/0'.repeat(60)}/attributes/table`;
    const text = await run('evaluate', file, '--fixtures', dir, '--identity', 'i1');
    expect(text.code).toBe(1);
    expect(text.err).toBe(`EVAL_LOOKUP_NO_MATCH no table key matches "zzz" and the table has no default (${pointer.slice(0, 60)}…${pointer.slice(-60)})\n`);
    const json = await run('evaluate', file, '--fixtures', dir, '--identity', 'i1', '--format', 'json');
    expect(JSON.parse(json.out).error.path).toBe(pointer);
  });
});
