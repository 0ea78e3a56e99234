// Completion at a caret marker, as vscode-json-languageservice's tests are written.

import { describe, expect, it } from 'vitest';
import { doComplete, parseDocument } from '../../src/language/index.js';
import { bundled, caret, workspace } from './workspace.js';

async function complete(marked: string, texts: Record<string, string> = {}) {
  const { text, offset } = caret(marked);
  const { tenant } = await bundled();
  return doComplete(parseDocument('file:///t.json', text), offset, workspace(texts, { tenant }));
}
const labels = async (marked: string, texts?: Record<string, string>) => (await complete(marked, texts)).map((i) => i.label);

describe('doComplete', () => {
  it('offers every operation type after "type", with its documentation, replacing the string typed', async () => {
    const items = await complete('{"name":"x","type":"up|"}');
    expect(items.map((i) => i.label)).toContain('upper');
    expect(items.map((i) => i.label)).toContain('accountAttribute');
    const upper = items.find((i) => i.label === 'upper')!;
    expect(upper).toMatchObject({ kind: 'operation', insertText: '"upper"', replace: { offset: 19, length: '"up"'.length } });
    expect(upper.documentation).toContain('**upper**');
  });

  it.each([
    ['the attribute keys of the node\'s type, without those present', '{"type":"accountAttribute","attributes":{"sourceName":"Okta","|"}}', ['accountFilter', 'attributeName'], ['sourceName']],
    ['the values of an enum', '{"type":"iso3166","attributes":{"format":"|"}}', ['alpha2', 'alpha3', 'numeric'], []],
    ['the source names of the tenant model', '{"type":"accountAttribute","attributes":{"sourceName":"|"}}', ['Workday', 'Active Directory', 'Okta'], []],
    ['the application names of the tenant model', '{"type":"accountAttribute","attributes":{"applicationName":"|"}}', ['Workday [source]'], ['Workday']],
    ['the attributes the accounts of the named source carry', '{"type":"accountAttribute","attributes":{"sourceName":"Workday","attributeName":"|"}}', ['FIRST_NAME', 'WORKER_TYPE'], []],
    ['the identity attributes for identityAttribute', '{"type":"identityAttribute","attributes":{"name":"|"}}', ['uid', 'department'], []],
    ['the top-level keys of a transform', '{"type":"upper", "|"}', ['attributes', 'requiresPeriodicRefresh'], ['type']],
    ['the transform names of the workspace for a reference', '{"type":"reference","attributes":{"id":"|"}}', ['Base Name'], []],
  ])('offers %s', async (_, marked, present, absent) => {
    const found = await labels(marked, { 'file:///b.json': '{"name":"Base Name","type":"upper"}' });
    for (const label of present) expect(found).toContain(label);
    for (const label of absent) expect(found).not.toContain(label);
  });

  it('documents each attribute key', async () => {
    const items = await complete('{"type":"accountAttribute","attributes":{"|"}}');
    expect(items.find((i) => i.label === 'attributeName')).toMatchObject({ kind: 'attribute', detail: 'a string', documentation: '`attributeName` of **accountAttribute**: a string, required' });
  });

  it('offers the $variables a static template can use, replacing what was typed after $', async () => {
    const items = await complete('{"type":"static","attributes":{"first":"a","last":"b","value":"$fi|"}}');
    expect(items.map((i) => i.label)).toEqual(['$first', '$last']);
    expect(items[0]).toMatchObject({ kind: 'variable', insertText: '$first', replace: { offset: '{"type":"static","attributes":{"first":"a","last":"b","value":"'.length, length: '$fi'.length } });
  });

  it.each([
    ['half-typed JSON', '{"type":"|'],
    ['an empty text', '|'],
    ['a caret outside any transform', '[1, |]'],
    ['a key of an unknown type', '{"type":"nope","attributes":{"|"}}'],
  ])('answers %s without throwing', async (_, marked) => {
    expect(Array.isArray(await complete(marked))).toBe(true);
  });
});
