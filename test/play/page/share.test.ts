// The page's shared links: the fragment round-trips the text, the example and the identity, and a
// fragment that inflates past MAX_SHARED_BYTES (a deflate bomb in a long URL) holds no state
// rather than taking the tab's memory.

import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_SHARED_BYTES, decodeShared, encodeShared } from '../../../src/play/page/share.js';

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
});
