// The MCP server's bound on a line of its client: lines within it pass through whole, however
// many and however split into chunks; the first line above it fails the stream with MCP_FRAMING.

import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BoundedLines, MAX_LINE_BYTES } from '../../src/mcp/framing.js';

/** What the bound passes through of these chunks, or the error it fails with. */
async function through(chunks: Buffer[]): Promise<{ bytes: number } | { code: string; message: string }> {
  let bytes = 0;
  try {
    for await (const chunk of Readable.from(chunks).pipe(new BoundedLines())) bytes += (chunk as Buffer).length;
    return { bytes };
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
}

describe('BoundedLines', () => {
  it('passes lines within the bound through, their total far above it', async () => {
    const line = Buffer.concat([Buffer.alloc(MAX_LINE_BYTES - 1, 'x'), Buffer.from('\n')]);
    expect(await through([line, line, line])).toEqual({ bytes: 3 * line.length });
  });

  it('counts a line split across chunks as one', async () => {
    const half = Buffer.alloc(MAX_LINE_BYTES / 2, 'x');
    expect(await through([Buffer.from('{}\n'), half, half, Buffer.from('\n')])).toEqual({ bytes: 3 + MAX_LINE_BYTES + 1 });
    expect(await through([Buffer.from('{}\n'), half, half, Buffer.from('x\n')])).toMatchObject({ code: 'MCP_FRAMING' });
  });

  it('fails with MCP_FRAMING at a line above the bound, ended or not', async () => {
    const message = `a message is above the limit of ${MAX_LINE_BYTES} bytes (8 MB): a line of stdio is one message`;
    expect(await through([Buffer.alloc(MAX_LINE_BYTES + 1, 'x')])).toEqual({ code: 'MCP_FRAMING', message });
    expect(await through([Buffer.from('{}\n'), Buffer.concat([Buffer.alloc(MAX_LINE_BYTES + 1, 'x'), Buffer.from('\n{}\n')])])).toEqual({ code: 'MCP_FRAMING', message });
  });
});
