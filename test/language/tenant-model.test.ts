// The workspace's tenant model: found by walking up, read into names, one identity's records read
// on their own; and the workspace host loading it in the background.

import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findFixturesDir, loadIdentityRecords, loadTenantModel } from '../../src/language/index.js';
import { WorkspaceHost } from '../../src/language/workspace-host.js';
import { FIXTURES } from './workspace.js';

describe('the tenant model', () => {
  it('is found by walking up from a transform file, or beside a fixtures/ folder', () => {
    expect(findFixturesDir(join(FIXTURES, 'transforms', 'ad-username.json'))).toBe(FIXTURES);
    expect(findFixturesDir(join(FIXTURES, '..', 'src', 'index.ts'))).toBe(FIXTURES);
    expect(findFixturesDir('/')).toBeUndefined();
  });

  it('holds the sources, the attributes their accounts carry, and the identities by name', async () => {
    const model = await loadTenantModel(FIXTURES);
    expect(model.sources.map((s) => s.name)).toContain('Workday');
    const workday = model.sourceIndex.byName('Workday')!;
    expect(model.accountAttributes(workday.id)).toContain('FIRST_NAME');
    expect(model.identities).toHaveLength(209);
    expect(model.identityAttributes).toContain('department');
  });

  it("takes the attribute names a source's account schema declares (a snapshot's source-schemas.json) beside those its accounts carry", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idt-model-'));
    try {
      for (const f of ['sources.json', 'accounts.json']) cpSync(join(FIXTURES, f), join(dir, f));
      const workday = (await loadTenantModel(dir)).sourceIndex.byName('Workday')!;
      const schema = (name: string, attributes: string[]) => JSON.stringify({ sourceId: workday.id, id: `s-${name}`, name, attributes: attributes.map((a) => ({ name: a, type: 'STRING' })) });
      writeFileSync(join(dir, 'source-schemas.json'), `[\n${schema('account', ['FIRST_NAME', 'PRONOUNS'])},\n${schema('group', ['GROUP_ONLY'])}\n]\n`);
      const names = (await loadTenantModel(dir)).accountAttributes(workday.id);
      // Declared by the account schema though no account carries it; not the group schema's.
      expect(names).toContain('PRONOUNS');
      expect(names).not.toContain('GROUP_ONLY');
      // The names accounts carry stay.
      expect(names).toContain('FIRST_NAME');
      expect(names).toContain('LAST_NAME');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads one identity with its accounts and manager, by name or id', async () => {
    const byName = await loadIdentityRecords(FIXTURES, 'fatima.schroder');
    expect(byName?.identity.name).toBe('fatima.schroder');
    expect(byName?.accounts.every((a) => a.identityId === byName.identity.id)).toBe(true);
    expect((await loadIdentityRecords(FIXTURES, byName!.identity.id))?.identity.name).toBe('fatima.schroder');
    expect(await loadIdentityRecords(FIXTURES, 'nobody')).toBeNull();
  });

  it('is loaded by the workspace host in the background, which says when more is known', async () => {
    let changes = 0;
    const host = new WorkspaceHost(() => void changes++);
    host.configure({ identity: 'fatima.schroder' });
    host.setText(pathToFileURL(join(FIXTURES, 'transforms', 'new.json')).href, '{"name":"n","type":"upper"}');
    // At once: answered without the model.
    expect(host.workspace().tenant).toBeUndefined();
    await host.settled();
    expect(host.workspace().tenant?.dir).toBe(FIXTURES);
    expect(host.workspace().identity?.identity.name).toBe('fatima.schroder');
    expect(changes).toBeGreaterThan(0);
    expect(host.problems).toEqual([]);
  });

  it('reports a fixtures directory it cannot read as a problem, and goes on without it', async () => {
    const host = new WorkspaceHost();
    host.configure({ fixtures: join(FIXTURES, 'transforms', 'ad-username.json') });
    await host.settled();
    expect(host.workspace().tenant).toBeUndefined();
    expect(host.problems).toHaveLength(1);
  });

  describe('refuses a record file that is not a regular file, unread, with CLI_READ naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idt-model-hostile-'));
    const hostile = (name: string, file: string, make: (path: string) => void) => {
      const fixtures = join(dir, name);
      mkdirSync(fixtures);
      make(join(fixtures, file));
      return join(fixtures, file);
    };
    it.each([
      // A FIFO without a writer held the model's load for ever; /dev/zero was read to 512 MB and ended in "Invalid string length".
      ['sources.json as a FIFO', 'sources.json', (path: string) => execFileSync('mkfifo', [path])],
      ['sources.json linked to /dev/zero', 'sources.json', (path: string) => symlinkSync('/dev/zero', path)],
      ['identities.json as a FIFO', 'identities.json', (path: string) => execFileSync('mkfifo', [path])],
      ['accounts.json linked to /dev/urandom', 'accounts.json', (path: string) => symlinkSync('/dev/urandom', path)],
    ])('%s', async (name, file, make) => {
      const path = hostile(name.replace(/\W+/g, '-'), file, make);
      const error = await loadTenantModel(join(path, '..')).then(() => undefined, (e: unknown) => e as { code: string; message: string });
      expect(error).toMatchObject({ code: 'CLI_READ', message: `cannot read ${path}: is not a regular file (a device, a FIFO or a socket)` });
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
  });

  describe('refuses a record that is not JSON with CLI_FIXTURES at its file:line:column, read alone or in the model', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idt-model-malformed-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    // A JSON.parse SyntaxError without code or place ("Unexpected token '\ufffd'") reached the
    // MCP client and the editor's log before.
    it.each([
      ['bytes that are not UTF-8', Buffer.concat([Buffer.from('[{"id":"1","name":"a"},\n  '), Buffer.from([0xff, 0xfe]), Buffer.from(']')]), 'element 1 of the array is not valid JSON: unexpected character "\ufffd" where a value was expected'],
      ['a bare word', Buffer.from('[{"id":"1","name":"a"},\n  nope]'), 'element 1 of the array is not valid JSON: unexpected character "n" where a value was expected'],
    ])('%s', async (name, bytes, message) => {
      const fixtures = join(dir, name.replace(/\W+/g, '-'));
      mkdirSync(fixtures);
      const file = join(fixtures, 'identities.json');
      writeFileSync(file, bytes);
      const expected = { code: 'CLI_FIXTURES', message: `${file}:2:3: ${message}`, path: '/1' };
      await expect(loadTenantModel(fixtures)).rejects.toMatchObject(expected);
      await expect(loadIdentityRecords(fixtures, 'b')).rejects.toMatchObject(expected);
    });
  });
});
