// The language server's bounds on its client's bytes (src/lsp/framing.ts): messages within them
// pass through whole, however the stream cuts them; a header without end, a Content-Length that
// is not digits or is above 64 MB fail the stream with LSP_FRAMING before anything is buffered.

import { describe, expect, it } from 'vitest';
import { BoundedFrames, MAX_MESSAGE_BYTES } from '../../src/lsp/framing.js';

const frame = (content: string) => `Content-Length: ${Buffer.byteLength(content)}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n${content}`;

/** What the stream passes on for the chunks, or its error. */
function through(chunks: (string | Buffer)[]): Promise<{ passed: string; error?: { code: string; message: string } }> {
  const frames = new BoundedFrames();
  const passed: Buffer[] = [];
  return new Promise((resolve) => {
    frames.on('data', (b: Buffer) => passed.push(b));
    frames.on('end', () => resolve({ passed: Buffer.concat(passed).toString() }));
    frames.on('error', (error) => resolve({ passed: Buffer.concat(passed).toString(), error: error as unknown as { code: string; message: string } }));
    for (const c of chunks) frames.write(c);
    frames.end();
  });
}

describe('BoundedFrames', () => {
  it('passes messages whole, cut anywhere, a multi-byte character included', async () => {
    const text = frame('{"jsonrpc":"2.0","id":1,"method":"initialize"}') + frame('{"jsonrpc":"2.0","method":"x","params":"é€😀"}');
    const bytes = Buffer.from(text);
    for (const cut of [1, 7, 17, 40, bytes.length - 3]) {
      expect(await through([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual({ passed: text });
    }
    expect(await through([...bytes].map((b) => Buffer.from([b])))).toEqual({ passed: text });
  });

  it.each([
    ['a header block without end', ['X-Padding: ' + 'a'.repeat(9000)], "a message's header is above the limit of 8192 bytes without its end (an empty line)"],
    ['a Content-Length above 64 MB', [`Content-Length: ${MAX_MESSAGE_BYTES + 1}\r\n\r\n{}`], 'a message of 67108865 bytes is above the limit of 67108864 bytes (64 MB)'],
    ['a Content-Length of 2 GB', ['Content-Length: 2000000000\r\n\r\n'], 'a message of 2000000000 bytes is above the limit of 67108864 bytes (64 MB)'],
    ['a negative Content-Length', ['Content-Length: -5\r\n\r\n{}'], 'a message\'s Content-Length is not a number of bytes: "-5"'],
    ['a Content-Length that is not a number', ['Content-Length: abc\r\n\r\n{}'], 'a message\'s Content-Length is not a number of bytes: "abc"'],
    ['no Content-Length', ['Content-Type: application/json\r\n\r\n{}'], 'a message has no Content-Length header'],
  ])('fails the stream with LSP_FRAMING for %s', async (_, chunks, message) => {
    const { error } = await through([frame('{"jsonrpc":"2.0","method":"initialized"}'), ...chunks]);
    expect(error).toMatchObject({ code: 'LSP_FRAMING', message });
  });
});
