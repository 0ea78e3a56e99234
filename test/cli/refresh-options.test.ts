// `identity-transforms refresh`: --fail-on-error, --format json, --rules <module> (on the main
// thread and in worker threads), usernameGenerator with a uniqueness provider over the tenant.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli as run } from './run.js';
import { cleanUp, FIXTURES, handTenant, hrAccount, NOW, profile, tempDir } from '../refresh/tenants.js';

afterAll(cleanUp);


const ids = Array.from({ length: 30 }, (_, i) => `id-${String(i).padStart(2, '0')}`);

function tenantWith(mappings: Record<string, unknown>): string {
  return handTenant({
    identities: ids.map((id, i) => ({ id, name: id, attributes: { firstname: 'John', lastname: i % 3 === 0 ? null : 'Doe' }, managerId: null })),
    accounts: ids.map((id) => hrAccount(id, { first: 'John' })),
    profiles: [profile('P', mappings)],
  });
}

const LAST_NAME = { type: 'upper', attributes: { input: { type: 'identityAttribute', attributes: { name: 'lastname' } } } };

describe('refresh --fail-on-error', () => {
  it('exits 0 without it and 1 with it when identities had errors, and the summary says how many', async () => {
    // upper of a null last name: an error for every third identity.
    const dir = tenantWith({ last: { type: 'concat', attributes: { values: [{ type: 'static', attributes: { value: '' } }, LAST_NAME] } }, bad: { type: 'rule', attributes: { name: 'Nope' } } });
    const plain = await run('refresh', '--fixtures', dir, '--summary', '--workers', '0');
    expect(plain.code).toBe(0);
    expect(plain.out).toMatch(/identities +30, 30 with errors/);
    const failing = await run('refresh', '--fixtures', dir, '--summary', '--workers', '0', '--fail-on-error');
    expect(failing.code).toBe(1);
    expect(failing.out).toContain('30 of 30 identities had errors (--fail-on-error): exit code 1\n');
  });

  it('exits 0 with it when no identity had errors', async () => {
    const dir = tenantWith({ first: { type: 'identityAttribute', attributes: { name: 'firstname' } } });
    const r = await run('refresh', '--fixtures', dir, '--summary', '--fail-on-error');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/identities +30, 0 with errors/);
  });
});

describe('refresh --format json', () => {
  it('prints the summary as one JSON object (on stdout with --summary)', async () => {
    const r = await run('refresh', '--fixtures', FIXTURES, '--summary', '--format', 'json', '--now', NOW);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.out) as Record<string, unknown>;
    expect(summary).toMatchObject({ profile: 'Employees', complete: true, identities: expect.any(Number), errors: expect.any(Number), errorsByCode: expect.any(Object) });
    expect(r.err).toBe('');
  });

  it('puts the summary on stderr while the NDJSON is on stdout', async () => {
    const r = await run('refresh', '--fixtures', FIXTURES, '--format', 'json', '--now', NOW);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.err)).toMatchObject({ complete: true });
    expect(r.out.split('\n')[0]).toMatch(/^\{"identityId":/);
  });

  it('reports a failed run as {"complete":false,"error":{…}}', async () => {
    const dir = tenantWith({ first: { type: 'identityAttribute', attributes: { name: 'firstname' } } });
    writeFileSync(join(dir, 'accounts.json'), '[\n{"id":"a","identityId":"id-00","sourceId":"src-hr","attributes":{},}\n]\n');
    const r = await run('refresh', '--fixtures', dir, '--summary', '--format', 'json', '--workers', '0');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toMatchObject({ complete: false, error: { code: 'CLI_FIXTURES', message: expect.stringContaining('accounts.json:2:') } });
  });

  it('rejects another format', async () => {
    const r = await run('refresh', '--fixtures', FIXTURES, '--format', 'xml');
    expect(r.code).toBe(2);
    expect(r.err).toContain('--format must be text or json');
  });
});

describe('refresh --rules', () => {
  const rulesFile = () => {
    const file = join(tempDir('idt-rules-'), 'rules.mjs');
    writeFileSync(file, "export default { Greeting: ({ identity }) => `hello ${identity.name}` };\n");
    return file;
  };

  it.each(['0', '2'])('registers the module\'s rules (workers %s)', async (workers) => {
    const dir = tenantWith({ greeting: { type: 'rule', attributes: { name: 'Greeting' } } });
    const r = await run('refresh', '--fixtures', dir, '--rules', rulesFile(), '--workers', workers, '--batch-size', '8');
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n').map((l) => JSON.parse(l) as { identityId: string; attributes: { greeting: string }; errors: unknown[] });
    expect(lines.map((l) => l.attributes.greeting)).toEqual(ids.map((id) => `hello ${id}`));
    expect(lines.every((l) => l.errors.length === 0)).toBe(true);
  });

  it.each(['0', '2'])("fails a rule that answers with a promise in its own attribute, EVAL_RULE_FAILED, and the run goes on (workers %s)", async (workers) => {
    const file = join(tempDir('idt-rules-'), 'rules.mjs');
    writeFileSync(file, 'export default { Later: async () => "later" };\n');
    const dir = tenantWith({ later: { type: 'rule', attributes: { name: 'Later' } } });
    const r = await run('refresh', '--fixtures', dir, '--rules', file, '--workers', workers, '--batch-size', '8');
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n').map((l) => JSON.parse(l) as { identityId: string; attributes: Record<string, unknown>; errors: Array<{ attribute: string; code: string; message: string }> });
    expect(lines.map((l) => l.identityId)).toEqual(ids);
    for (const l of lines) {
      expect(l.attributes.later).toBeNull();
      expect(l.errors).toEqual([
        expect.objectContaining({ attribute: 'later', code: 'EVAL_RULE_FAILED', message: 'rule "Later" failed: it answered with a promise; a refresh evaluates each identity synchronously, so a rule must return its value' }),
      ]);
    }
  });

  it('reports a missing module before running', async () => {
    const r = await run('refresh', '--fixtures', FIXTURES, '--rules', '/nonexistent/rules.mjs', '--summary');
    expect(r.code).toBe(2);
    expect(r.err).toBe('RULES_MODULE_INVALID /nonexistent/rules.mjs: the rules module does not exist\n');
  });

  it.each([
    ['null', 'null'],
    ['Object.create(null)', '[object Object] that cannot be shown as text'],
  ])('reports a module that throws %s as it loads, before running', async (thrown, shown) => {
    const file = join(tempDir('idt-rules-'), 'rules.mjs');
    writeFileSync(file, `throw ${thrown};\nexport default {};\n`);
    const r = await run('refresh', '--fixtures', FIXTURES, '--rules', file, '--summary', '--workers', '0');
    expect(r.code).toBe(2);
    expect(r.err).toBe(`RULES_MODULE_INVALID ${pathToFileURL(file).href}: the rules module cannot be loaded: ${shown}\n`);
  });
});

describe('refresh with a usernameGenerator', () => {
  const generator = {
    type: 'usernameGenerator',
    attributes: {
      patterns: ['$fn.$ln', '$fn${uniqueCounter}'],
      fn: { type: 'lower', attributes: { input: { type: 'identityAttribute', attributes: { name: 'firstname' } } } },
      ln: { type: 'lower', attributes: { input: { type: 'identityAttribute', attributes: { name: 'lastname' } } } },
    },
  };

  it('issues names unique across the tenant and the run (not EVAL_PROVIDER_MISSING)', async () => {
    const dir = tenantWith({ username: generator });
    const r = await run('refresh', '--fixtures', dir);
    expect(r.code).toBe(0);
    const names = r.out.trimEnd().split('\n').map((l) => (JSON.parse(l) as { attributes: { username: string } }).attributes.username);
    expect(names.slice(0, 4)).toEqual(['john', 'john.doe', 'john1', 'john2']);
    expect(new Set(names).size).toBe(30);
    expect(r.err).toContain('main thread');
  });

  it('refuses more than one worker thread: the names issued must stay unique across the run', async () => {
    const dir = tenantWith({ username: generator });
    const r = await run('refresh', '--fixtures', dir, '--workers', '2');
    expect(r.code).toBe(2);
    expect(r.err).toContain('usernameGenerator');
  });

  it('issues the same names on one worker thread as on the main thread', async () => {
    const dir = tenantWith({ username: generator });
    const [main, worker] = await Promise.all([run('refresh', '--fixtures', dir, '--workers', '0'), run('refresh', '--fixtures', dir, '--workers', '1', '--batch-size', '7')]);
    expect(worker.code).toBe(0);
    expect(worker.out).toBe(main.out);
    expect(new Set(worker.out.trimEnd().split('\n').map((l) => (JSON.parse(l) as { attributes: { username: string } }).attributes.username)).size).toBe(30);
  });
});

describe('refresh with an unknown sourceName', () => {
  it('reports EVAL_UNKNOWN_SOURCE per identity, naming the source probably meant', async () => {
    const dir = tenantWith({ first: { type: 'accountAttribute', attributes: { sourceName: 'hr', attributeName: 'first' } } });
    const r = await run('refresh', '--fixtures', dir, '--workers', '0');
    const first = JSON.parse(r.out.split('\n')[0]!) as { errors: { code: string; message: string }[] };
    expect(first.errors).toEqual([expect.objectContaining({ code: 'EVAL_UNKNOWN_SOURCE', message: 'no source matches {"sourceName":"hr"}; did you mean "HR"?' })]);
  });
});
