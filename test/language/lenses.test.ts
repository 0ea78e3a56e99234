// Code lenses: "Evaluate for …" and "Explain" above each transform, run by the engine.

import { describe, expect, it } from 'vitest';
import { evaluateLens, findCodeLenses, parseDocument } from '../../src/language/index.js';
import { bundled, workspace } from './workspace.js';

const PROFILE = '{"name":"p","identityAttributeConfig":{"attributeTransforms":[{"identityAttributeName":"first","transformDefinition":{"type":"accountAttribute","attributes":{"sourceName":"Workday","attributeName":"FIRST_NAME"}}}]}}';

describe('code lenses', () => {
  it('puts Evaluate for the identity and Explain above each mapping of a profile', async () => {
    const { tenant, identity } = await bundled();
    const lenses = findCodeLenses(parseDocument('u', PROFILE), workspace({}, { tenant, identity }));
    expect(lenses.map((l) => [l.title, l.command, l.pointer])).toEqual([
      ['Evaluate for fatima.schroder', 'evaluate', '/identityAttributeConfig/attributeTransforms/0/transformDefinition'],
      ['Explain', 'explain', '/identityAttributeConfig/attributeTransforms/0/transformDefinition'],
    ]);
  });

  it('evaluates and explains what a lens names', async () => {
    const { tenant, identity } = await bundled();
    const ws = workspace({}, { tenant, identity });
    const doc = parseDocument('u', PROFILE);
    const pointer = '/identityAttributeConfig/attributeTransforms/0/transformDefinition';
    expect(evaluateLens(doc, 'evaluate', pointer, ws).text).toBe('first for fatima.schroder: "Fatima"');
    const explained = evaluateLens(doc, 'explain', pointer, ws).text;
    expect(explained).toContain('2 accounts considered, sorted by created ascending');
    expect(explained).toContain('value: "Fatima"');
  });

  it('says how to choose an identity when there is none', () => {
    const doc = parseDocument('u', '{"name":"x","type":"upper"}');
    expect(findCodeLenses(doc, workspace({}))[0]!.title).toBe('Evaluate (set an identity)');
    expect(evaluateLens(doc, 'evaluate', '', workspace({})).text).toMatch(/^no identity to evaluate for/);
  });

  // The pointer comes from the client's command: 100,000 characters of it were shown whole.
  it('says a pointer names no transform, quoting a long one by its two ends', () => {
    const doc = parseDocument('u', '{"name":"x","type":"upper"}');
    expect(evaluateLens(doc, 'evaluate', '/nope', workspace({})).text).toBe('no transform at /nope of u');
    expect(evaluateLens(doc, 'evaluate', '/a'.repeat(50_000), workspace({})).text).toBe(`no transform at ${'/a'.repeat(30)}…${'/a'.repeat(30)} of u`);
  });
});
