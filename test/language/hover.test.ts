// Hover at a caret marker: documentation, and the node's value for the workspace's identity.

import { describe, expect, it } from 'vitest';
import { doHover, parseDocument } from '../../src/language/index.js';
import { bundled, caret, workspace } from './workspace.js';

async function hover(marked: string, options: { identity?: boolean; texts?: Record<string, string> } = {}) {
  const { text, offset } = caret(marked);
  const { tenant, identity } = await bundled();
  return doHover(parseDocument('file:///t.json', text), offset, workspace(options.texts ?? {}, { tenant, ...(options.identity === false ? {} : { identity }) }));
}

const FIRST_NAME = '{"name":"x","type":"upper","attributes":{"input":{"type":"accountAttribute","attributes":{"sourceName":"Workday","attributeName":"FIRST_NAME"}}}}';

describe('doHover', () => {
  it('documents the operation on its type', async () => {
    const found = await hover('{"name":"x","type":"up|per"}', { identity: false });
    expect(found?.contents).toContain('**upper**: upper case in the root locale');
    expect(found?.span).toEqual({ offset: 19, length: 7 });
  });

  it('documents an attribute on its key', async () => {
    const found = await hover('{"name":"x","type":"accountAttribute","attributes":{"source|Name":"Workday","attributeName":"A"}}', { identity: false });
    expect(found?.contents).toContain('`sourceName` of **accountAttribute**: a string');
  });

  it('shows the value of the root for the identity, with the trace in short', async () => {
    const found = await hover(FIRST_NAME.replace('"upper"', '"up|per"'));
    expect(found?.contents).toContain('**fatima.schroder**: `"FATIMA"`');
    expect(found?.contents).toContain('accountAttribute /attributes/input');
  });

  it('shows the value of a nested node, not the root\'s', async () => {
    const found = await hover(FIRST_NAME.replace('"Workday"', '"Work|day"'));
    expect(found?.contents).toContain('**fatima.schroder**: `"Fatima"`');
  });

  it('shows the coded error of a node that fails', async () => {
    const found = await hover('{"name":"x","type":"lookup","attributes":{"input":"zz","table":{"a":"b"}}|}');
    expect(found?.contents).toContain('✗ `EVAL_LOOKUP_NO_MATCH`');
  });

  it('evaluates a reference to another document of the workspace', async () => {
    const found = await hover('{"name":"x","type":"reference","attributes":{"id":"Base|"}}', { texts: { 'file:///b.json': '{"name":"Base","type":"static","attributes":{"value":"from b"}}' } });
    expect(found?.contents).toContain('`"from b"`');
  });

  it('says nothing of values without an identity, and nothing outside a transform', async () => {
    expect(await hover('{"name":"x","type":"upper","attributes":{"input":"a|"}}', { identity: false })).toBeUndefined();
    expect(await hover('[1|]')).toBeUndefined();
  });
});
