// Sharing through the URL's fragment, which a browser never sends to a server: the text, the
// example it came from and the identity, deflated and base64url-encoded. The link shared leaves
// out the token; whoever opens it appends the fragment to their own playground's URL.

import { MAX_NAME } from '../request-bounds.js';

export interface Shared {
  document: string;
  file?: string;
  identity?: string;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
const fromBase64Url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

/**
 * Bytes a shared fragment may inflate to: far above any document the server takes (it refuses a
 * body above 400 KB + 16 KB), far below what a deflate bomb of a long URL would make (about 1,000
 * times its size: gigabytes, a crashed tab).
 */
export const MAX_SHARED_BYTES = 4 * 1024 * 1024;

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const reader = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.length;
    if (size > MAX_SHARED_BYTES) {
      await reader.cancel();
      throw new RangeError(`more than ${MAX_SHARED_BYTES} bytes`);
    }
    chunks.push(read.value);
  }
  const out = new Uint8Array(size);
  chunks.reduce((at, chunk) => (out.set(chunk, at), at + chunk.length), 0);
  return out;
}

export async function encodeShared(shared: Shared): Promise<string> {
  return 's=' + toBase64Url(await pipe(new TextEncoder().encode(JSON.stringify(shared)), new CompressionStream('deflate-raw')));
}

const nameOf = (value: unknown) => (typeof value === 'string' && value.length > 0 && value.length <= MAX_NAME ? value : undefined);

/** The shared state of a fragment, or undefined when it holds none (or not one this page wrote). */
export async function decodeShared(fragment: string): Promise<Shared | undefined> {
  const text = fragment.replace(/^#/, '');
  if (!text.startsWith('s=')) return undefined;
  try {
    const bytes = await pipe(fromBase64Url(text.slice(2)), new DecompressionStream('deflate-raw'));
    const value = JSON.parse(new TextDecoder().decode(bytes)) as Partial<Record<keyof Shared, unknown>> | null;
    if (typeof value?.document !== 'string') return undefined;
    // An example or identity the API would refuse (not a name, empty, too long) is left out: kept,
    // it would have every call of the page refused until another was picked.
    const file = nameOf(value.file);
    const identity = nameOf(value.identity);
    return { document: value.document, ...(file !== undefined ? { file } : {}), ...(identity !== undefined ? { identity } : {}) };
  } catch {
    return undefined;
  }
}
