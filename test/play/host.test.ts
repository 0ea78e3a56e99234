// The playground's answers without HTTP: each from the language service or the library, for the
// bundled tenant. What the page shows is what these return.

import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { impact } from '../../src/impact/index.js';
import { PlayHost } from '../../src/play/host.js';
import { MAX_TRACE_NODES } from '../../src/play/trace-spans.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures');
const FIRST_NAME = JSON.stringify({ name: 'First', type: 'accountAttribute', attributes: { sourceName: 'Workday', attributeName: 'FIRST_NAME' } }, null, 2);
const UPPER_FIRST = JSON.stringify({ name: 'Upper', type: 'upper', attributes: { input: JSON.parse(FIRST_NAME) } }, null, 2);

describe('the playground host over the bundled tenant', () => {
  let host: PlayHost;
  beforeAll(async () => {
    host = await PlayHost.open(FIXTURES);
  });

  it('lists the fixtures\' identity profiles and transforms as examples, and reads one as it is on disk', () => {
    const examples = host.examples();
    expect(examples[0]).toEqual({ file: 'identity-profiles/default.json', kind: 'identity-profile', name: 'Employees' });
    expect(examples).toContainEqual({ file: 'transforms/clean-department.json', kind: 'transform', name: 'Clean Department' });
    expect(JSON.parse(host.exampleText('transforms/clean-department.json'))).toMatchObject({ name: 'Clean Department', type: 'replace' });
  });

  it('reads no file that is not an example', () => {
    expect(() => host.exampleText('../package.json')).toThrow(expect.objectContaining({ code: 'PLAY_NOT_FOUND' }));
    expect(() => host.exampleText('sources.json')).toThrow(expect.objectContaining({ code: 'PLAY_NOT_FOUND' }));
  });

  it('finds identities by part of their name, case-insensitively, and counts them all', () => {
    const found = host.identities('NOAH');
    expect(found.matches.map((i) => i.name)).toEqual(['noah.andersen', 'noah.dangelo', 'noah.wilson', 'noah.obrien']);
    expect(found.total).toBe(4);
    expect(host.identities('', 10)).toMatchObject({ total: 209, matches: expect.arrayContaining([{ id: '2c91808409f45f693cd6e3f3a2393ef1', name: 'fatima.schroder' }]) });
  });

  it('analyze: the value for the identity, and the explanation with the accounts considered, each node at its JSON', async () => {
    const answer = await host.analyze({ document: UPPER_FIRST, identity: 'fatima.schroder' });
    expect(answer).toMatchObject({ diagnostics: [], value: 'FATIMA', evaluated: { pointer: '', identity: { name: 'fatima.schroder' } } });
    const inner = answer.trace!.children[0]!;
    expect(inner.type).toBe('accountAttribute');
    expect(inner.decisions).toMatchObject({ source: expect.anything(), attribute: 'FIRST_NAME', accounts: expect.any(Array), returned: expect.anything() });
    expect(JSON.parse(UPPER_FIRST.slice(inner.span!.offset, inner.span!.offset + inner.span!.length))).toEqual(JSON.parse(FIRST_NAME));
  });

  it('analyze: another identity, another value', async () => {
    expect((await host.analyze({ document: FIRST_NAME, identity: 'noah.andersen' })).value).toBe('Noah');
  });

  it('analyze: half-typed JSON gets its syntax error located, and no value', async () => {
    const answer = await host.analyze({ document: '{"name": "x", "type": "upper", "attributes": {', identity: 'fatima.schroder' });
    expect(answer.diagnostics[0]).toMatchObject({ severity: 'error', code: 'VALIDATE_JSON_SYNTAX', line: 1 });
    expect(answer).not.toHaveProperty('value');
  });

  it('analyze: a misspelt operation is found with its code, span and suggestion', async () => {
    const text = FIRST_NAME.replace('accountAttribute', 'acountAttribute');
    const [finding] = (await host.analyze({ document: text })).diagnostics;
    expect(finding).toMatchObject({ code: 'SCHEMA_ENUM', suggestion: 'accountAttribute', line: 3 });
    expect(text.slice(finding!.offset, finding!.offset + finding!.length)).toBe('"acountAttribute"');
  });

  it('analyze: a template past the server\'s budget gives the coded limit, and the host answers the next request', async () => {
    const loop = JSON.stringify({ name: 'Loop', type: 'static', attributes: { value: '#set($s = "x")#foreach($i in [1..40])#set($s = "$s$s")#end$s' } });
    const answer = await host.analyze({ document: loop, identity: 'fatima.schroder' });
    expect(answer.error).toMatchObject({ code: 'EVAL_LIMIT_STRING' });
    expect((await host.analyze({ document: FIRST_NAME, identity: 'fatima.schroder' })).value).toBe('Fatima');
  });

  it('analyze: the mapping of a profile under the caret is the one evaluated', async () => {
    const text = host.exampleText('identity-profiles/default.json');
    const at = text.indexOf('LAST_NAME');
    const answer = await host.analyze({ document: text, identity: 'fatima.schroder', offset: at, file: 'identity-profiles/default.json' });
    expect(answer.evaluated).toMatchObject({ label: 'lastname' });
    expect(answer.value).toBe('Schröder');
  });

  it('analyze: an unknown identity is PLAY_NOT_FOUND at /identity', async () => {
    await expect(host.analyze({ document: FIRST_NAME, identity: 'nobody.at.all' })).rejects.toMatchObject({ code: 'PLAY_NOT_FOUND', path: '/identity' });
  });

  it('locates the nodes of the edited text only: a referenced transform\'s nodes are in its own file', async () => {
    const text = JSON.stringify({ name: 'Ref', type: 'reference', attributes: { id: 'Clean Department', input: 'Sales & Marketing' } });
    const answer = await host.analyze({ document: text, identity: 'fatima.schroder' });
    expect(answer.value).toBe('Sales and Marketing');
    expect(answer.trace!.span).toEqual({ offset: 0, length: text.length });
    const inside = answer.trace!.children.find((n) => n.transform === 'Clean Department')!;
    expect(inside.type).toBe('replace');
    expect(inside.span).toBeUndefined();
  });

  it('cuts an explanation at its node limit', async () => {
    const many = JSON.stringify({ name: 'Many', type: 'concat', attributes: { values: Array.from({ length: MAX_TRACE_NODES + 10 }, () => ({ type: 'static', attributes: { value: 'a' } })) } });
    const trace = (await host.analyze({ document: many, identity: 'fatima.schroder' })).trace!;
    expect(trace.children.length).toBe(MAX_TRACE_NODES - 1);
    expect(trace.omitted).toBe(11);
  });

  it('complete: the operation types after "type"', () => {
    const text = '{"name": "x", "type": "up"}';
    const labels = host.complete({ document: text, offset: text.indexOf('up') + 2 }).items.map((i) => i.label);
    expect(labels).toContain('upper');
  });

  it('hover: the documentation of an operation', () => {
    expect(host.hover({ document: FIRST_NAME, offset: FIRST_NAME.indexOf('accountAttribute') + 2 }).hover?.contents).toContain('accountAttribute');
  });

  it('profile: every attribute of the fixtures\' profile for the identity, with the edited transform in place of its file', async () => {
    const file = 'transforms/clean-department.json';
    const department = async (document: string) => (await host.profile({ document, file, identity: 'fatima.schroder' })).attributes.find((a) => a.name === 'department');
    const before = await host.profile({ document: host.exampleText(file), file, identity: 'fatima.schroder' });
    expect(before.profile).toBe('Employees');
    expect(before.attributes.map((a) => a.name)).toEqual(JSON.parse(host.exampleText('identity-profiles/default.json')).identityAttributeConfig.attributeTransforms.map((m: { identityAttributeName: string }) => m.identityAttributeName));
    expect(await department(host.exampleText(file))).toEqual({ name: 'department', value: 'Customer Success', stored: 'Executive' });
    expect(await department(JSON.stringify({ name: 'Clean Department', type: 'upper', attributes: {} }))).toEqual({ name: 'department', value: 'CUSTOMER SUCCESS', stored: 'Executive' });
  });

  it('profile: none for a document the language service leaves unread (nested too deep), not the fixtures\' profile in its place', async () => {
    const deep = `{"name": "Deep", "identityAttributeConfig": {"attributeTransforms": ${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    expect((await host.analyze({ document: deep, identity: 'fatima.schroder' })).diagnostics.map((d) => d.code)).toContain('JSON_TOO_DEEP');
    expect(await host.profile({ document: deep, identity: 'fatima.schroder' })).toEqual({ profile: null, attributes: [] });
  });

  describe('impact', () => {
    const work = mkdtempSync(join(tmpdir(), 'play-impact-'));
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    it('is impact\'s own report: the same counts as impact over a copy of the fixtures with the file edited', async () => {
      const edited = JSON.stringify({ name: 'Clean Department', type: 'upper', attributes: {} }, null, 2);
      const mine = await host.impact({ document: edited, file: 'transforms/clean-department.json' });
      const head = join(work, 'head');
      cpSync(FIXTURES, head, { recursive: true });
      writeFileSync(join(head, 'transforms/clean-department.json'), edited);
      const theirs = await impact({ base: FIXTURES, head, fixtures: FIXTURES, workers: 0 });
      const counts = (r: typeof mine) => r.profiles.map((p) => p.attributes.map(({ examples: _e, ...a }) => a));
      expect(counts(mine)).toEqual(counts(theirs));
      expect(mine.totals).toEqual(theirs.totals);
      expect(mine.totals.changed).toBeGreaterThan(0);
    });

    it('needs valid JSON and an example to compare with', async () => {
      await expect(host.impact({ document: '{"name": ', file: 'transforms/clean-department.json' })).rejects.toMatchObject({ code: 'PLAY_REQUEST_INVALID', path: '/document' });
      await expect(host.impact({ document: '{}', file: 'transforms/none.json' })).rejects.toMatchObject({ code: 'PLAY_NOT_FOUND', path: '/file' });
    });
  });
});
