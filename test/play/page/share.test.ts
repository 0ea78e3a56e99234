// The page's shared links: the fragment round-trips the text, the example and the identity, and a
// fragment that inflates past MAX_SHARED_BYTES (a deflate bomb in a long URL) holds no state
// rather than taking the tab's memory.

import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_SHARED_BYTES, decodeShared, encodeShared } from '../../../src/play/page/share.js';
import { MAX_NAME } from '../../../src/play/request-bounds.js';

const fragmentOf = (bytes: Buffer) => `#s=${bytes.toString('base64url')}`;

describe('shared links', () => {
  it('round-trip the text, the example and the identity', async () => {
    const shared = { document: '{"name":"x","type":"upper","attributes":{"input":"é"}}', file: 'transforms/x.json', identity: 'fatima.schroder' };
    expect(await decodeShared(`#${await encodeShared(shared)}`)).toEqual(shared);
  });

  it('a fragment that inflates past the bound holds no state', async () => {
    const bomb = deflateRawSync(Buffer.from(JSON.stringify({ document: ' '.repeat(MAX_SHARED_BYTES) })));
    expect(bomb.length).toBeLessThan(MAX_SHARED_BYTES / 100);
    expect(await decodeShared(fragmentOf(bomb))).toBeUndefined();
  });

  it('a fragment just under the bound is read', async () => {
    const document = ' '.repeat(MAX_SHARED_BYTES - 100);
    expect((await decodeShared(fragmentOf(deflateRawSync(Buffer.from(JSON.stringify({ document }))))))?.document).toBe(document);
  });

  it.each([
    ['a number', 5],
    ['an object', { id: 'x' }],
    ['an empty name', ''],
    ['a name above the API\'s bound', 'x'.repeat(MAX_NAME + 1)],
  ])('keep the text of a link whose example and identity are %s, and leave those out', async (_, name) => {
    const document = '{"name":"x","type":"upper"}';
    expect(await decodeShared(fragmentOf(deflateRawSync(Buffer.from(JSON.stringify({ document, file: name, identity: name })))))).toEqual({ document });
  });

  it.each([
    ['not base64', '#s=%%%'],
    ['not deflated', `#s=${Buffer.from('plain').toString('base64url')}`],
    ['not JSON', fragmentOf(deflateRawSync(Buffer.from('{"document":')))],
    ['null', fragmentOf(deflateRawSync(Buffer.from('null')))],
    ['nested 100,000 levels deep', fragmentOf(deflateRawSync(Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)))],
  ])('a fragment that is %s holds no state', async (_, fragment) => {
    expect(await decodeShared(fragment)).toBeUndefined();
  });
});
